/* fix_wall_region_hertz2d.h: fix wall/hertz2d/region, the surfaces of a LAMMPS region as rigid
 * walls contacted by the hertz2d law.
 *
 *     fix ID group wall/hertz2d/region MU REGION-ID
 *
 * Any region LAMMPS describes in 2D, its surfaces lines and circles in the xy plane: `region
 * ... plane` (a line at any angle), `block` (four lines), `cylinder z` (a circle: a drum with
 * `side in`, an obstacle with `side out`), `prism`, unions and intersections; moving or rotating
 * with the region's `move` and `rotate` keywords (the wall's velocity at the contact point is the
 * region's, so a rotating drum drags the discs). Each contact as wall_contact.h (the mirror rule
 * in the surface's tangent at the contact; the history kept per disc and per surface of the
 * region), as LAMMPS's fix wall/gran/region finds the contacts (a disc whose centre is outside
 * the region has none).
 *
 * Global vector (6 values): the discs touching the walls, their force on the walls (x, y; N/m),
 * then, cumulative from the fix's creation (J/m), the work the law dissipated in these contacts,
 * the work of their dashpots, and the work the walls did on the discs. Global scalar: the energy
 * the contacts store (part of `pe` with `fix_modify ID energy yes`).
 */
#ifndef HERTZ2D_FIX_WALL_REGION_HERTZ2D_H
#define HERTZ2D_FIX_WALL_REGION_HERTZ2D_H

#include "fix.h"

#include "wall_contact.h"

#include <string>

namespace LAMMPS_NS {

class FixWallRegionHertz2d : public Fix {
 public:
  FixWallRegionHertz2d(class LAMMPS *, int, char **);
  ~FixWallRegionHertz2d() override;
  int setmask() override;
  void post_constructor() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;
  void end_of_step() override;
  double compute_scalar() override;
  double compute_vector(int) override;

 private:
  std::string region_id;
  class Region *region;
  Hertz2dWallMaterials materials;
  class FixHertz2dStore *store;
  char *store_id;
  // this rank's: touching discs, the discs' force on the walls (x, y), the walls' power on the
  // discs; the walls' work (trapezoidal rule) and its last power
  double partial[4], wall_work, previous_power;
  void contacts();
};

}    // namespace LAMMPS_NS

#endif

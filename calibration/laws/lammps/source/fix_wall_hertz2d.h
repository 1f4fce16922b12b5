/* fix_wall_hertz2d.h: fix wall/hertz2d, rigid straight walls contacted by the hertz2d law.
 *
 *     fix ID group wall/hertz2d MU SIDE POSITION [SIDE POSITION ...]
 *         SIDE = xlo, xhi, ylo or yhi (each at most once): a wall x = POSITION or y = POSITION
 *         facing the inside of the box; MU is the walls' friction coefficient
 *     fix_modify ID position SIDE P                place the wall
 *     fix_modify ID velocity SIDE V                move it at V along its axis (stops a servo)
 *     fix_modify ID servo SIDE STRESS GAIN VMAX    drive it to the stress STRESS (Pa)
 *
 * As hertz2d's DEM (dem/forces.py, dem/walls.py): a disc touching a wall is the pair of the disc
 * and its mirror image (Section 3.2), so the law (hertz2d_wall_contact) sees twice the disc's
 * approach and tangential increment; the contact point is on the wall (lever arm r - delta);
 * the material of each disc type (E, nu) and the dashpot ratio are pair hertz2d's, the history
 * of each disc-wall contact is kept with the atom (HERTZ2D/STORE). Walls move in post_integrate
 * with their velocity; the servo (PFC's rule, as dem/walls.py) sets a servo wall's velocity after
 * each force evaluation, v = GAIN (STRESS - sigma) L / (k dt) clipped to VMAX, with sigma the
 * stress of the contacts' springs, L the distance between the two perpendicular walls of this
 * fix (both needed) and k the sum of the wall contacts' tangent normal stiffnesses (2 dN/d(delta)
 * each, the mirror rule); set-up evaluations (the start of each run) move no servo.
 *
 * Global vector (27 values): per side in the order xlo, xhi, ylo, yhi, position, velocity along
 * the axis, the discs' force on the wall (x, y; N/m), its stress (force along the normal over L,
 * Pa; 0 without the perpendicular walls), and the number of discs touching it; then, cumulative
 * from the fix's creation (J/m), the work the law dissipated in the wall contacts (slip, and the
 * tangential energy of contacts that opened), the work of their dashpots, and the work the walls
 * did on the discs (their forces at the walls' velocities, trapezoidal rule). Global scalar: the
 * energy the wall contacts store (the disc's half of its mirror pair's normal and tangential
 * potentials), part of `pe` with `fix_modify ID energy yes`. The ranks' sums are formed when
 * the values are asked for or a servo needs them, not every step.
 */
#ifndef HERTZ2D_FIX_WALL_HERTZ2D_H
#define HERTZ2D_FIX_WALL_HERTZ2D_H

#include "fix.h"

#include "hertz2d_law.h"
#include "log_cache.h"

#include <vector>

namespace LAMMPS_NS {

class FixWallHertz2d : public Fix {
 public:
  FixWallHertz2d(class LAMMPS *, int, char **);
  ~FixWallHertz2d() override;
  int setmask() override;
  void post_constructor() override;
  void init() override;
  void setup(int) override;
  void post_integrate() override;
  void post_force(int) override;
  void end_of_step() override;
  int modify_param(int, char **) override;
  double compute_scalar() override;
  double compute_vector(int) override;
  void write_restart(FILE *) override;
  void restart(char *) override;

  enum { XLO, XHI, YLO, YHI, SIDES };

 private:
  struct Wall {
    int active;
    double position, velocity;      // along the wall's axis
    double target, gain, max_speed; // servo; target < 0 when the wall is not on a servo
    double moved_with;              // the velocity of the last move
  };
  Wall walls[SIDES];
  int order[SIDES], count;          // the walls in the order the fix command gave them
  double friction;
  double ratio;                     // pair hertz2d's dashpot ratio
  double *modulus, *poisson;        // pair hertz2d's materials per type
  std::vector<hertz2d_prepared> prepared;    // per type: the law's constants of its mirror pair
  Hertz2dLogCache log_4r;                    // log(4 r) per atom
  // per side, this rank's discs at the last evaluation (partial) and summed over the ranks
  // (sums, when asked: by the servo, or for the global vector): spring force on the discs (x, y),
  // dashpot force on the discs (x, y), stiffness, touching discs
  double partial[SIDES][6], sums[SIDES][6];
  int summed;                       // sums holds the last evaluation's
  double stored;                    // this rank's wall contacts' stored energy (discs' halves)
  double wall_work, previous_power; // this rank's: the walls' work on the discs, its power
  class FixHertz2dStore *store;
  char *store_id;

  int side_of(const char *) const;
  double length(int side) const;
  void contacts();
  void sum();
  void servo();
  double powers();
};

}    // namespace LAMMPS_NS

#endif

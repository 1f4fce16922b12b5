/* fix_damping_hertz2d.h: fix damping/hertz2d, hertz2d's local (non-viscous) damping.
 *
 *     fix ID group damping/hertz2d ALPHA
 *
 * Cundall's local damping as hertz2d's DEM applies it (dem/damping.py): each degree of freedom
 * of each disc (x, y and the rotation) gets -ALPHA |F| sign(v), F its unbalanced force or moment
 * (contacts, walls and gravity) and v its velocity, nothing where v = 0. So it must act after
 * every other force: define it after fix gravity and fix wall/hertz2d (a warning names a fix
 * that changes forces after it). LAMMPS's own fix damping/cundall differs only where v = 0
 * exactly (it scales F by 1 - ALPHA there), as at the start of a run from rest or the first
 * contact of a disc that has never turned.
 */
#ifndef HERTZ2D_FIX_DAMPING_HERTZ2D_H
#define HERTZ2D_FIX_DAMPING_HERTZ2D_H

#include "fix.h"

#include <vector>

namespace LAMMPS_NS {

class FixDampingHertz2d : public Fix {
 public:
  FixDampingHertz2d(class LAMMPS *, int, char **);
  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;
  void end_of_step() override;
  double compute_scalar() override;

 private:
  double alpha;
  double dissipated, previous_power;    // this rank's
  std::vector<double> forces;           // per owned disc: the damping's fx, fy, tz
  double power() const;
};

}    // namespace LAMMPS_NS

#endif

/* dashpot.h: hertz2d's viscous contact damping (dem/damping.py), shared by the pair and walls.
 *
 * gamma = 2 zeta sqrt(m* k), k the law's tangent normal stiffness dN/d(delta_n) for the normal
 * dashpot and kt for the tangential one, which acts only while the contact sticks. `scale` is 1
 * for two discs and 2 for a disc and its mirror image (a wall: m* = m/2 and the pair's relative
 * velocity is twice the disc's), as the law sees the pair. v_n > 0 separates, v_t is the
 * tangential velocity of body 2 relative to body 1 at the contact point.
 */
#ifndef HERTZ2D_DASHPOT_H
#define HERTZ2D_DASHPOT_H

#include "hertz2d_law.h"

#include <cmath>

namespace LAMMPS_NS {

struct Hertz2dDashpot {
  double normal, tangential;    // added to N and T
};

inline Hertz2dDashpot hertz2d_dashpot(double ratio, double reduced_mass, double scale,
                                      double v_n, double v_t, const hertz2d_state &law)
{
  Hertz2dDashpot d = {0.0, 0.0};
  if (ratio > 0.0) {
    d.normal = -2.0 * ratio * std::sqrt(reduced_mass * law.kn_tangent) * scale * v_n;
    if (!law.slipping) d.tangential = 2.0 * ratio * std::sqrt(reduced_mass * law.kt) * scale * v_t;
  }
  return d;
}

}    // namespace LAMMPS_NS

#endif

/* wall_contact.h: one disc's contact with a rigid wall, shared by fix wall/hertz2d (planes) and
 * fix wall/hertz2d/region (the surfaces of a LAMMPS region).
 *
 * As hertz2d's DEM (dem/forces.py): the disc and its mirror image in the wall's tangent plane at
 * the contact are the law's pair (Section 3.2), so the law sees twice the disc's approach and
 * tangential increment; the contact point is on the wall (lever arm r - delta, half a step back
 * in the tangential increment, whose velocity is the half step's); the relative
 * velocity is the wall's at the contact point less the disc's; the material of each disc type
 * (E, nu) and the dashpot ratio are pair hertz2d's (Hertz2dWallMaterials), the history and the
 * report of each contact are kept with the atom (HERTZ2D/STORE, keyed by the wall's index). A
 * curved wall enters through the contact's normal only: the law is the flat wall's, which holds
 * while the wall's radius of curvature is large against the disc's.
 */
#ifndef HERTZ2D_WALL_CONTACT_H
#define HERTZ2D_WALL_CONTACT_H

#include "hertz2d_law.h"
#include "log_cache.h"

#include <functional>
#include <string>
#include <vector>

namespace LAMMPS_NS {

/* The law's constants of each disc type against a wall of friction `friction`, from pair
 * hertz2d's materials. */
struct Hertz2dWallMaterials {
  double friction = 0.0, ratio = 0.0;
  double *modulus = nullptr, *poisson = nullptr;
  std::vector<hertz2d_prepared> prepared;
  Hertz2dLogCache log_4r;
  /* read pair hertz2d's materials (an ERROR naming `what` without it) and prepare them */
  void init(class LAMMPS *, const std::string &what);
};

/* What one contact gave the disc: the spring's and the dashpots' forces (x, y), and the
 * stiffness 2 dN/d(delta) of the disc's approach (the mirror rule). */
struct Hertz2dWallForce {
  double spring[2], dashpot[2];
  double stiffness;
};

/* Disc i's contact with wall `key` (approach delta > 0, unit normal (nx, ny) from the disc to
 * the wall, the wall's velocity (wvx, wvy) at the contact point): the law's step (no tangential
 * increment in set-up evaluations), forces and moment added to the atom, the report and ledger
 * kept in the store. `where()` names the style and the wall in an ERROR ("fix wall/hertz2d:
 * the ylo wall"): formatted only then, not at every contact's step. */
Hertz2dWallForce hertz2d_wall_step(class LAMMPS *, class FixHertz2dStore *,
                                   Hertz2dWallMaterials &, int i, int key, double delta,
                                   double nx, double ny, double wvx, double wvy,
                                   const std::function<std::string()> &where);

}    // namespace LAMMPS_NS

#endif

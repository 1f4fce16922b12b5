/* fix_damping_hertz2d.cpp: see fix_damping_hertz2d.h. */
#include "fix_damping_hertz2d.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "modify.h"
#include "update.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;

/* -alpha |F| sign(v) for one degree of freedom (dem/damping.py's local_damping) */
static inline double local_damping(double alpha, double force, double velocity)
{
  if (velocity > 0.0) return -alpha * std::fabs(force);
  if (velocity < 0.0) return alpha * std::fabs(force);
  return 0.0;
}

FixDampingHertz2d::FixDampingHertz2d(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), dissipated(0.0), previous_power(0.0)
{
  scalar_flag = 1;
  extscalar = 1;
  global_freq = 1;
  if (narg != 4) error->all(FLERR, "fix damping/hertz2d: fix ID group damping/hertz2d ALPHA");
  alpha = utils::numeric(FLERR, arg[3], false, lmp);
  if (!(alpha >= 0.0 && alpha < 1.0))
    error->all(FLERR, "fix damping/hertz2d: ALPHA {} must be in [0, 1)", alpha);
  if (!atom->omega_flag || !atom->torque_flag)
    error->all(FLERR, "fix damping/hertz2d: needs omega and torque: atom_style sphere");
}

int FixDampingHertz2d::setmask()
{
  return POST_FORCE | END_OF_STEP;
}

void FixDampingHertz2d::init()
{
  bool after = false;
  for (auto fix : modify->get_fix_list()) {
    // fix enforce2d zeroes only what a 2D disc does not have (z forces, x and y moments); the
    // plugin's contact stores only read the spins there
    const bool changes = (fix->setmask() & POST_FORCE) && std::strcmp(fix->style, "enforce2d")
        && std::strcmp(fix->style, "HERTZ2D/STORE");
    if (after && changes && comm->me == 0)
      error->warning(FLERR, "fix {} changes forces after fix damping/hertz2d, which should see "
                     "the whole unbalanced force", fix->id);
    if (fix == this) after = true;
  }
}

void FixDampingHertz2d::setup(int vflag)
{
  post_force(vflag);
  previous_power = power();
}

/* the damping forces' power on this rank's discs at their velocities now */
double FixDampingHertz2d::power() const
{
  double **v = atom->v, **omega = atom->omega;
  double total = 0.0;
  const int n = std::min<int>(atom->nlocal, forces.size() / 3);
  for (int i = 0; i < n; i++)
    total += forces[3 * i] * v[i][0] + forces[3 * i + 1] * v[i][1]
        + forces[3 * i + 2] * omega[i][2];
  return total;
}

void FixDampingHertz2d::end_of_step()
{
  const double now = power();
  dissipated -= 0.5 * update->dt * (previous_power + now);
  previous_power = now;
}

double FixDampingHertz2d::compute_scalar()
{
  double total = 0.0;
  MPI_Allreduce(&dissipated, &total, 1, MPI_DOUBLE, MPI_SUM, world);
  return total;
}

void FixDampingHertz2d::post_force(int /*vflag*/)
{
  double **v = atom->v, **f = atom->f, **omega = atom->omega, **torque = atom->torque;
  const int *mask = atom->mask;
  forces.assign(3 * atom->nlocal, 0.0);
  for (int i = 0; i < atom->nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    double *mine = &forces[3 * i];
    mine[0] = local_damping(alpha, f[i][0], v[i][0]);
    mine[1] = local_damping(alpha, f[i][1], v[i][1]);
    mine[2] = local_damping(alpha, torque[i][2], omega[i][2]);
    f[i][0] += mine[0];
    f[i][1] += mine[1];
    torque[i][2] += mine[2];
  }
}

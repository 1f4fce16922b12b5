/* wall_contact.cpp: see wall_contact.h. */
#include "wall_contact.h"

#include "atom.h"
#include "contact_report.h"
#include "contact_store.h"
#include "dashpot.h"
#include "error.h"
#include "force.h"
#include "pair.h"
#include "pair_hertz2d.h"
#include "update.h"

using namespace LAMMPS_NS;

void Hertz2dWallMaterials::init(LAMMPS *lmp, const std::string &what)
{
  Pair *pair = lmp->force->pair_match("hertz2d", 1);
  if (!pair)
    lmp->error->all(FLERR, "{}: needs pair_style hertz2d (the discs' E and nu, the law, the "
                    "dashpot ratio)", what);
  int dim;
  modulus = static_cast<double *>(pair->extract("modulus", dim));
  poisson = static_cast<double *>(pair->extract("poisson", dim));
  ratio = *static_cast<double *>(pair->extract("damping", dim));
  prepared.resize(lmp->atom->ntypes + 1);
  hertz2d_warn_materials(lmp, what, -1.0, friction);
  for (int t = 1; t <= lmp->atom->ntypes; t++) {
    const hertz2d_pair mirror = hertz2d_disc_on_wall(1.0, modulus[t], poisson[t], friction);
    if (hertz2d_prepare_materials(&mirror, 1, &prepared[t]) != HERTZ2D_OK)
      lmp->error->all(FLERR, "{}: type {}'s material is not the law's", what, t);
  }
}

Hertz2dWallForce LAMMPS_NS::hertz2d_wall_step(LAMMPS *lmp, FixHertz2dStore *store,
                                              Hertz2dWallMaterials &m, int i, int key,
                                              double delta, double nx, double ny, double wvx,
                                              double wvy,
                                              const std::function<std::string()> &where)
{
  Atom *atom = lmp->atom;
  double **v = atom->v, **f = atom->f, **omega = atom->omega, **torque = atom->torque;
  const double r = atom->radius[i];
  const int type = atom->type[i];
  const double tx = -ny, ty = nx;
  const double lever = r - delta;
  const double rvx = wvx - v[i][0], rvy = wvy - v[i][1];
  const double v_n = rvx * nx + rvy * ny;
  // v_t at the middle of the step (hertz2d.dem.forces.mid_step_wall_v_t): the arm half a step back
  const double v_t = rvx * tx + rvy * ty - omega[i][2] * (lever - 0.5 * v_n * lmp->update->dt);

  const hertz2d_pair mirror = hertz2d_disc_on_wall(r, m.modulus[type], m.poisson[type],
                                                   m.friction);
  hertz2d_prepared constants = m.prepared[type];
  const double log_4R = m.log_4r(i, r);
  hertz2d_prepare_sizes(&mirror, log_4R, log_4R, &constants);
  hertz2d_prepare_step(lmp->update->dt, atom->rmass[i], &constants);  // the disc's mass
  double *block = store->touch(i, key);
  hertz2d_state law;
  const double increment = lmp->update->setupflag
                               ? 0.0
                               : hertz2d_step_increment(block, delta, v_n, v_t, lmp->update->dt);
  // a batch of one: the step with its tangential energy deferred (contact_report.h)
  int status;
  hertz2d_contacts_deferred(1, &mirror, &constants, &delta, &increment, &block, &law, &status);
  if (status != HERTZ2D_OK)
    lmp->error->one(FLERR, "{}: atom {} left the law's domain (status {}: approach {} beyond "
                    "its largest, or a bad parameter)", where(), atom->tag[i], status, delta);
  const Hertz2dDashpot damped = hertz2d_dashpot(m.ratio, 0.5 * atom->rmass[i], 2.0, v_n, v_t,
                                                law);
  // the disc's half of its mirror pair's energies (Section 3.2)
  store->add_work(hertz2d_record(block, constants, mirror, delta, increment, 2.0, 0.5, law,
                                       damped.normal, damped.tangential));
  store->note_size(law.a, r, 1.0);

  Hertz2dWallForce out;
  out.spring[0] = -law.N * nx - law.T * ny;
  out.spring[1] = -law.N * ny + law.T * nx;
  out.dashpot[0] = -damped.normal * nx - damped.tangential * ny;
  out.dashpot[1] = -damped.normal * ny + damped.tangential * nx;
  out.stiffness = 2.0 * law.kn_tangent;
  f[i][0] += out.spring[0] + out.dashpot[0];
  f[i][1] += out.spring[1] + out.dashpot[1];
  torque[i][2] += lever * (law.T + damped.tangential);
  double *on_disc = store->dashpot(i);
  on_disc[0] += out.dashpot[0];
  on_disc[1] += out.dashpot[1];
  on_disc[2] += lever * damped.tangential;
  return out;
}

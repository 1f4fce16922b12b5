/* contact_report.h: what the plugin keeps of each contact's last step besides the law's history.
 *
 * Each contact's block in the store (contact_store.h) is the law's HERTZ2D_HISTORY_SIZE doubles
 * followed by HERTZ2D_REPORT doubles: the last step's inputs and outputs, read back by
 * `compute pair/local` (PairHertz2d::single) and `compute hertz2d/contact` (its first
 * HERTZ2D_REPORT_SHOWN), and what the energy bookkeeping needs (the previous T, coupling term
 * and approach; the work done on the law since the contact closed; the tangential energy's
 * parts). The law's values are the pair's (a wall's: the disc and its mirror image, Section
 * 3.2); the approach and the increment are the body's own (a wall's: the disc's), the stored
 * energy and the work dissipated are the contact's (a wall's: the disc's half of the pair's).
 *
 * The energies are made when they are read, not at every step (hertz2d_settle): the calibrated
 * law's tangential energy integrates its traction's pieces, a third of its step, and a run reads
 * energies on a few of its steps. A step keeps the energy's two parts (hertz2d_energy_parts)
 * and adds its work to the contact's; reading makes the energy whole from the block's history
 * (hertz2d_whole_energy), and what the work exceeds it by is what the law dissipated.
 */
#ifndef HERTZ2D_CONTACT_REPORT_H
#define HERTZ2D_CONTACT_REPORT_H

#include "hertz2d_law.h"

namespace LAMMPS_NS {

enum Hertz2dReport {
  REPORT_OVERLAP,        // the approach, m
  REPORT_INCREMENT,      // the step's tangential increment, m
  REPORT_A,              // contact half-width, m
  REPORT_N,              // the law's normal force (no dashpot), N/m
  REPORT_T,              // the law's tangential force (no dashpot), N/m
  REPORT_KT,             // the law's tangent stiffness dT/d(delta_t), N/m per m
  REPORT_SLIPPING,       // 1 in full slip
  REPORT_STICK,          // the share of the contact width that sticks
  REPORT_COUPLING,       // the normal force's coupling term (the calibrated law's), N/m
  REPORT_TANGENTIAL,     // the law's stored tangential energy, J/m
  REPORT_STORED,         // the contact's stored energy (normal + tangential potentials), J/m
  REPORT_DISSIPATED,     // work the law dissipated since the contact closed, J/m
  REPORT_N_DASHPOT,      // the dashpots' forces added to N and T, N/m
  REPORT_T_DASHPOT,
  HERTZ2D_REPORT_SHOWN,  // the values above are compute hertz2d/contact's; those below its own
  REPORT_WORK = HERTZ2D_REPORT_SHOWN,    // work done on the law since the contact closed, J/m
  REPORT_NORMAL,         // the contact's normal potential, J/m
  REPORT_PLAIN,          // the law's tangential energy less its pieces' integral, J/m
  REPORT_WEIGHT,         // ... and the integral's weight (hertz2d_energy_parts)
  REPORT_SETTLED,        // 1 while the energies above are the last step's (hertz2d_settle)
  REPORT_WRITTEN,        // 1 where the pair wrote this copy since the store last synced
  HERTZ2D_REPORT
};

/* The width of a contact's block in the store */
static constexpr int HERTZ2D_BLOCK = HERTZ2D_HISTORY_SIZE + HERTZ2D_REPORT;

/* The step's tangential increment v_t dt, of which a contact new in this step (its block's
 * normal force 0: made zeros by the store) takes the part of the step it has been in contact,
 * its approach over the approach the step made (-v_n dt, v_n > 0 separating), at most 1: as
 * hertz2d's DEM (hertz2d.dem.forces.entry_fraction). The whole v_t dt would carry the
 * increment of the part of the step before the touch, a first-order error in dt. */
inline double hertz2d_step_increment(const double *block, double overlap, double v_n,
                                     double v_t, double dt)
{
  const double made = -v_n * dt;
  const bool fresh = block[HERTZ2D_HISTORY_SIZE + REPORT_N] == 0.0;
  return v_t * dt * (fresh && made > overlap ? overlap / made : 1.0);
}

/* Record the step the law just made (state `law`, prepared constants `q`) in the block's report;
 * `scale` is 1 for two discs and 2 for a disc and its mirror image (the law's increments are
 * the pair's), `share` the contact's part of the pair's energies (1, a wall's 1/2). Returns the
 * work the step did on the law (hertz2d_step_work; the normal potential's share is not the
 * law's to dissipate), times `share`. The energies wait for hertz2d_settle. */
inline double hertz2d_record(double *block, const hertz2d_prepared &q, const hertz2d_pair &pair,
                             double overlap, double increment, double scale, double share,
                             const hertz2d_state &law, double n_dashpot, double t_dashpot)
{
  double *r = block + HERTZ2D_HISTORY_SIZE;
  const double work = share * hertz2d_step_work(r[REPORT_T], r[REPORT_COUPLING], scale * increment,
                                                scale * (overlap - r[REPORT_OVERLAP]), &law);
  r[REPORT_OVERLAP] = overlap;
  r[REPORT_INCREMENT] = increment;
  r[REPORT_A] = law.a;
  r[REPORT_N] = law.N;
  r[REPORT_T] = law.T;
  r[REPORT_KT] = law.kt;
  r[REPORT_SLIPPING] = law.slipping;
  r[REPORT_STICK] = hertz2d_stick_fraction(&pair, &law);
  r[REPORT_COUPLING] = law.coupling;
  r[REPORT_N_DASHPOT] = n_dashpot;
  r[REPORT_T_DASHPOT] = t_dashpot;
  r[REPORT_WORK] += work;
  r[REPORT_NORMAL] = share * hertz2d_normal_potential(&q, scale * overlap, &law);
  hertz2d_energy_parts(&law, &r[REPORT_PLAIN], &r[REPORT_WEIGHT]);
  r[REPORT_SETTLED] = 0.0;
  return work;
}

/* The block's energies as of its last step: the law's tangential energy made whole from its
 * parts and the history (hertz2d_whole_energy), the stored energy, and what the law dissipated
 * since the contact closed (its work less its share of the tangential energy). Returns that
 * tangential energy (the pair's). */
inline double hertz2d_settle(double *block, double share)
{
  double *r = block + HERTZ2D_HISTORY_SIZE;
  if (r[REPORT_SETTLED] == 0.0) {
    const double energy = hertz2d_whole_energy(block, r[REPORT_A], r[REPORT_PLAIN],
                                               r[REPORT_WEIGHT]);
    r[REPORT_TANGENTIAL] = energy;
    r[REPORT_STORED] = r[REPORT_NORMAL] + share * energy;
    r[REPORT_DISSIPATED] = r[REPORT_WORK] - share * energy;
    r[REPORT_SETTLED] = 1.0;
  }
  return r[REPORT_TANGENTIAL];
}

}    // namespace LAMMPS_NS

#endif

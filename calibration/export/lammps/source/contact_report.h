/* contact_report.h: what the plugin keeps of each contact's last step besides the law's history.
 *
 * Each contact's block in the store (contact_store.h) is the law's HERTZ2D_HISTORY_SIZE doubles
 * followed by HERTZ2D_REPORT doubles: the last step's inputs and outputs, read back by
 * `compute pair/local` (PairHertz2d::single) and `compute hertz2d/contact`, and what the next
 * step's energy bookkeeping needs (the previous T, coupling term and tangential energy, the
 * approach). The law's values are the pair's (a wall's: the disc and its mirror image, Section
 * 3.2); the approach and the increment are the body's own (a wall's: the disc's), the stored
 * energy and the work dissipated are the contact's (a wall's: the disc's half of the pair's).
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
 * work the step dissipated (hertz2d_dissipated, times `share`). */
inline double hertz2d_record(double *block, const hertz2d_prepared &q, const hertz2d_pair &pair,
                             double overlap, double increment, double scale, double share,
                             const hertz2d_state &law, double n_dashpot, double t_dashpot)
{
  double *r = block + HERTZ2D_HISTORY_SIZE;
  const double dissipated =
      share * hertz2d_dissipated(r[REPORT_T], r[REPORT_COUPLING], r[REPORT_TANGENTIAL],
                                 scale * increment, scale * (overlap - r[REPORT_OVERLAP]), &law);
  r[REPORT_OVERLAP] = overlap;
  r[REPORT_INCREMENT] = increment;
  r[REPORT_A] = law.a;
  r[REPORT_N] = law.N;
  r[REPORT_T] = law.T;
  r[REPORT_KT] = law.kt;
  r[REPORT_SLIPPING] = law.slipping;
  r[REPORT_STICK] = hertz2d_stick_fraction(&pair, &law);
  r[REPORT_COUPLING] = law.coupling;
  r[REPORT_TANGENTIAL] = hertz2d_tangential_energy(&law);
  r[REPORT_STORED] = share * hertz2d_stored_energy(&q, scale * overlap, &law);
  r[REPORT_DISSIPATED] += dissipated;
  r[REPORT_N_DASHPOT] = n_dashpot;
  r[REPORT_T_DASHPOT] = t_dashpot;
  return dissipated;
}

}    // namespace LAMMPS_NS

#endif

/* compute_contact_hertz2d.h: compute hertz2d/contact, one row per contact for dump local.
 *
 *     compute ID group hertz2d/contact
 *
 * Every disc-disc contact of pair hertz2d (once, in the row of its lower atom ID) and every
 * disc-wall contact of the fix wall/hertz2d styles, of the discs in the group, as the last force
 * evaluation left them. Columns (c_ID[1] ... c_ID[17]): the disc's atom ID, the partner's (0 for a
 * wall), the wall (0 for a disc, else 1 + the side's index xlo, xhi, ylo, yhi), then the report
 * of contact_report.h: approach (m), the step's tangential increment (m), half-width a (m), the
 * law's N and T (N/m, without the dashpots), kt (N/m per m), 1 in full slip, the share of the
 * contact width that sticks, the normal force's coupling term (N/m), the law's tangential energy
 * (J/m), the contact's stored energy (J/m), the work the law dissipated since the contact closed
 * (J/m), and the dashpots' forces added to N and T (N/m). A wall's approach and increment are
 * the disc's, its law values those of the disc and its mirror image, its energies the disc's
 * half of the pair's (Section 3.2).
 */
#ifndef HERTZ2D_COMPUTE_CONTACT_HERTZ2D_H
#define HERTZ2D_COMPUTE_CONTACT_HERTZ2D_H

#include "compute.h"

namespace LAMMPS_NS {

class ComputeContactHertz2d : public Compute {
 public:
  ComputeContactHertz2d(class LAMMPS *, int, char **);
  ~ComputeContactHertz2d() override;
  void init() override {}
  void compute_local() override;
  double memory_usage() override;

 private:
  int capacity;    // rows allocated
  int rows(bool fill);
};

}    // namespace LAMMPS_NS

#endif

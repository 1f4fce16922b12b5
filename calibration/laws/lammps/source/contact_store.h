/* contact_store.h: the per-contact history of the hertz2d law, kept with the atoms.
 *
 * Every owned atom carries a small table of its contacts: a key per contact (the partner's atom
 * ID for a disc, the wall's index for a wall) and HERTZ2D_HISTORY_SIZE doubles, the history the
 * law header's hertz2d_contact() updates in place. Because the table belongs to the atom, it
 * survives neighbour-list rebuilds and travels with the atom between MPI ranks (exchange), atom
 * sorting and restart files; LAMMPS calls the packing methods below for that.
 *
 * A contact that was not touched during a force evaluation has opened: forget_untouched() drops
 * it, so its history starts afresh when the bodies touch again (the law's own rule).
 *
 * This is the internal fix style HERTZ2D/STORE; pair hertz2d and fix wall/hertz2d each create
 * one (arguments: capacity, the most contacts per atom).
 */
#ifndef HERTZ2D_CONTACT_STORE_H
#define HERTZ2D_CONTACT_STORE_H

#include "fix.h"

namespace LAMMPS_NS {

class FixHertz2dStore : public Fix {
 public:
  FixHertz2dStore(class LAMMPS *, int, char **);
  ~FixHertz2dStore() override;
  int setmask() override { return 0; }

  /* The history of owned atom i's contact with `key`, created (zeros) if it is new, and
   * marked as touched in this evaluation; an error names the atom when its table is full. */
  double *touch(int i, tagint key);
  /* Drop every untouched contact of the owned atoms, and clear the marks. */
  void forget_untouched();
  /* Contacts atom i holds now. */
  int contacts(int i) const { return count[i]; }
  int capacity() const { return slots; }

  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;
  double memory_usage() override;

 private:
  int slots;              // contacts per atom at most
  int *count;             // contacts of each atom
  tagint *keys;           // [atom * slots + slot]
  double *values;         // [(atom * slots + slot) * HISTORY + k]
  unsigned char *marks;   // [atom * slots + slot]: touched in this evaluation
  int packed_size(int i) const;
  int pack(int i, double *buf) const;
  int unpack(int i, const double *buf);
};

}    // namespace LAMMPS_NS

#endif

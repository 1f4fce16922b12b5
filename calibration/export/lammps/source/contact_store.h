/* contact_store.h: the per-contact history of the hertz2d law, kept with the atoms.
 *
 * Every owned atom carries a small table of its contacts: a key per contact (the partner's atom
 * ID for a disc, the wall's index for a wall) and HERTZ2D_BLOCK doubles: the history the law
 * header's hertz2d_contact() updates in place, then the last step's report (contact_report.h).
 * Because the table belongs to the atom, it survives neighbour-list rebuilds and travels with the
 * atom between MPI ranks (exchange), atom sorting and restart files; LAMMPS calls the packing
 * methods below for that.
 *
 * A contact of two owned atoms is in both tables, but the pair style writes only the copy of
 * the atom whose neighbour list holds the pair (marking it REPORT_WRITTEN), which does not change
 * between neighbour-list builds: copying the block to the partner at every step was most of a
 * large system's pair time (a write far away in memory per contact). sync() copies the written
 * block over its partner's before the copies can be needed: before atoms move and the lists are
 * rebuilt (pre_exchange, setup_pre_exchange), before a restart file is written, at the end of a
 * run and before anything reads the blocks (find, block, settle_all).
 *
 * A contact that was not touched during a force evaluation has opened: forget_untouched() drops
 * it, so its history starts afresh when the bodies touch again (the law's own rule), and the
 * tangential energy it still held is dissipated.
 *
 * The store also keeps its owner's energy ledger on this rank: the work its contacts' laws
 * dissipated, which is the work done on them (add_work) less the tangential energy they still
 * hold (settle_all: half of each block's, since a disc pair's contact is kept twice, once with
 * each atom, and a wall contact is the disc's half of its mirror pair; an opening contact's is
 * released, dissipated), and the work of its contacts' dashpots, from the dashpot
 * forces and moments of each evaluation on the owned atoms (dashpot(i)) and their power at the
 * full-step velocities at the end of each step, integrated by the trapezoidal rule (velocity
 * Verlet changes the kinetic energy by that integral to O(dt^2)). ledger() sums both over the
 * ranks.
 *
 * And it says once per run what would otherwise go unnoticed (comm rank 0 warns): contacts
 * wider than the law was fitted for (note_size: how many contact steps of the run, and the
 * largest a/R), and, for the pair's store, a `fix nve/sphere` without `disc`: the integrator's
 * moment of inertia is measured from a disc's change of spin in the second half kick
 * (omega(t + dt) - omega(t + dt/2) = (dt/2) M/(k m r^2)): a disc's k is 1/2, LAMMPS's default
 * sphere's 2/5 (LAMMPS keeps the keyword in no header the plugin can read).
 *
 * This is the internal fix style HERTZ2D/STORE; pair hertz2d and fix wall/hertz2d each create
 * one, fix wall/hertz2d/region too (arguments: capacity, the most contacts per atom, and `pair`,
 * `wall` or `region`: whose contacts, keyed by the partner's atom ID or by the wall's index).
 */
#ifndef HERTZ2D_CONTACT_STORE_H
#define HERTZ2D_CONTACT_STORE_H

#include "contact_report.h"
#include "fix.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace LAMMPS_NS {

class FixHertz2dStore : public Fix {
 public:
  FixHertz2dStore(class LAMMPS *, int, char **);
  ~FixHertz2dStore() override;
  int setmask() override;
  void init() override;
  void setup(int) override;
  void setup_pre_exchange() override { sync(); }
  void pre_exchange() override { sync(); }
  void post_force(int) override;
  void end_of_step() override;
  void post_run() override;
  /* a contact of this evaluation of half-width a on a disc of radius R (the smaller), counted
   * with `weight` (a disc pair's contact computed on two ranks: 1/2 on each); a/R is divided
   * out only for the rare contact beyond the fitted range, not for every contact step */
  void note_size(double a, double R, double weight)
  {
    if (a > fitted_a_over_R * R) {
      beyond += weight;
      largest = a / R > largest ? a / R : largest;
    }
  }

  /* The block of owned atom i's contact with `key`, created (zeros) if it is new, and
   * marked as touched in this evaluation; an error names the atom when its table is full. */
  double *touch(int i, tagint key);
  /* touch() from a guess of the contact's slot in the atom's table (one an earlier step found:
   * right while no contact of the atom before it has opened), checked against the key, the
   * table searched only when it is wrong; `slot` is set to where the contact is. */
  double *touch(int i, tagint key, int &slot)
  {
    const int at = i * slots + slot;
    if (slot < count[i] && keys[at] == key) {
      marks[at] = 1;
      return &values[at * HERTZ2D_BLOCK];
    }
    double *block = touch(i, key);
    slot = static_cast<int>((block - values) / HERTZ2D_BLOCK) - i * slots;
    return block;
  }
  /* Each contact of two owned atoms the same in both tables: the copy the pair wrote since the
   * last sync over the other (once per evaluation; a wall store's contacts have one copy). */
  void sync();
  /* The block of owned atom i's contact with `key` with its energies settled (hertz2d_settle),
   * or nullptr. */
  const double *find(int i, tagint key);
  /* Drop every untouched contact of the owned atoms (their tangential energy dissipated), and
   * clear the marks. */
  void forget_untouched();
  /* Contacts atom i holds now, their keys and blocks. */
  int contacts(int i) const { return count[i]; }
  tagint key(int i, int s) const { return keys[i * slots + s]; }
  const double *block(int i, int s);    // settled, as find()
  int capacity() const { return slots; }
  bool of_walls() const { return walls; }
  /* a contact's share of its pair's energies: 1 for two discs, 1/2 for a disc on a wall (the
   * disc's half of its mirror pair, Section 3.2) */
  double share() const { return walls ? 0.5 : 1.0; }

  /* The ledger: at the start of an evaluation, zero the dashpot forces (and `offset`, the
   * dashpots' power at the walls' velocities, which is not dissipated); then add to them and to
   * the work dissipated by the laws. */
  void start_evaluation();
  double *dashpot(int i) { return &dashpots[3 * i]; }
  double &offset() { return power_offset; }
  void add_work(double work) { law_work += work; }
  /* every owned block's energies settled; returns the tangential energy they hold, this rank's
   * part of the law work not yet dissipated, and keeps it for report() */
  double settle_all();
  /* the contacts' stored energy (the reports' sum; a disc pair's contact counts twice),
   * summed over the ranks (collective) */
  double stored_energy();
  /* summed over the ranks (collective): the laws' dissipated work, the dashpots' */
  void ledger(double &laws, double &dashpot_work);
  /* keep this rank's two values in `target` (pair hertz2d's extra values, which compute pair
   * sums over the ranks itself), after each evaluation and each step's dashpot work: the laws'
   * as of the last settle_all(), which pair hertz2d calls on the steps that tally energy (the
   * only ones compute pair reads) */
  void report_to(double *target)
  {
    reported = target;
    report();
  }

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
  bool walls;             // a wall fix's contacts (keys: wall indices), else a pair's
  std::string owner_style;    // the style whose contacts these are, for its warnings
  double law_work, held_energy, dashpot_work_, previous_power, power_offset;
  bool synced;            // both copies of every owned contact are the same (sync())
  std::unordered_map<tagint, int> owned;    // tag -> owned index, where LAMMPS keeps no map
  int *count;             // contacts of each atom
  tagint *keys;           // [atom * slots + slot]
  double *values;         // [(atom * slots + slot) * HISTORY + k]
  unsigned char *marks;   // [atom * slots + slot]: touched in this evaluation
  double fitted_a_over_R, beyond, largest;    // the law's fitted a/R; this run's contacts beyond
  int inertia_check;                          // 1 while nve/sphere's inertia is unknown
  std::vector<double> dashpots;    // per owned atom: fx, fy, tz of the dashpots
  std::vector<double> half_spin;   // omega after the first half kick, per atom
  double *reported = nullptr;
  double power() const;
  void check_inertia();
  void report()
  {
    if (reported) {
      reported[0] = law_work - held_energy;
      reported[1] = dashpot_work_;
    }
  }
  int packed_size(int i) const;
  int pack(int i, double *buf) const;
  int unpack(int i, const double *buf);
};

}    // namespace LAMMPS_NS

#endif

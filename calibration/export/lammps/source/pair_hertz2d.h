/* pair_hertz2d.h: pair style hertz2d, the exported hertz2d law between discs.
 *
 *     pair_style hertz2d LAW.json [damping ZETA] [contacts N]
 *     pair_coeff I I E nu mu        type I's Young's modulus (Pa), Poisson ratio, friction
 *     pair_coeff I J mu             friction between types I != J (default sqrt(mu_I mu_J))
 *
 * (pair_coeff * * E nu mu sets one material for every type.) LAW.json must be the file the
 * plugin was built with (its digest is compiled in). Geometry, forces and dashpots as hertz2d's
 * DEM (dem/forces.py): the contact point is the middle of the overlap, lever arms
 * r_i - delta/2; the law (hertz2d_contact of the header) takes the approach and the tangential
 * increment v_t dt of this step (v_t at the step's middle: arms and frame half a step back)
 * and keeps its history per contact in a HERTZ2D/STORE fix; the optional dashpots are
 * 2 ZETA sqrt(m* k) with k the tangent normal stiffness (normal) and kt (tangential, only while
 * the contact sticks). Forces are per unit thickness (units si, dimension 2, masses from
 * set ... density/disc).
 *
 * The neighbour list is a half list with Newton's third law off whatever `newton` says: a
 * contact between atoms of two ranks is computed on both, each applying the force to its own
 * atom and keeping the history in its own atom's table, so no history has to travel but with
 * the atoms themselves.
 *
 * Outputs (contact_report.h): each contact's last step is kept after its history in the store;
 * single() reads it for compute pair/local (the force, the stored energy and SINGLE_EXTRA values),
 * compute hertz2d/contact for dump local. The pair's energy is the contacts' stored energy (the
 * header's hertz2d_stored_energy: pe reports it) and its two extra values (compute pair) the work
 * the laws and the dashpots dissipated, cumulative, summed over the ranks. Both are made on the
 * steps that tally energy, the only ones on which LAMMPS reads them (hertz2d_settle).
 *
 * What does not change from step to step is computed once: the law's material constants per
 * type pair at init (hertz2d_prepare_materials), log(4 r) per atom (Hertz2dLogCache), the
 * constants of the radii (hertz2d_prepare_sizes) and where the store keeps the contact per
 * neighbour-list entry (Hertz2dListEntry). The touching contacts are
 * taken in blocks of Hertz2dBlock::SIZE: a gather pass puts each one's geometry, constants and
 * history into the block, the law steps the whole block (hertz2d_contacts_deferred: the normal
 * solves of all its contacts in one loop, which the processor overlaps, then the rest of each
 * step; the same doubles as hertz2d_contact_prepared per contact, which gives hertz2d_contact's
 * results to rounding, with the tangential energy left in its two parts), and a scatter pass
 * adds the forces, dashpots and reports in the gather's order.
 */
#ifndef HERTZ2D_PAIR_HERTZ2D_H
#define HERTZ2D_PAIR_HERTZ2D_H

#include "pair.h"

#include "hertz2d_law.h"
#include "log_cache.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

/* What pair hertz2d keeps per neighbour-list entry from step to step, each checked before it is
 * used (at a neighbour-list rebuild an entry may come to hold another pair):
 * - the prepared constants (the materials' and hertz2d_prepare_sizes') with the radii and types
 *   they were made for: the same inputs give the same doubles, so a contact whose entry holds
 *   its atoms' radii and types takes them instead of computing R* and e^(-C) again;
 * - where the contact's block was found in each atom's table of the store, the slot to look at
 *   first (FixHertz2dStore::touch checks its key). */
struct Hertz2dListEntry {
  double r_i = -1.0, r_j = -1.0;
  int t_i = 0, t_j = 0;
  hertz2d_prepared constants;
  int slot_i = 0, slot_j = 0;
};

/* The touching contacts of one block of PairHertz2d::compute, in the neighbour list's order */
struct Hertz2dBlock {
  static constexpr int SIZE = 64;
  int count = 0;
  int i[SIZE], j[SIZE], status[SIZE];
  double dx[SIZE], dy[SIZE], nx[SIZE], ny[SIZE];    // x_j - x_i and its unit vector n
  double delta[SIZE], increment[SIZE];               // approach, tangential increment v_t dt
  double lever_i[SIZE], lever_j[SIZE], v_n[SIZE], v_t[SIZE];
  double reduced_mass[SIZE];                         // m_i m_j/(m_i + m_j): step rule, dashpots
  double *history[SIZE];                             // the contact's block in the store
  Hertz2dListEntry *entry[SIZE];                     // its neighbour-list entry's
  hertz2d_pair pair[SIZE];
  hertz2d_prepared constants[SIZE];
  hertz2d_state law[SIZE];
};

class PairHertz2d : public Pair {
 public:
  PairHertz2d(class LAMMPS *);
  ~PairHertz2d() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void *extract(const char *, int &) override;
  double single(int, int, int, int, double, double, double, double &) override;

 private:
  double ratio;                  // dashpot damping ratio
  int capacity;                  // contacts per atom at most
  double *modulus, *poisson;     // per type
  double **friction;             // per type pair
  int *has_material;             // per type: set by pair_coeff I I E nu mu
  double *largest_radius;        // per type, over the atoms at init
  // per type pair [i * (ntypes + 1) + j], set at init: the law's material constants
  std::vector<hertz2d_prepared> prepared;
  Hertz2dLogCache log_4r;        // log(4 r) per atom
  // per neighbour-list entry, in the list's order (emptied at init: the materials may change)
  std::vector<Hertz2dListEntry> list_entries;
  class FixHertz2dStore *store;
  Hertz2dBlock block;
  void allocate();
  void step_block();
};

/* The checks every hertz2d style makes of the simulation (an ERROR naming `what` otherwise). */
void hertz2d_require_setup(class LAMMPS *, const std::string &what);
/* A warning (rank 0) for a Poisson ratio (nu < 0: none to check) or a friction outside the
 * ranges the law was fitted for (not mu = 0: without friction the tangential law does nothing). */
void hertz2d_warn_materials(class LAMMPS *, const std::string &what, double nu, double mu);

}    // namespace LAMMPS_NS

#endif

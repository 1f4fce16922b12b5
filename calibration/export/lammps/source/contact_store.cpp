/* contact_store.cpp: see contact_store.h. */
#include "contact_store.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "update.h"

#include "contact_report.h"
#include "hertz2d_law.h"
#include "hertz2d_plugin_build.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;

static constexpr int HISTORY = HERTZ2D_BLOCK;    // doubles per contact: history and report

FixHertz2dStore::FixHertz2dStore(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), law_work(0.0), held_energy(0.0), dashpot_work_(0.0),
    previous_power(0.0), power_offset(0.0), synced(true), count(nullptr), keys(nullptr),
    values(nullptr), marks(nullptr), fitted_a_over_R(HERTZ2D_FIT_A_OVER_R_HIGH), beyond(0.0),
    largest(0.0), inertia_check(0)
{
  if (narg != 5)
    error->all(FLERR, "fix {}: internal fix of hertz2d, takes the capacity and pair, wall or "
               "region", style);
  slots = utils::inumeric(FLERR, arg[3], false, lmp);
  const std::string owner = arg[4];
  if (owner != "pair" && owner != "wall" && owner != "region")
    error->all(FLERR, "fix {}: owner {} is not pair, wall or region", style, owner);
  walls = owner != "pair";
  owner_style = owner == "pair" ? "pair hertz2d"
                                : owner == "wall" ? "fix wall/hertz2d" : "fix wall/hertz2d/region";
  if (slots < 1) error->all(FLERR, "fix {}: capacity {} must be >= 1", style, slots);
  restart_peratom = 1;
  create_attribute = 1;
  maxexchange = 1 + slots * (1 + HISTORY);
  grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  for (int i = 0; i < atom->nmax; i++) count[i] = 0;
}

FixHertz2dStore::~FixHertz2dStore()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(count);
  memory->destroy(keys);
  memory->destroy(values);
  memory->destroy(marks);
}

int FixHertz2dStore::setmask()
{
  return END_OF_STEP | POST_FORCE | PRE_EXCHANGE;
}

void FixHertz2dStore::init()
{
  inertia_check = !walls && !modify->get_fix_by_style("^nve/sphere").empty();
  beyond = largest = 0.0;
}

void FixHertz2dStore::post_force(int /*vflag*/)
{
  if (!inertia_check) return;
  half_spin.resize(atom->nlocal);
  for (int i = 0; i < atom->nlocal; i++) half_spin[i] = atom->omega[i][2];
}

/* k = (dt/2) M/(m r^2 (omega(t + dt) - omega(t + dt/2))) of the disc whose spin changes most
 * in the second half kick: 1/2 for nve/sphere disc; another k is warned about once. */
void FixHertz2dStore::check_inertia()
{
  double **omega = atom->omega, **torque = atom->torque;
  double best = 0.0, k = 0.0;
  const int n = std::min<int>(atom->nlocal, half_spin.size());
  for (int i = 0; i < n; i++) {
    const double change = omega[i][2] - half_spin[i];
    if (std::fabs(change) > best && std::fabs(change) > 1e-9 * std::fabs(omega[i][2])) {
      best = std::fabs(change);
      k = 0.5 * update->dt * force->ftm2v * torque[i][2]
          / (atom->rmass[i] * atom->radius[i] * atom->radius[i] * change);
    }
  }
  struct { double change; int rank; } mine = {best, comm->me}, most;
  MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE_INT, MPI_MAXLOC, world);
  if (most.change == 0.0) return;    // no disc turned yet
  MPI_Bcast(&k, 1, MPI_DOUBLE, most.rank, world);
  inertia_check = 0;
  if (std::fabs(k - 0.5) > 1e-6 && comm->me == 0)
    error->warning(FLERR, "pair hertz2d: the discs turn with a moment of inertia {:.4g} m r^2, "
                   "not a disc's m r^2/2: use fix nve/sphere ... disc", k);
}

void FixHertz2dStore::post_run()
{
  sync();
  double mine[2] = {beyond, largest}, sums[2];
  MPI_Allreduce(&mine[0], &sums[0], 1, MPI_DOUBLE, MPI_SUM, world);
  MPI_Allreduce(&mine[1], &sums[1], 1, MPI_DOUBLE, MPI_MAX, world);
  if (sums[0] > 0.0 && comm->me == 0)
    error->warning(FLERR, "{}: {} contact steps of this run had a/R beyond the {} the law was "
                   "fitted for (largest a/R {:.3g}): the law extrapolates there",
                   owner_style, std::lround(sums[0]),
                   fitted_a_over_R, sums[1]);
  beyond = largest = 0.0;
}

void FixHertz2dStore::sync()
{
  if (synced) return;
  synced = true;
  if (walls) return;
  const tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  const bool mapped = atom->map_style != Atom::MAP_NONE;
  if (!mapped) {    // an input without atom_modify map: the owned atoms' own
    owned.clear();
    for (int i = 0; i < nlocal; i++) owned[tag[i]] = i;
  }
  for (int i = 0; i < nlocal; i++)
    for (int s = i * slots; s < i * slots + count[i]; s++) {
      double *written = &values[s * HISTORY];
      if (written[HERTZ2D_HISTORY_SIZE + REPORT_WRITTEN] == 0.0) continue;
      written[HERTZ2D_HISTORY_SIZE + REPORT_WRITTEN] = 0.0;
      int j = -1;
      if (mapped) {
        j = atom->map(keys[s]);
        while (j >= nlocal) j = atom->sametag[j];    // the owned copy of the partner, if any
      } else {
        const auto found = owned.find(keys[s]);
        if (found != owned.end()) j = found->second;
      }
      if (j < 0) continue;    // a partner on another rank keeps and steps its own copy
      for (int t = j * slots; t < j * slots + count[j]; t++)
        if (keys[t] == tag[i]) {
          std::memcpy(&values[t * HISTORY], written, HISTORY * sizeof(double));
          break;
        }
    }
}

const double *FixHertz2dStore::find(int i, tagint key)
{
  sync();
  for (int s = i * slots; s < i * slots + count[i]; s++)
    if (keys[s] == key) {
      hertz2d_settle(&values[s * HISTORY], share());
      return &values[s * HISTORY];
    }
  return nullptr;
}

const double *FixHertz2dStore::block(int i, int s)
{
  sync();
  double *found = &values[(i * slots + s) * HISTORY];
  hertz2d_settle(found, share());
  return found;
}

/* Every owned block settled (hertz2d_settle); half the sum of their tangential energies, the
 * law work's part not yet dissipated (a disc pair's contact is kept twice, once with each atom;
 * a wall contact is the disc's half of its mirror pair) */
double FixHertz2dStore::settle_all()
{
  sync();
  double held = 0.0;
  for (int i = 0; i < atom->nlocal; i++)
    for (int s = 0; s < count[i]; s++)
      held += 0.5 * hertz2d_settle(&values[(i * slots + s) * HISTORY], share());
  held_energy = held;
  report();
  return held;
}

void FixHertz2dStore::start_evaluation()
{
  synced = false;
  dashpots.assign(3 * atom->nlocal, 0.0);
  power_offset = 0.0;
}

/* the dashpots' power on the owned atoms at their velocities now, less the walls' part */
double FixHertz2dStore::power() const
{
  double **v = atom->v, **omega = atom->omega;
  double total = power_offset;
  const int n = std::min<int>(atom->nlocal, dashpots.size() / 3);
  for (int i = 0; i < n; i++)
    total += dashpots[3 * i] * v[i][0] + dashpots[3 * i + 1] * v[i][1]
        + dashpots[3 * i + 2] * omega[i][2];
  return total;
}

void FixHertz2dStore::setup(int /*vflag*/)
{
  previous_power = power();
}

void FixHertz2dStore::end_of_step()
{
  if (inertia_check) check_inertia();
  const double now = power();
  dashpot_work_ -= 0.5 * update->dt * (previous_power + now);
  previous_power = now;
  report();
}

double FixHertz2dStore::stored_energy()
{
  double mine = 0.0, total = 0.0;
  for (int i = 0; i < atom->nlocal; i++)
    for (int s = 0; s < count[i]; s++) mine += block(i, s)[HERTZ2D_HISTORY_SIZE + REPORT_STORED];
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, world);
  return total;
}

void FixHertz2dStore::ledger(double &laws, double &dashpot_work)
{
  const double mine[2] = {law_work - settle_all(), dashpot_work_};
  double sums[2];
  MPI_Allreduce(mine, sums, 2, MPI_DOUBLE, MPI_SUM, world);
  laws = sums[0];
  dashpot_work = sums[1];
}

double *FixHertz2dStore::touch(int i, tagint key)
{
  const int first = i * slots;
  for (int s = 0; s < count[i]; s++)
    if (keys[first + s] == key) {
      marks[first + s] = 1;
      return &values[(first + s) * HISTORY];
    }
  if (count[i] == slots)
    error->one(FLERR, "hertz2d: atom {} has more than {} contacts; raise the capacity (pair_style "
               "hertz2d ... contacts N)", atom->tag[i], slots);
  const int s = first + count[i]++;
  keys[s] = key;
  marks[s] = 1;
  for (int k = 0; k < HISTORY; k++) values[s * HISTORY + k] = 0.0;
  return &values[s * HISTORY];
}

void FixHertz2dStore::forget_untouched()
{
  for (int i = 0; i < atom->nlocal; i++) {
    const int first = i * slots;
    int kept = 0;
    for (int s = 0; s < count[i]; s++) {
      if (!marks[first + s]) continue;    // its work, all of it dissipated, is in law_work
      if (kept != s) {
        keys[first + kept] = keys[first + s];
        std::memcpy(&values[(first + kept) * HISTORY], &values[(first + s) * HISTORY],
                    HISTORY * sizeof(double));
      }
      marks[first + kept++] = 0;
    }
    count[i] = kept;
  }
  report();
}

void FixHertz2dStore::grow_arrays(int nmax)
{
  memory->grow(count, nmax, "hertz2d/store:count");
  memory->grow(keys, (bigint) nmax * slots, "hertz2d/store:keys");
  memory->grow(values, (bigint) nmax * slots * HISTORY, "hertz2d/store:values");
  memory->grow(marks, (bigint) nmax * slots, "hertz2d/store:marks");
}

void FixHertz2dStore::copy_arrays(int i, int j, int /*delflag*/)
{
  count[j] = count[i];
  std::memcpy(&keys[j * slots], &keys[i * slots], count[i] * sizeof(tagint));
  std::memcpy(&values[j * slots * HISTORY], &values[i * slots * HISTORY],
              count[i] * HISTORY * sizeof(double));
  std::memcpy(&marks[j * slots], &marks[i * slots], count[i]);
}

void FixHertz2dStore::set_arrays(int i)
{
  count[i] = 0;
}

/* One atom's table as doubles: the count, then per contact its key (bitwise) and history. */
int FixHertz2dStore::packed_size(int i) const
{
  return 1 + count[i] * (1 + HISTORY);
}

int FixHertz2dStore::pack(int i, double *buf) const
{
  int m = 0;
  buf[m++] = count[i];
  for (int s = i * slots; s < i * slots + count[i]; s++) {
    buf[m++] = ubuf(keys[s]).d;
    for (int k = 0; k < HISTORY; k++) buf[m++] = values[s * HISTORY + k];
  }
  return m;
}

int FixHertz2dStore::unpack(int i, const double *buf)
{
  int m = 0;
  const int n = static_cast<int>(buf[m++]);
  if (n < 0 || n > slots)
    error->one(FLERR, "hertz2d: {} contacts of an atom do not fit a store of capacity {}", n,
               slots);
  count[i] = n;
  for (int s = i * slots; s < i * slots + n; s++) {
    keys[s] = (tagint) ubuf(buf[m++]).i;
    marks[s] = 0;
    for (int k = 0; k < HISTORY; k++) values[s * HISTORY + k] = buf[m++];
  }
  return m;
}

int FixHertz2dStore::pack_exchange(int i, double *buf)
{
  return pack(i, buf);
}

int FixHertz2dStore::unpack_exchange(int nlocal, double *buf)
{
  return unpack(nlocal, buf);
}

/* Restart files: LAMMPS's convention, the first value is this fix's length for the atom. */
int FixHertz2dStore::pack_restart(int i, double *buf)
{
  sync();
  buf[0] = 1 + pack(i, buf + 1);
  return static_cast<int>(buf[0]);
}

void FixHertz2dStore::unpack_restart(int nlocal, int nth)
{
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; k++) m += static_cast<int>(extra[nlocal][m]);
  const int length = static_cast<int>(extra[nlocal][m]);
  const int contacts = static_cast<int>(extra[nlocal][m + 1]);
  if (length != 2 + contacts * (1 + HISTORY))
    error->one(FLERR, "hertz2d: the restart file's contacts of atom {} are not this plugin's "
               "({} values for {} contacts of {} doubles)", atom->tag[nlocal], length, contacts,
               HISTORY);
  unpack(nlocal, &extra[nlocal][m + 1]);
}

int FixHertz2dStore::size_restart(int nlocal)
{
  return 1 + packed_size(nlocal);
}

int FixHertz2dStore::maxsize_restart()
{
  return 2 + slots * (1 + HISTORY);
}

double FixHertz2dStore::memory_usage()
{
  return (double) atom->nmax
      * (sizeof(int) + slots * (sizeof(tagint) + HISTORY * sizeof(double) + 1));
}

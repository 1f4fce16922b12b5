/* pair_hertz2d.cpp: see pair_hertz2d.h. */
#include "pair_hertz2d.h"

#include "atom.h"
#include "comm.h"
#include "contact_report.h"
#include "contact_store.h"
#include "dashpot.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "update.h"

#include "hertz2d_law.h"
#include "hertz2d_plugin_build.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <utility>

using namespace LAMMPS_NS;

static const char STORE_ID[] = "HERTZ2D_PAIR_STORE";
static constexpr int DEFAULT_CAPACITY = 12;
/* single()'s extra values (compute pair/local p1 ... p10) */
enum { SINGLE_FX, SINGLE_FY, SINGLE_N, SINGLE_T, SINGLE_OVERLAP, SINGLE_A, SINGLE_KT,
       SINGLE_SLIPPING, SINGLE_STICK, SINGLE_DISSIPATED, SINGLE_EXTRA };
/* compute pair hertz2d's extra values: the work the laws and the dashpots dissipated */
enum { EXTRA_LAWS, EXTRA_DASHPOTS, PAIR_EXTRA };

void LAMMPS_NS::hertz2d_require_setup(LAMMPS *lmp, const std::string &what)
{
  if (lmp->domain->dimension != 2)
    lmp->error->all(FLERR, "{}: the hertz2d law is 2D (plane strain, forces per unit "
                    "thickness): use dimension 2", what);
  if (std::strcmp(lmp->update->unit_style, "si") != 0)
    lmp->error->all(FLERR, "{}: the hertz2d law takes SI values (Pa, m, N/m): use units si, not "
                    "units {}", what, lmp->update->unit_style);
}

void LAMMPS_NS::hertz2d_warn_materials(LAMMPS *lmp, const std::string &what, double nu,
                                       double mu)
{
  if (lmp->comm->me != 0) return;
  if (nu >= 0.0 && !(nu >= HERTZ2D_FIT_NU_LOW && nu <= HERTZ2D_FIT_NU_HIGH))
    lmp->error->warning(FLERR, "{}: Poisson ratio {} is outside the [{}, {}] the law was fitted "
                        "for: the law extrapolates", what, nu, HERTZ2D_FIT_NU_LOW,
                        HERTZ2D_FIT_NU_HIGH);
  if (mu > 0.0 && !(mu >= HERTZ2D_FIT_MU_LOW && mu <= HERTZ2D_FIT_MU_HIGH))
    lmp->error->warning(FLERR, "{}: friction {} is outside the [{}, {}] the law was fitted for: "
                        "the law extrapolates", what, mu, HERTZ2D_FIT_MU_LOW,
                        HERTZ2D_FIT_MU_HIGH);
}

/* FNV-1a (64 bits) of a file's bytes: the law file's fingerprint (not a security digest). */
static bool file_digest(const char *path, std::uint64_t &digest)
{
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  digest = 14695981039346656037ULL;
  for (std::istreambuf_iterator<char> it(file), end; it != end; ++it) {
    digest ^= static_cast<unsigned char>(*it);
    digest *= 1099511628211ULL;
  }
  return true;
}

PairHertz2d::PairHertz2d(LAMMPS *lmp) :
    Pair(lmp), ratio(0.0), capacity(DEFAULT_CAPACITY), modulus(nullptr), poisson(nullptr),
    friction(nullptr), has_material(nullptr), largest_radius(nullptr), store(nullptr)
{
  single_enable = 1;
  single_extra = SINGLE_EXTRA;
  svector = new double[SINGLE_EXTRA];
  nextra = PAIR_EXTRA;
  pvector = new double[PAIR_EXTRA];
  restartinfo = 0;    // a restart file keeps the histories (the store), not the pair's settings
  no_virial_fdotr_compute = 1;
  finitecutflag = 1;
}

PairHertz2d::~PairHertz2d()
{
  if (copymode) return;
  delete[] svector;
  delete[] pvector;
  if (modify->get_fix_by_id(STORE_ID)) modify->delete_fix(STORE_ID);
  if (allocated) {
    memory->destroy(setflag);
    memory->destroy(cutsq);
    memory->destroy(friction);
    delete[] modulus;
    delete[] poisson;
    delete[] has_material;
    delete[] largest_radius;
  }
}

void PairHertz2d::allocate()
{
  allocated = 1;
  const int n = atom->ntypes;
  memory->create(setflag, n + 1, n + 1, "pair:setflag");
  memory->create(cutsq, n + 1, n + 1, "pair:cutsq");
  memory->create(friction, n + 1, n + 1, "pair:friction");
  modulus = new double[n + 1];
  poisson = new double[n + 1];
  has_material = new int[n + 1];
  largest_radius = new double[n + 1];
  for (int i = 0; i <= n; i++) {
    has_material[i] = 0;
    for (int j = 0; j <= n; j++) setflag[i][j] = 0;
  }
}

void PairHertz2d::settings(int narg, char **arg)
{
  hertz2d_require_setup(lmp, "pair_style hertz2d");
  if (narg < 1)
    error->all(FLERR, "pair_style hertz2d: give the law file: pair_style hertz2d DIR/law.json "
               "[damping ZETA] [contacts N]");
  std::uint64_t digest = 0;
  if (!file_digest(arg[0], digest))
    error->all(FLERR, "pair_style hertz2d: cannot read the law file {}", arg[0]);
  if (digest != HERTZ2D_LAW_DIGEST)
    error->all(FLERR, "pair_style hertz2d: {} is not the law.json this plugin was built with "
               "({}); export and build them together: hertz2d export-law --lammps DIR", arg[0],
               HERTZ2D_LAW_LABEL);
  for (int iarg = 1; iarg < narg; iarg += 2) {
    if (iarg + 1 >= narg)
      error->all(FLERR, "pair_style hertz2d: keyword {} needs a value", arg[iarg]);
    if (std::strcmp(arg[iarg], "damping") == 0) {
      ratio = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      if (!(ratio >= 0.0 && ratio < 1.0))
        error->all(FLERR, "pair_style hertz2d: damping ratio {} must be in [0, 1)", ratio);
    } else if (std::strcmp(arg[iarg], "contacts") == 0) {
      capacity = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (capacity < 1)
        error->all(FLERR, "pair_style hertz2d: contacts {} must be >= 1", capacity);
    } else {
      error->all(FLERR, "pair_style hertz2d: unknown keyword {} (damping ZETA, contacts N)",
                 arg[iarg]);
    }
  }
}

void PairHertz2d::coeff(int narg, char **arg)
{
  if (narg != 3 && narg != 5)
    error->all(FLERR, "pair_coeff hertz2d: pair_coeff I I E nu mu, or pair_coeff I J mu for "
               "I != J");
  if (!allocated) allocate();
  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);
  const double mu = utils::numeric(FLERR, arg[narg - 1], false, lmp);
  if (!(mu >= 0.0 && std::isfinite(mu)))
    error->all(FLERR, "pair_coeff hertz2d: friction {} must be >= 0", mu);
  double E = 0.0, nu = 0.0;
  if (narg == 5) {
    E = utils::numeric(FLERR, arg[2], false, lmp);
    nu = utils::numeric(FLERR, arg[3], false, lmp);
    if (!(E > 0.0 && std::isfinite(E)))
      error->all(FLERR, "pair_coeff hertz2d: Young's modulus {} must be > 0 (Pa)", E);
    if (!(nu >= 0.0 && nu < 0.5))
      error->all(FLERR, "pair_coeff hertz2d: Poisson ratio {} must be in [0, 0.5)", nu);
  }
  // a type's material is set on its diagonal; an off-diagonal pair gets only its friction
  auto covers_diagonal = [&](int t) { return ilo <= t && t <= ihi && jlo <= t && t <= jhi; };
  int count = 0;
  for (int i = ilo; i <= ihi; i++) {
    for (int j = std::max(jlo, i); j <= jhi; j++) {
      if (i == j && narg != 5)
        error->all(FLERR, "pair_coeff hertz2d: type {} needs its material: pair_coeff {} {} E "
                   "nu mu", i, i, i);
      if (i != j && narg == 5 && !(covers_diagonal(i) && covers_diagonal(j)))
        error->all(FLERR, "pair_coeff hertz2d: E and nu belong to a type: set them with "
                   "pair_coeff I I E nu mu, and the friction of I != J with pair_coeff I J mu");
      count++;
    }
  }
  if (count == 0) error->all(FLERR, "pair_coeff hertz2d: no type pair in {} {}", arg[0], arg[1]);
  for (int i = ilo; i <= ihi; i++) {
    for (int j = std::max(jlo, i); j <= jhi; j++) {
      if (i == j) {
        modulus[i] = E;
        poisson[i] = nu;
        has_material[i] = 1;
      }
      friction[i][j] = mu;
      setflag[i][j] = 1;
    }
  }
}

void PairHertz2d::init_style()
{
  hertz2d_require_setup(lmp, "pair_style hertz2d");
  list_entries.clear();    // init_one prepares the materials again, maybe others
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag || !atom->torque_flag)
    error->all(FLERR, "pair_style hertz2d: needs radius, rmass, omega and torque: atom_style "
               "sphere");
  if (!atom->tag_enable) error->all(FLERR, "pair_style hertz2d: needs atom IDs");
  if (!comm->ghost_velocity)
    error->all(FLERR, "pair_style hertz2d: needs the velocities of ghost atoms: comm_modify vel "
               "yes");
  neighbor->add_request(this, NeighConst::REQ_SIZE | NeighConst::REQ_NEWTON_OFF);

  auto existing = dynamic_cast<FixHertz2dStore *>(modify->get_fix_by_id(STORE_ID));
  if (existing && existing->capacity() != capacity)
    error->all(FLERR, "pair_style hertz2d: contacts {} differs from the {} of the contacts "
               "already stored", capacity, existing->capacity());
  store = existing ? existing
                   : dynamic_cast<FixHertz2dStore *>(modify->add_fix(
                         fmt::format("{} all HERTZ2D/STORE {} pair", STORE_ID, capacity)));
  static_assert(EXTRA_LAWS == 0 && EXTRA_DASHPOTS == 1, "the store reports these two");
  store->report_to(pvector);

  const int n = atom->ntypes;
  double *mine = new double[n + 1];
  for (int i = 0; i <= n; i++) mine[i] = 0.0;
  for (int i = 0; i < atom->nlocal; i++)
    mine[atom->type[i]] = std::max(mine[atom->type[i]], atom->radius[i]);
  MPI_Allreduce(mine, largest_radius, n + 1, MPI_DOUBLE, MPI_MAX, world);
  delete[] mine;
}

double PairHertz2d::init_one(int i, int j)
{
  for (int t : {i, j})
    if (!has_material[t])
      error->all(FLERR, "pair_coeff hertz2d: type {} has no material: pair_coeff {} {} E nu mu",
                 t, t, t);
  if (!setflag[i][j]) friction[i][j] = std::sqrt(friction[i][i] * friction[j][j]);
  friction[j][i] = friction[i][j];
  hertz2d_warn_materials(lmp, "pair_coeff hertz2d", i == j ? poisson[i] : -1.0, friction[i][j]);
  const int stride = atom->ntypes + 1;
  prepared.resize(stride * stride);
  for (auto [a, b] : {std::make_pair(i, j), std::make_pair(j, i)}) {
    const hertz2d_pair materials = {1.0, 1.0, modulus[a], modulus[b], poisson[a], poisson[b],
                                    friction[a][b]};
    if (hertz2d_prepare_materials(&materials, 0, &prepared[a * stride + b]) != HERTZ2D_OK)
      error->all(FLERR, "pair_coeff hertz2d: types {} and {} are not the law's materials", a, b);
  }
  return largest_radius[i] + largest_radius[j];
}

void PairHertz2d::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  const bool advance = !update->setupflag;    // set-up evaluations add no tangential increment
  const double dt = update->dt;
  double **x = atom->x, **v = atom->v, **omega = atom->omega;
  const double *radius = atom->radius, *rmass = atom->rmass;
  const int *type = atom->type;
  const tagint *tag = atom->tag;
  const int stride = atom->ntypes + 1;
  log_4r.reserve(atom->nlocal + atom->nghost);
  store->start_evaluation();
  block.count = 0;
  std::size_t entries = 0;
  for (int ii = 0; ii < list->inum; ii++) entries += list->numneigh[list->ilist[ii]];
  if (list_entries.size() < entries) list_entries.resize(entries);

  Hertz2dListEntry *entry = list_entries.data();
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    const int *neighbours = list->firstneigh[i];
    const double xi = x[i][0], yi = x[i][1], ri = radius[i];
    const hertz2d_prepared *materials = &prepared[type[i] * stride];
    for (int jj = 0; jj < list->numneigh[i]; jj++, entry++) {
      const int j = neighbours[jj] & NEIGHMASK;
      const double dx = x[j][0] - xi, dy = x[j][1] - yi;
      const double reach = ri + radius[j];
      const double distance_squared = dx * dx + dy * dy;
      if (distance_squared >= reach * reach) continue;

      // the contact frame: n from i to j, t = n turned by +90 degrees
      const int c = block.count++;
      const double distance = std::sqrt(distance_squared), inverse = 1.0 / distance;
      const double nx = dx * inverse, ny = dy * inverse;
      const double tx = -ny, ty = nx;
      const double delta = reach - distance;
      const double lever_i = ri - 0.5 * delta, lever_j = radius[j] - 0.5 * delta;
      const double rvx = v[j][0] - v[i][0], rvy = v[j][1] - v[i][1];
      const double v_n = rvx * nx + rvy * ny;
      // v_t at the middle of the step (hertz2d.dem.forces.mid_step_pair_v_t): v is the
      // half-step velocity, the frame and the arms are taken back half a step
      const double back = 0.25 * v_n * dt;
      const double v_t = (rvx * tx + rvy * ty) * (1.0 + 0.5 * dt * v_n * inverse) -
                         (omega[i][2] * (lever_i - back) + omega[j][2] * (lever_j - back));
      block.i[c] = i;
      block.j[c] = j;
      block.dx[c] = dx;
      block.dy[c] = dy;
      block.nx[c] = nx;
      block.ny[c] = ny;
      block.delta[c] = delta;
      block.lever_i[c] = lever_i;
      block.lever_j[c] = lever_j;
      block.v_n[c] = v_n;
      block.v_t[c] = v_t;

      const int ti = type[i], tj = type[j];
      block.pair[c] = {ri, radius[j], modulus[ti], modulus[tj], poisson[ti], poisson[tj],
                       friction[ti][tj]};
      if (!(entry->r_i == ri && entry->r_j == radius[j] && entry->t_i == ti
            && entry->t_j == tj)) {
        *entry = {ri, radius[j], ti, tj, materials[tj]};
        hertz2d_prepare_sizes(&block.pair[c], log_4r(i, ri), log_4r(j, radius[j]),
                              &entry->constants);
      }
      block.constants[c] = entry->constants;
      block.reduced_mass[c] = rmass[i] * rmass[j] / (rmass[i] + rmass[j]);
      hertz2d_prepare_step(dt, block.reduced_mass[c], &block.constants[c]);
      block.history[c] = store->touch(i, tag[j], entry->slot_i);
      block.increment[c] =
          advance ? hertz2d_step_increment(block.history[c], delta, block.v_n[c], v_t, dt) : 0.0;
      block.entry[c] = entry;
      if (block.count == Hertz2dBlock::SIZE) step_block();
    }
  }
  step_block();
  store->forget_untouched();
  if (eflag_global) store->settle_all();    // compute pair's law work, read on this step only
}

/* The law's step of the gathered block, then its forces, dashpots and reports added in the
 * gather's order. */
void PairHertz2d::step_block()
{
  double **f = atom->f, **torque = atom->torque;
  const double *radius = atom->radius;
  const tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  hertz2d_contacts_deferred(block.count, block.pair, block.constants, block.delta,
                            block.increment, block.history, block.law, block.status);
  for (int c = 0; c < block.count; c++) {
    const int i = block.i[c], j = block.j[c];
    const hertz2d_state &law = block.law[c];
    if (block.status[c] != HERTZ2D_OK)
      error->one(FLERR, "pair hertz2d: the contact of atoms {} and {} left the law's domain "
                 "(status {}: approach {} beyond its largest, or a bad parameter)", tag[i],
                 tag[j], block.status[c], block.delta[c]);
    const double nx = block.nx[c], ny = block.ny[c];
    const double lever_i = block.lever_i[c], lever_j = block.lever_j[c];
    double *history = block.history[c];
    const Hertz2dDashpot damped = hertz2d_dashpot(ratio, block.reduced_mass[c], 1.0,
                                                  block.v_n[c], block.v_t[c], law);
    // a contact with a ghost is computed on both ranks (half each in the ledger and energy)
    const double work = hertz2d_record(history, block.constants[c], block.pair[c],
                                       block.delta[c], block.increment[c], 1.0, 1.0, law,
                                       damped.normal, damped.tangential);
    store->add_work(j < nlocal ? work : 0.5 * work);
    store->note_size(law.a, std::min(radius[i], radius[j]), j < nlocal ? 1.0 : 0.5);
    if (eflag_either) hertz2d_settle(history, 1.0);    // the energy ev_tally takes
    history[HERTZ2D_HISTORY_SIZE + REPORT_WRITTEN] = 1.0;    // j's copy waits for store->sync()
    if (j < nlocal) store->touch(j, tag[i], block.entry[c]->slot_j);    // kept while touching
    const double N = law.N + damped.normal, T = law.T + damped.tangential;

    // i receives -N n + T t and the moment lever_i T; j the opposite force and lever_j T
    const double fx = -N * nx - T * ny, fy = -N * ny + T * nx;
    f[i][0] += fx;
    f[i][1] += fy;
    torque[i][2] += lever_i * T;
    const double dx_ = -damped.normal * nx - damped.tangential * ny;
    const double dy_ = -damped.normal * ny + damped.tangential * nx;
    double *on_i = store->dashpot(i);
    on_i[0] += dx_;
    on_i[1] += dy_;
    on_i[2] += lever_i * damped.tangential;
    if (j < nlocal) {
      f[j][0] -= fx;
      f[j][1] -= fy;
      torque[j][2] += lever_j * T;
      double *on_j = store->dashpot(j);
      on_j[0] -= dx_;
      on_j[1] -= dy_;
      on_j[2] += lever_j * damped.tangential;
    }
    if (evflag)
      ev_tally_xyz(i, j, nlocal, 0, history[HERTZ2D_HISTORY_SIZE + REPORT_STORED], 0.0, fx, fy,
                   0.0, -block.dx[c], -block.dy[c], 0.0);
  }
  block.count = 0;
}

/* compute pair/local: the contact's last evaluation (the store's report); fforce the normal
 * force over the distance, the energy its stored energy, svector the SINGLE_ values. */
double PairHertz2d::single(int i, int j, int /*itype*/, int /*jtype*/, double rsq,
                           double /*factor_coul*/, double /*factor_lj*/, double &fforce)
{
  std::fill(svector, svector + SINGLE_EXTRA, 0.0);
  fforce = 0.0;
  const double distance = std::sqrt(rsq);
  const double *block = i < atom->nlocal ? store->find(i, atom->tag[j]) : nullptr;
  if (!block || distance >= atom->radius[i] + atom->radius[j]) return 0.0;
  const double *r = block + HERTZ2D_HISTORY_SIZE;
  double **x = atom->x;
  const double nx = (x[j][0] - x[i][0]) / distance, ny = (x[j][1] - x[i][1]) / distance;
  const double N = r[REPORT_N] + r[REPORT_N_DASHPOT], T = r[REPORT_T] + r[REPORT_T_DASHPOT];
  fforce = N / distance;
  svector[SINGLE_FX] = -N * nx - T * ny;
  svector[SINGLE_FY] = -N * ny + T * nx;
  svector[SINGLE_N] = N;
  svector[SINGLE_T] = T;
  svector[SINGLE_OVERLAP] = r[REPORT_OVERLAP];
  svector[SINGLE_A] = r[REPORT_A];
  svector[SINGLE_KT] = r[REPORT_KT];
  svector[SINGLE_SLIPPING] = r[REPORT_SLIPPING];
  svector[SINGLE_STICK] = r[REPORT_STICK];
  svector[SINGLE_DISSIPATED] = r[REPORT_DISSIPATED];
  return r[REPORT_STORED];
}

void *PairHertz2d::extract(const char *name, int &dim)
{
  dim = 1;
  if (std::strcmp(name, "modulus") == 0) return (void *) modulus;
  if (std::strcmp(name, "poisson") == 0) return (void *) poisson;
  dim = 0;
  if (std::strcmp(name, "damping") == 0) return (void *) &ratio;
  return nullptr;
}

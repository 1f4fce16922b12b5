/* fix_wall_hertz2d.cpp: see fix_wall_hertz2d.h. */
#include "fix_wall_hertz2d.h"

#include "atom.h"
#include "comm.h"
#include "contact_report.h"
#include "contact_store.h"
#include "dashpot.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "modify.h"
#include "pair.h"
#include "pair_hertz2d.h"
#include "update.h"

#include "hertz2d_law.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;

static const char *const SIDE_NAMES[] = {"xlo", "xhi", "ylo", "yhi"};
/* each side's unit normal, pointing into the box */
static const double NORMAL[][2] = {{1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}};
/* the perpendicular walls that bound each side (its length is their distance) */
static const int SPAN[][2] = {{FixWallHertz2d::YLO, FixWallHertz2d::YHI},
                              {FixWallHertz2d::YLO, FixWallHertz2d::YHI},
                              {FixWallHertz2d::XLO, FixWallHertz2d::XHI},
                              {FixWallHertz2d::XLO, FixWallHertz2d::XHI}};
static constexpr int VALUES = 6;    // per side in the global vector
/* after the sides' values: the work the laws and the dashpots of the wall contacts dissipated,
 * and the work the walls did on the discs */
static constexpr int LEDGER = 3;
static constexpr int RESTART_VALUES = 1 + 6 * FixWallHertz2d::SIDES;

FixWallHertz2d::FixWallHertz2d(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), count(0), ratio(0.0), modulus(nullptr), poisson(nullptr),
    store(nullptr), store_id(nullptr)
{
  hertz2d_require_setup(lmp, "fix wall/hertz2d");
  if (narg < 6 || (narg - 4) % 2)
    error->all(FLERR, "fix wall/hertz2d: fix ID group wall/hertz2d MU SIDE POSITION [SIDE "
               "POSITION ...], SIDE one of xlo xhi ylo yhi");
  friction = utils::numeric(FLERR, arg[3], false, lmp);
  if (!(friction >= 0.0 && std::isfinite(friction)))
    error->all(FLERR, "fix wall/hertz2d: friction {} must be >= 0", friction);
  for (auto &wall : walls) wall = {0, 0.0, 0.0, -1.0, 0.0, 0.0};
  for (int iarg = 4; iarg < narg; iarg += 2) {
    const int side = side_of(arg[iarg]);
    if (walls[side].active) error->all(FLERR, "fix wall/hertz2d: two {} walls", arg[iarg]);
    walls[side].active = 1;
    walls[side].position = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
    order[count++] = side;
  }
  scalar_flag = 1;    // the stored energy of the wall contacts (fix_modify energy yes: in pe)
  extscalar = 1;
  energy_global_flag = 1;
  vector_flag = 1;
  size_vector = VALUES * SIDES + LEDGER;
  global_freq = 1;
  extvector = 0;
  stored = wall_work = previous_power = 0.0;
  for (auto &wall : walls) wall.moved_with = 0.0;
  restart_global = 1;
  dynamic_group_allow = 0;
  for (auto &row : sums) std::fill(row, row + VALUES, 0.0);
  for (auto &row : partial) std::fill(row, row + VALUES, 0.0);
  summed = 1;
}

FixWallHertz2d::~FixWallHertz2d()
{
  if (store_id && modify->get_fix_by_id(store_id)) modify->delete_fix(store_id);
  delete[] store_id;
}

int FixWallHertz2d::setmask()
{
  return POST_INTEGRATE | POST_FORCE | END_OF_STEP;
}

int FixWallHertz2d::side_of(const char *name) const
{
  for (int side = 0; side < SIDES; side++)
    if (std::strcmp(name, SIDE_NAMES[side]) == 0) return side;
  error->all(FLERR, "fix wall/hertz2d: {} is not a side (xlo, xhi, ylo, yhi)", name);
}

void FixWallHertz2d::init()
{
  hertz2d_require_setup(lmp, "fix wall/hertz2d");
  Pair *pair = force->pair_match("hertz2d", 1);
  if (!pair)
    error->all(FLERR, "fix wall/hertz2d: needs pair_style hertz2d (the discs' E and nu, the "
               "law, the dashpot ratio)");
  int dim;
  modulus = static_cast<double *>(pair->extract("modulus", dim));
  poisson = static_cast<double *>(pair->extract("poisson", dim));
  ratio = *static_cast<double *>(pair->extract("damping", dim));
  prepared.resize(atom->ntypes + 1);
  hertz2d_warn_materials(lmp, "fix wall/hertz2d", -1.0, friction);
  for (int t = 1; t <= atom->ntypes; t++) {
    const hertz2d_pair mirror = hertz2d_disc_on_wall(1.0, modulus[t], poisson[t], friction);
    if (hertz2d_prepare_materials(&mirror, 1, &prepared[t]) != HERTZ2D_OK)
      error->all(FLERR, "fix wall/hertz2d: type {}'s material is not the law's", t);
  }
}

/* The contacts' store, created with the fix so that a restart file's histories find it. */
void FixWallHertz2d::post_constructor()
{
  store_id = utils::strdup(std::string(id) + "_HERTZ2D_STORE");
  store = dynamic_cast<FixHertz2dStore *>(modify->add_fix(
      fmt::format("{} {} HERTZ2D/STORE {} wall", store_id, group->names[igroup],
                  (int) SIDES)));
}

double FixWallHertz2d::length(int side) const
{
  const Wall &a = walls[SPAN[side][0]], &b = walls[SPAN[side][1]];
  if (!a.active || !b.active) return 0.0;
  return std::fabs(a.position - b.position);
}

int FixWallHertz2d::modify_param(int narg, char **arg)
{
  const std::string keyword = arg[0];
  if (keyword != "position" && keyword != "velocity" && keyword != "servo") return 0;
  const int needed = keyword == "servo" ? 5 : 3;
  if (narg < needed)
    error->all(FLERR, "fix_modify {}: {} SIDE {}", id, keyword,
               keyword == "servo" ? "STRESS GAIN VMAX" : "VALUE");
  const int side = side_of(arg[1]);
  Wall &wall = walls[side];
  if (!wall.active) error->all(FLERR, "fix_modify {}: fix {} has no {} wall", id, id, arg[1]);
  const double value = utils::numeric(FLERR, arg[2], false, lmp);
  if (keyword == "position") {
    wall.position = value;
  } else if (keyword == "velocity") {
    wall.velocity = value;
    wall.target = -1.0;
  } else {
    const double gain = utils::numeric(FLERR, arg[3], false, lmp);
    const double max_speed = utils::numeric(FLERR, arg[4], false, lmp);
    if (!(value >= 0.0 && std::isfinite(value)))
      error->all(FLERR, "fix_modify {}: servo stress {} must be >= 0", id, value);
    if (!(gain > 0.0 && gain <= 1.0))
      error->all(FLERR, "fix_modify {}: servo gain {} must be in (0, 1]", id, gain);
    if (!(max_speed > 0.0))
      error->all(FLERR, "fix_modify {}: servo speed {} must be > 0", id, max_speed);
    if (length(side) <= 0.0)
      error->all(FLERR, "fix_modify {}: a servo on {} needs both perpendicular walls in the fix "
                 "(its stress is force over their distance)", id, arg[1]);
    wall.target = value;
    wall.gain = gain;
    wall.max_speed = max_speed;
  }
  return needed;
}

void FixWallHertz2d::setup(int /*vflag*/)
{
  for (auto &wall : walls) wall.moved_with = wall.velocity;
  contacts();
  previous_power = powers();
}

void FixWallHertz2d::post_integrate()
{
  for (auto &wall : walls) {
    wall.moved_with = wall.velocity;
    if (wall.active) wall.position += update->dt * wall.velocity;
  }
}

/* The walls' power on this rank's discs at the walls' full-step velocities (the mean of the
 * velocity they moved with and the servo's next); sets the store's share of the dashpots' power
 * that the walls' motion does (not dissipated). */
double FixWallHertz2d::powers()
{
  double power = 0.0, offset = 0.0;
  for (int k = 0; k < count; k++) {
    const int w = order[k];
    const double speed = 0.5 * (walls[w].moved_with + walls[w].velocity);
    const double vx = w < YLO ? speed : 0.0, vy = w < YLO ? 0.0 : speed;
    power += (partial[w][0] + partial[w][2]) * vx + (partial[w][1] + partial[w][3]) * vy;
    offset -= partial[w][2] * vx + partial[w][3] * vy;
  }
  store->offset() = offset;
  return power;
}

void FixWallHertz2d::end_of_step()
{
  const double now = powers();
  wall_work += 0.5 * update->dt * (previous_power + now);
  previous_power = now;
}

void FixWallHertz2d::post_force(int /*vflag*/)
{
  contacts();
  servo();
}

/* Every disc-wall contact of the owned atoms: forces, torques, histories and the walls' sums. */
void FixWallHertz2d::contacts()
{
  const bool advance = !update->setupflag;
  const double dt = update->dt;
  double **x = atom->x, **v = atom->v, **f = atom->f;
  double **omega = atom->omega, **torque = atom->torque;
  const double *radius = atom->radius, *rmass = atom->rmass;
  const int *mask = atom->mask, *type = atom->type;
  for (auto &row : partial) std::fill(row, row + VALUES, 0.0);
  log_4r.reserve(atom->nlocal);
  store->start_evaluation();
  stored = 0.0;

  for (int i = 0; i < atom->nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    for (int k = 0; k < count; k++) {
      const int w = order[k];
      const Wall &wall = walls[w];
      const double wnx = NORMAL[w][0], wny = NORMAL[w][1];
      const double px = w < YLO ? wall.position : 0.0, py = w < YLO ? 0.0 : wall.position;
      const double delta = radius[i] - ((x[i][0] - px) * wnx + (x[i][1] - py) * wny);
      if (delta <= 0.0) continue;
      const double nx = -wnx, ny = -wny;    // from the disc to the wall
      const double tx = -ny, ty = nx;
      const double lever = radius[i] - delta;
      const double wvx = w < YLO ? wall.velocity : 0.0, wvy = w < YLO ? 0.0 : wall.velocity;
      const double rvx = wvx - v[i][0], rvy = wvy - v[i][1];
      const double v_n = rvx * nx + rvy * ny;
      const double v_t = rvx * tx + rvy * ty - omega[i][2] * lever;

      const hertz2d_pair mirror =
          hertz2d_disc_on_wall(radius[i], modulus[type[i]], poisson[type[i]], friction);
      hertz2d_prepared constants = prepared[type[i]];
      const double log_4R = log_4r(i, radius[i]);
      hertz2d_prepare_sizes(&mirror, log_4R, log_4R, &constants);
      double *block = store->touch(i, w);
      hertz2d_state law;
      const double increment = advance ? v_t * dt : 0.0;
      const int status = hertz2d_contact_prepared(&mirror, &constants, delta, increment, block,
                                                  &law);
      if (status != HERTZ2D_OK)
        error->one(FLERR, "fix wall/hertz2d: atom {} on the {} wall left the law's domain "
                   "(status {}: approach {} beyond its largest, or a bad parameter)",
                   atom->tag[i], SIDE_NAMES[w], status, delta);
      const Hertz2dDashpot damped =
          hertz2d_dashpot(ratio, 0.5 * rmass[i], 2.0, v_n, v_t, law);
      // the disc's half of its mirror pair's energies (Section 3.2)
      store->add_dissipated(hertz2d_record(block, constants, mirror, delta, increment, 2.0, 0.5,
                                           law, damped.normal, damped.tangential));
      stored += block[HERTZ2D_HISTORY_SIZE + REPORT_STORED];
      store->note_size(law.a / radius[i], 1.0);

      const double spring_x = -law.N * nx - law.T * ny, spring_y = -law.N * ny + law.T * nx;
      const double dashpot_x = -damped.normal * nx - damped.tangential * ny;
      const double dashpot_y = -damped.normal * ny + damped.tangential * nx;
      f[i][0] += spring_x + dashpot_x;
      f[i][1] += spring_y + dashpot_y;
      torque[i][2] += lever * (law.T + damped.tangential);
      double *on_disc = store->dashpot(i);
      on_disc[0] += dashpot_x;
      on_disc[1] += dashpot_y;
      on_disc[2] += lever * damped.tangential;
      double *sum = partial[w];
      sum[0] += spring_x;
      sum[1] += spring_y;
      sum[2] += dashpot_x;
      sum[3] += dashpot_y;
      sum[4] += 2.0 * law.kn_tangent;    // d(N)/d(disc's approach), the mirror rule
      sum[5] += 1.0;
    }
  }
  store->forget_untouched();
  summed = 0;
}

/* The last evaluation's sums over the ranks (collective: called by every rank). */
void FixWallHertz2d::sum()
{
  if (summed) return;
  MPI_Allreduce(&partial[0][0], &sums[0][0], SIDES * VALUES, MPI_DOUBLE, MPI_SUM, world);
  summed = 1;
}

/* The servo walls' velocities for the next step (dem/walls.py's rule). */
void FixWallHertz2d::servo()
{
  if (update->setupflag) return;
  for (int k = 0; k < count; k++) {
    const int w = order[k];
    Wall &wall = walls[w];
    if (wall.target < 0.0) continue;
    sum();
    const double span = length(w);
    const double pressing = sums[w][0] * NORMAL[w][0] + sums[w][1] * NORMAL[w][1];
    const double error_ = wall.target - pressing / span;
    double speed;
    if (sums[w][4] > 0.0) {
      speed = wall.gain * error_ * span / (sums[w][4] * update->dt);
      speed = std::min(std::max(speed, -wall.max_speed), wall.max_speed);
    } else {
      speed = error_ > 0.0 ? wall.max_speed : (error_ < 0.0 ? -wall.max_speed : 0.0);
    }
    wall.velocity = speed * (NORMAL[w][0] + NORMAL[w][1]);    // the normal's one component
  }
}

double FixWallHertz2d::compute_scalar()
{
  double total = 0.0;
  MPI_Allreduce(&stored, &total, 1, MPI_DOUBLE, MPI_SUM, world);
  return total;
}

double FixWallHertz2d::compute_vector(int n)
{
  if (n >= VALUES * SIDES) {
    double laws, dashpots, work = 0.0;
    store->ledger(laws, dashpots);
    MPI_Allreduce(&wall_work, &work, 1, MPI_DOUBLE, MPI_SUM, world);
    return n == VALUES * SIDES ? laws : n == VALUES * SIDES + 1 ? dashpots : work;
  }
  sum();
  const int side = n / VALUES;
  const Wall &wall = walls[side];
  const double *sum = sums[side];
  switch (n % VALUES) {
    case 0:
      return wall.position;
    case 1:
      return wall.velocity;
    case 2:
      return -(sum[0] + sum[2]);
    case 3:
      return -(sum[1] + sum[3]);
    case 4: {
      const double span = length(side);
      const double pressing =
          (sum[0] + sum[2]) * NORMAL[side][0] + (sum[1] + sum[3]) * NORMAL[side][1];
      return span > 0.0 ? pressing / span : 0.0;
    }
    default:
      return sum[5];
  }
}

void FixWallHertz2d::write_restart(FILE *fp)
{
  if (comm->me != 0) return;
  double list[RESTART_VALUES];
  int m = 0;
  list[m++] = SIDES;
  for (const auto &wall : walls) {
    list[m++] = wall.active;
    list[m++] = wall.position;
    list[m++] = wall.velocity;
    list[m++] = wall.target;
    list[m++] = wall.gain;
    list[m++] = wall.max_speed;
  }
  const int size = m * sizeof(double);
  fwrite(&size, sizeof(int), 1, fp);
  fwrite(list, sizeof(double), m, fp);
}

void FixWallHertz2d::restart(char *buf)
{
  const auto *list = reinterpret_cast<const double *>(buf);
  if (static_cast<int>(list[0]) != SIDES)
    error->all(FLERR, "fix wall/hertz2d: the restart file's walls are not this version's");
  int m = 1;
  for (auto &wall : walls) {
    const int active = static_cast<int>(list[m++]);
    if (active != wall.active)
      error->all(FLERR, "fix wall/hertz2d: the restart file has other walls than fix {}", id);
    wall.position = list[m++];
    wall.velocity = list[m++];
    wall.target = list[m++];
    wall.gain = list[m++];
    wall.max_speed = list[m++];
  }
}

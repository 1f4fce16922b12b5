/* fix_wall_hertz2d.cpp: see fix_wall_hertz2d.h. */
#include "fix_wall_hertz2d.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "contact_store.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "modify.h"
#include "pair.h"
#include "pair_hertz2d.h"
#include "update.h"

#include "hertz2d_law.h"
#include "wall_contact.h"

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
static constexpr int WALL_VALUES = 15;    // per wall in a restart file
static constexpr int RESTART_VALUES = 1 + WALL_VALUES * FixWallHertz2d::SIDES;

FixWallHertz2d::FixWallHertz2d(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), count(0), store(nullptr), store_id(nullptr)
{
  hertz2d_require_setup(lmp, "fix wall/hertz2d");
  if (narg < 6 || (narg - 4) % 2)
    error->all(FLERR, "fix wall/hertz2d: fix ID group wall/hertz2d MU SIDE POSITION [SIDE "
               "POSITION ...], SIDE one of xlo xhi ylo yhi");
  const double friction = utils::numeric(FLERR, arg[3], false, lmp);
  if (!(friction >= 0.0 && std::isfinite(friction)))
    error->all(FLERR, "fix wall/hertz2d: friction {} must be >= 0", friction);
  materials.friction = friction;
  for (auto &wall : walls) wall = Wall();
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
  wall_work = previous_power = 0.0;
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
  materials.init(lmp, "fix wall/hertz2d");
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
  if (a.active && b.active) return std::fabs(a.position - b.position);
  const int along = side < YLO ? 1 : 0;    // the axis the wall spans
  return domain->periodicity[along] ? domain->prd[along] : 0.0;
}

int FixWallHertz2d::modify_param(int narg, char **arg)
{
  const std::string keyword = arg[0];
  if (keyword != "position" && keyword != "velocity" && keyword != "servo" && keyword != "shear"
      && keyword != "wiggle")
    return 0;
  const int needed = keyword == "servo" || keyword == "wiggle" ? 5 : 3;
  if (narg < needed)
    error->all(FLERR, "fix_modify {}: {} SIDE {}", id, keyword,
               keyword == "servo" ? "STRESS GAIN VMAX"
                                  : keyword == "wiggle" ? "normal|tangent AMPLITUDE PERIOD"
                                                        : "VALUE");
  const int side = side_of(arg[1]);
  Wall &wall = walls[side];
  if (!wall.active) error->all(FLERR, "fix_modify {}: fix {} has no {} wall", id, id, arg[1]);
  if (keyword == "wiggle") {
    const std::string axis = arg[2];
    if (axis != "normal" && axis != "tangent")
      error->all(FLERR, "fix_modify {}: wiggle axis {} is not normal or tangent", id, axis);
    const double amplitude = utils::numeric(FLERR, arg[3], false, lmp);
    const double period = utils::numeric(FLERR, arg[4], false, lmp);
    if (!(amplitude >= 0.0 && std::isfinite(amplitude)))
      error->all(FLERR, "fix_modify {}: wiggle amplitude {} must be >= 0", id, amplitude);
    if (!(period > 0.0 && std::isfinite(period)))
      error->all(FLERR, "fix_modify {}: wiggle period {} must be > 0", id, period);
    Wiggle &wiggle = axis == "normal" ? wall.normal_wiggle : wall.tangent_wiggle;
    wiggle = {amplitude, period, now(), axis == "normal" ? wall.position : 0.0};
    if (axis == "normal") wall.target = -1.0;
    return needed;
  }
  const double value = utils::numeric(FLERR, arg[2], false, lmp);
  if (keyword == "position") {
    wall.position = value;
    wall.normal_wiggle.amplitude = 0.0;
  } else if (keyword == "velocity") {
    wall.velocity = value;
    wall.target = -1.0;
    wall.normal_wiggle.amplitude = 0.0;
  } else if (keyword == "shear") {
    if (!std::isfinite(value)) error->all(FLERR, "fix_modify {}: shear velocity {}", id, value);
    wall.slide = value;
    wall.tangent_wiggle.amplitude = 0.0;
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
                 "or a box periodic along the wall (its stress is force over their distance)",
                 id, arg[1]);
    wall.target = value;
    wall.gain = gain;
    wall.max_speed = max_speed;
    wall.normal_wiggle.amplitude = 0.0;
  }
  return needed;
}

void FixWallHertz2d::setup(int /*vflag*/)
{
  for (auto &wall : walls) wall.moved_with = wall.velocity;
  contacts();
  previous_power = powers();
}

/* the simulated time now */
double FixWallHertz2d::now() const
{
  return update->atime + (update->ntimestep - update->atimestep) * update->dt;
}

/* A wiggle's displacement A sin(2 pi (t - start)/period) at time t */
static double wiggled(const FixWallHertz2d::Wiggle &w, double t)
{
  return w.amplitude * std::sin(2.0 * M_PI * (t - w.start) / w.period);
}

/* Each wall moves by its velocity; a wiggling wall to its wiggle's position (its velocity the
 * step's displacement over dt), a wall sliding in its plane at its shear velocity or its
 * tangential wiggle's displacement of the step over dt. */
void FixWallHertz2d::post_integrate()
{
  const double dt = update->dt, t = now();
  for (auto &wall : walls) {
    if (!wall.active) continue;
    if (wall.normal_wiggle.amplitude > 0.0) {
      const double moved = wall.normal_wiggle.origin + wiggled(wall.normal_wiggle, t);
      wall.velocity = (moved - wall.position) / dt;
    }
    if (wall.tangent_wiggle.amplitude > 0.0)
      wall.slide = (wiggled(wall.tangent_wiggle, t) - wiggled(wall.tangent_wiggle, t - dt)) / dt;
    wall.moved_with = wall.velocity;
    wall.position += dt * wall.velocity;
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
    const double vx = w < YLO ? speed : walls[w].slide, vy = w < YLO ? walls[w].slide : speed;
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
  double **x = atom->x;
  const double *radius = atom->radius;
  const int *mask = atom->mask;
  for (auto &row : partial) std::fill(row, row + VALUES, 0.0);
  materials.log_4r.reserve(atom->nlocal);
  store->start_evaluation();

  for (int i = 0; i < atom->nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    for (int k = 0; k < count; k++) {
      const int w = order[k];
      const Wall &wall = walls[w];
      const double wnx = NORMAL[w][0], wny = NORMAL[w][1];
      const double px = w < YLO ? wall.position : 0.0, py = w < YLO ? 0.0 : wall.position;
      const double delta = radius[i] - ((x[i][0] - px) * wnx + (x[i][1] - py) * wny);
      if (delta <= 0.0) continue;
      const double wvx = w < YLO ? wall.velocity : wall.slide;
      const double wvy = w < YLO ? wall.slide : wall.velocity;
      const Hertz2dWallForce found = hertz2d_wall_step(
          lmp, store, materials, i, w, delta, -wnx, -wny, wvx, wvy,
          [w] { return fmt::format("fix wall/hertz2d: the {} wall", SIDE_NAMES[w]); });
      double *sum = partial[w];
      sum[0] += found.spring[0];
      sum[1] += found.spring[1];
      sum[2] += found.dashpot[0];
      sum[3] += found.dashpot[1];
      sum[4] += found.stiffness;
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
  return store->stored_energy();
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
  list[m++] = SIDES * WALL_VALUES;    // the layout, so that another version's is refused
  for (const auto &wall : walls) {
    list[m++] = wall.active;
    list[m++] = wall.position;
    list[m++] = wall.velocity;
    list[m++] = wall.target;
    list[m++] = wall.gain;
    list[m++] = wall.max_speed;
    list[m++] = wall.slide;
    for (const Wiggle *w : {&wall.normal_wiggle, &wall.tangent_wiggle}) {
      list[m++] = w->amplitude;
      list[m++] = w->period;
      list[m++] = w->start;
      list[m++] = w->origin;
    }
  }
  const int size = m * sizeof(double);
  fwrite(&size, sizeof(int), 1, fp);
  fwrite(list, sizeof(double), m, fp);
}

void FixWallHertz2d::restart(char *buf)
{
  const auto *list = reinterpret_cast<const double *>(buf);
  if (static_cast<int>(list[0]) != SIDES * WALL_VALUES)
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
    wall.slide = list[m++];
    for (Wiggle *w : {&wall.normal_wiggle, &wall.tangent_wiggle}) {
      w->amplitude = list[m++];
      w->period = list[m++];
      w->start = list[m++];
      w->origin = list[m++];
    }
  }
}

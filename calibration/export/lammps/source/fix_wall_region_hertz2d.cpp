/* fix_wall_region_hertz2d.cpp: see fix_wall_region_hertz2d.h. */
#include "fix_wall_region_hertz2d.h"

#include "atom.h"
#include "contact_store.h"
#include "domain.h"
#include "error.h"
#include "group.h"
#include "modify.h"
#include "pair_hertz2d.h"
#include "region.h"
#include "update.h"

#include <cmath>

using namespace LAMMPS_NS;
using namespace FixConst;

static constexpr int CAPACITY = 8;    // contacts of one disc with the region's surfaces at most

FixWallRegionHertz2d::FixWallRegionHertz2d(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), region(nullptr), store(nullptr), store_id(nullptr), wall_work(0.0),
    previous_power(0.0)
{
  hertz2d_require_setup(lmp, "fix wall/hertz2d/region");
  if (narg != 5)
    error->all(FLERR, "fix wall/hertz2d/region: fix ID group wall/hertz2d/region MU REGION-ID");
  materials.friction = utils::numeric(FLERR, arg[3], false, lmp);
  if (!(materials.friction >= 0.0 && std::isfinite(materials.friction)))
    error->all(FLERR, "fix wall/hertz2d/region: friction {} must be >= 0", materials.friction);
  region_id = arg[4];
  if (!domain->get_region_by_id(region_id))
    error->all(FLERR, "fix wall/hertz2d/region: no region {}", region_id);
  scalar_flag = 1;
  extscalar = 1;
  energy_global_flag = 1;
  vector_flag = 1;
  size_vector = 6;
  global_freq = 1;
  extvector = 0;
  dynamic_group_allow = 0;
  for (double &value : partial) value = 0.0;
}

FixWallRegionHertz2d::~FixWallRegionHertz2d()
{
  if (store_id && modify->get_fix_by_id(store_id)) modify->delete_fix(store_id);
  delete[] store_id;
}

int FixWallRegionHertz2d::setmask()
{
  return POST_FORCE | END_OF_STEP;
}

void FixWallRegionHertz2d::post_constructor()
{
  store_id = utils::strdup(std::string(id) + "_HERTZ2D_STORE");
  store = dynamic_cast<FixHertz2dStore *>(modify->add_fix(
      fmt::format("{} {} HERTZ2D/STORE {} region", store_id, group->names[igroup], CAPACITY)));
}

void FixWallRegionHertz2d::init()
{
  hertz2d_require_setup(lmp, "fix wall/hertz2d/region");
  region = domain->get_region_by_id(region_id);
  if (!region) error->all(FLERR, "fix wall/hertz2d/region: no region {}", region_id);
  materials.init(lmp, "fix wall/hertz2d/region");
  if (region->dynamic_check()) region->reset_vel();
}

void FixWallRegionHertz2d::setup(int /*vflag*/)
{
  contacts();
  previous_power = partial[3];
}

void FixWallRegionHertz2d::post_force(int /*vflag*/)
{
  contacts();
}

void FixWallRegionHertz2d::end_of_step()
{
  wall_work += 0.5 * update->dt * (previous_power + partial[3]);
  previous_power = partial[3];
}

/* Every contact of the owned discs with the region's surfaces (LAMMPS's fix wall/gran/region's
 * search: Region::surface within the disc's radius of its centre). */
void FixWallRegionHertz2d::contacts()
{
  const bool moving = region->dynamic_check();
  if (moving) {    // the region's position now, and its velocity over the step
    region->prematch();
    region->set_velocity();
  }
  double **x = atom->x;
  const int *mask = atom->mask;
  for (double &value : partial) value = 0.0;
  materials.log_4r.reserve(atom->nlocal);
  store->start_evaluation();
  double offset = 0.0;
  for (int i = 0; i < atom->nlocal; i++) {
    if (!(mask[i] & groupbit) || !region->match(x[i][0], x[i][1], x[i][2])) continue;
    const int found = region->surface(x[i][0], x[i][1], x[i][2], atom->radius[i]);
    for (int c = 0; c < found; c++) {
      const Region::Contact &contact = region->contact[c];
      const double r = contact.r;
      if (!(r > 0.0)) continue;
      double wall_velocity[3] = {0.0, 0.0, 0.0};
      if (moving) region->velocity_contact(wall_velocity, x[i], c);
      const Hertz2dWallForce force = hertz2d_wall_step(
          lmp, store, materials, i, contact.iwall, atom->radius[i] - r, -contact.delx / r,
          -contact.dely / r, wall_velocity[0], wall_velocity[1],
          [&] {
            return fmt::format("fix wall/hertz2d/region: surface {} of region {}", contact.iwall,
                               region_id);
          });
      const double fx = force.spring[0] + force.dashpot[0], fy = force.spring[1] + force.dashpot[1];
      partial[0] += 1.0;
      partial[1] -= fx;
      partial[2] -= fy;
      partial[3] += fx * wall_velocity[0] + fy * wall_velocity[1];
      offset -= force.dashpot[0] * wall_velocity[0] + force.dashpot[1] * wall_velocity[1];
    }
  }
  store->offset() = offset;
  store->forget_untouched();
}

double FixWallRegionHertz2d::compute_scalar()
{
  return store->stored_energy();
}

double FixWallRegionHertz2d::compute_vector(int n)
{
  if (n < 3) {
    double sums[3];
    MPI_Allreduce(partial, sums, 3, MPI_DOUBLE, MPI_SUM, world);
    return sums[n];
  }
  double laws, dashpots, work;
  store->ledger(laws, dashpots);
  MPI_Allreduce(&wall_work, &work, 1, MPI_DOUBLE, MPI_SUM, world);
  return n == 3 ? laws : n == 4 ? dashpots : work;
}

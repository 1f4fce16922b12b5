/* hertz2d_plugin.cpp: registers the hertz2d styles with LAMMPS (`plugin load hertz2dplugin.so`).
 *
 * Styles: pair hertz2d, fix wall/hertz2d, fix wall/hertz2d/region, fix damping/hertz2d, compute
 * hertz2d/contact and the internal fix HERTZ2D/STORE (the per-contact history). The plugin
 * refuses to load into another LAMMPS version than the one it was built for
 * (HERTZ2D_LAMMPS_VERSION of hertz2d_plugin_build.h): the classes above derive from LAMMPS's,
 * whose layout changes between versions.
 *
 * LAMMPS's plugin header (lammpsplugin.h) is not installed with the library, so the record
 * LAMMPS reads is declared here with the layout its manual documents (plugin page).
 */
#include "compute_contact_hertz2d.h"
#include "contact_store.h"
#include "fix_damping_hertz2d.h"
#include "fix_wall_hertz2d.h"
#include "fix_wall_region_hertz2d.h"
#include "pair_hertz2d.h"

#include "library.h"

#include "hertz2d_law.h"
#include "hertz2d_plugin_build.h"

#include <string>

using namespace LAMMPS_NS;

extern "C" {
typedef void *(hertz2d_pair_factory)(void *);
typedef void *(hertz2d_fix_factory)(void *, int, char **);
typedef void *(hertz2d_compute_factory)(void *, int, char **);

/* LAMMPS's lammpsplugin_t */
typedef struct {
  const char *version;
  const char *style;
  const char *name;
  const char *info;
  const char *author;
  union {
    hertz2d_pair_factory *pair;
    hertz2d_fix_factory *fix;
    hertz2d_compute_factory *compute;
  } creator;
  void *handle;
} hertz2d_plugin_record;

typedef void (*hertz2d_register)(hertz2d_plugin_record *, void *);

/* the plugin's only exported symbol (it is built with -fvisibility=hidden) */
__attribute__((visibility("default"))) void lammpsplugin_init(void *lmp, void *handle,
                                                              void *register_style);
}

static void *new_pair(void *lmp)
{
  return new PairHertz2d(static_cast<LAMMPS *>(lmp));
}

template <class F> static void *new_style(void *lmp, int narg, char **arg)
{
  return new F(static_cast<LAMMPS *>(lmp), narg, arg);
}

static const std::string INFO = std::string("hertz2d law ") + HERTZ2D_LAW_NAME + " ("
    + HERTZ2D_LAW_LABEL + "), pair style hertz2d, fix wall/hertz2d, fix wall/hertz2d/region, "
    "fix damping/hertz2d, "
    "compute hertz2d/contact";

void lammpsplugin_init(void *lmp, void *handle, void *register_style)
{
  if (lammps_version(lmp) != HERTZ2D_LAMMPS_VERSION) {
    const std::string message = "hertz2dplugin.so was built for LAMMPS version "
        + std::to_string(HERTZ2D_LAMMPS_VERSION) + ", not "
        + std::to_string(lammps_version(lmp)) + ": rebuild it with hertz2d export-law --lammps "
        "DIR against the LAMMPS it runs in";
    lammps_error(lmp, LMP_ERROR_ALL | LMP_ERROR_WORLD, message.c_str());
    return;
  }
  auto add = (hertz2d_register) register_style;
  hertz2d_plugin_record record;
  record.version = HERTZ2D_LAMMPS_VERSION_STRING;
  record.author = "hertz2d export-law";
  record.info = INFO.c_str();
  record.handle = handle;

  record.style = "pair";
  record.name = "hertz2d";
  record.creator.pair = new_pair;
  add(&record, lmp);

  record.style = "fix";
  record.name = "wall/hertz2d";
  record.creator.fix = new_style<FixWallHertz2d>;
  add(&record, lmp);
  record.name = "wall/hertz2d/region";
  record.creator.fix = new_style<FixWallRegionHertz2d>;
  add(&record, lmp);
  record.name = "damping/hertz2d";
  record.creator.fix = new_style<FixDampingHertz2d>;
  add(&record, lmp);
  record.name = "HERTZ2D/STORE";
  record.creator.fix = new_style<FixHertz2dStore>;
  add(&record, lmp);

  record.style = "compute";
  record.name = "hertz2d/contact";
  record.creator.compute = new_style<ComputeContactHertz2d>;
  add(&record, lmp);
}

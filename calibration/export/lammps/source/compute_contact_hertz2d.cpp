/* compute_contact_hertz2d.cpp: see compute_contact_hertz2d.h. */
#include "compute_contact_hertz2d.h"

#include "atom.h"
#include "contact_report.h"
#include "contact_store.h"
#include "error.h"
#include "memory.h"
#include "modify.h"
#include "update.h"

using namespace LAMMPS_NS;

static constexpr int KEYS = 3;    // atom ID, partner ID, wall

ComputeContactHertz2d::ComputeContactHertz2d(LAMMPS *lmp, int narg, char **arg) :
    Compute(lmp, narg, arg), capacity(0)
{
  if (narg != 3) error->all(FLERR, "compute hertz2d/contact: compute ID group hertz2d/contact");
  local_flag = 1;
  size_local_rows = 0;
  size_local_cols = KEYS + HERTZ2D_REPORT_SHOWN;
  array_local = nullptr;
}

ComputeContactHertz2d::~ComputeContactHertz2d()
{
  memory->destroy(array_local);
}

/* The rows of this rank (written into array_local with `fill`). */
int ComputeContactHertz2d::rows(bool fill)
{
  const tagint *tag = atom->tag;
  const int *mask = atom->mask;
  int n = 0;
  for (auto fix : modify->get_fix_by_style("^HERTZ2D/STORE$")) {
    auto store = dynamic_cast<FixHertz2dStore *>(fix);
    if (!store) continue;
    for (int i = 0; i < atom->nlocal; i++) {
      if (!(mask[i] & groupbit)) continue;
      for (int s = 0; s < store->contacts(i); s++) {
        const tagint key = store->key(i, s);
        if (!store->of_walls() && key < tag[i]) continue;    // the partner's row has it
        if (fill) {
          double *row = array_local[n];
          row[0] = tag[i];
          row[1] = store->of_walls() ? 0 : key;
          row[2] = store->of_walls() ? key + 1 : 0;
          const double *report = store->block(i, s) + HERTZ2D_HISTORY_SIZE;
          for (int k = 0; k < HERTZ2D_REPORT_SHOWN; k++) row[KEYS + k] = report[k];
        }
        n++;
      }
    }
  }
  return n;
}

void ComputeContactHertz2d::compute_local()
{
  invoked_local = update->ntimestep;
  const int n = rows(false);
  if (n > capacity) {
    memory->destroy(array_local);
    capacity = n;
    memory->create(array_local, capacity, size_local_cols, "hertz2d/contact:array");
  }
  size_local_rows = n;
  rows(true);
}

double ComputeContactHertz2d::memory_usage()
{
  return (double) capacity * size_local_cols * sizeof(double);
}

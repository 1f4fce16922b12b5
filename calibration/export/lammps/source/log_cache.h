/* log_cache.h: log(4 r) of each atom's radius, computed once per radius.
 *
 * The law's steps take log(4 R) of both bodies (hertz2d_prepare_sizes); an atom's radius does not
 * change from step to step, so the logarithm is kept per atom index (owned and ghost) with the
 * radius it was computed for, and recomputed only when the index holds another radius (after
 * neighbour-list rebuilds, sorting, migration, or a radius changed by another fix).
 */
#ifndef HERTZ2D_LOG_CACHE_H
#define HERTZ2D_LOG_CACHE_H

#include <cmath>
#include <vector>

namespace LAMMPS_NS {

class Hertz2dLogCache {
 public:
  /* room for atom indices below n (call before a loop over owned and ghost atoms) */
  void reserve(int n)
  {
    if (n > static_cast<int>(radius_.size())) {
      radius_.resize(n, -1.0);
      log_.resize(n, 0.0);
    }
  }
  /* log(4 r) of atom i whose radius is r */
  double operator()(int i, double r)
  {
    if (radius_[i] != r) {
      radius_[i] = r;
      log_[i] = std::log(4.0 * r);
    }
    return log_[i];
  }

 private:
  std::vector<double> radius_, log_;
};

}    // namespace LAMMPS_NS

#endif

#include "lammps/ghost_neighbor_list.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace surrox::lammps {

GhostNeighborList build_ghost_neighbor_list(const double* x, long nlocal, long nall,
                                            double cutoff) {
  GhostNeighborList list;
  list.first.assign(nlocal + 1, 0);
  if (nall == 0) return list;
  std::array<double, 3> lo, hi;
  lo.fill(std::numeric_limits<double>::max());
  hi.fill(std::numeric_limits<double>::lowest());
  for (long i = 0; i < nall; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], x[3 * i + d]);
      hi[d] = std::max(hi[d], x[3 * i + d]);
    }
  // Bins at least `cutoff` wide, so that a pair within it lies in adjacent bins; at most
  // ~nall bins in all (a sparse system does not allocate an empty grid).
  std::array<long, 3> bins;
  const double most = std::cbrt(static_cast<double>(nall)) + 1;
  for (int d = 0; d < 3; ++d)
    bins[d] = std::clamp(static_cast<long>((hi[d] - lo[d]) / cutoff), 1L, static_cast<long>(most));
  auto bin_of = [&](long i, int d) {
    const double width = (hi[d] - lo[d]) / static_cast<double>(bins[d]);
    const long b = width > 0 ? static_cast<long>((x[3 * i + d] - lo[d]) / width) : 0;
    return std::min(b, bins[d] - 1);
  };
  std::vector<long> head(bins[0] * bins[1] * bins[2], -1), next(nall, -1);
  for (long i = nall - 1; i >= 0; --i) {
    const long b = (bin_of(i, 0) * bins[1] + bin_of(i, 1)) * bins[2] + bin_of(i, 2);
    next[i] = head[b];
    head[b] = i;
  }
  const double cut2 = cutoff * cutoff;
  for (long i = 0; i < nlocal; ++i) {
    const long bi[3] = {bin_of(i, 0), bin_of(i, 1), bin_of(i, 2)};
    for (long a = std::max(0L, bi[0] - 1); a <= std::min(bins[0] - 1, bi[0] + 1); ++a)
      for (long b = std::max(0L, bi[1] - 1); b <= std::min(bins[1] - 1, bi[1] + 1); ++b)
        for (long c = std::max(0L, bi[2] - 1); c <= std::min(bins[2] - 1, bi[2] + 1); ++c)
          for (long j = head[(a * bins[1] + b) * bins[2] + c]; j >= 0; j = next[j]) {
            if (j == i) continue;
            double r2 = 0;
            for (int d = 0; d < 3; ++d)
              r2 += (x[3 * j + d] - x[3 * i + d]) * (x[3 * j + d] - x[3 * i + d]);
            if (r2 < cut2) list.neighbors.push_back(j);
          }
    list.first[i + 1] = static_cast<long>(list.neighbors.size());
  }
  return list;
}

}  // namespace surrox::lammps

#include "surrogates/deep_potential/environment.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"

namespace surrox::surrogates::deep_potential {
namespace {

struct EnvCandidate {
  double r2;
  long j;
  double d[3];
};

// Height of the cell along lattice vector `k`: volume / |other two crossed|.
double env_cell_height(const double* box, int k) {
  const double* a = box;
  const double* b = box + 3;
  const double* c = box + 6;
  const double volume =
      std::fabs(a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                a[2] * (b[0] * c[1] - b[1] * c[0]));
  const double* u = box + 3 * ((k + 1) % 3);
  const double* v = box + 3 * ((k + 2) % 3);
  const double cross[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                           u[0] * v[1] - u[1] * v[0]};
  const double area = std::sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]);
  return volume / area;
}

std::vector<double> env_wrapped(const double* coord, const double* box, long n) {
  // Inverse of the matrix whose rows are the lattice vectors (adjugate / determinant).
  const double* m = box;
  const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                     m[2] * (m[3] * m[7] - m[4] * m[6]);
  const double inv[9] = {(m[4] * m[8] - m[5] * m[7]) / det, (m[2] * m[7] - m[1] * m[8]) / det,
                         (m[1] * m[5] - m[2] * m[4]) / det, (m[5] * m[6] - m[3] * m[8]) / det,
                         (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
                         (m[3] * m[7] - m[4] * m[6]) / det, (m[1] * m[6] - m[0] * m[7]) / det,
                         (m[0] * m[4] - m[1] * m[3]) / det};
  std::vector<double> x(coord, coord + 3 * n);
  for (long i = 0; i < n; ++i) {
    double frac[3];
    for (int k = 0; k < 3; ++k) {
      // x = frac · box  ->  frac = x · box⁻¹
      frac[k] = 0;
      for (int d = 0; d < 3; ++d) frac[k] += coord[3 * i + d] * inv[3 * d + k];
      frac[k] -= std::floor(frac[k]);
    }
    for (int d = 0; d < 3; ++d) {
      x[3 * i + d] = 0;
      for (int k = 0; k < 3; ++k) x[3 * i + d] += frac[k] * box[3 * k + d];
    }
  }
  return x;
}

}  // namespace

FrameEnvironment build_environment(const double* coord, const double* box,
                                   const std::vector<int>& types, double rcut,
                                   const std::vector<int>& sel) {
  const long n = static_cast<long>(types.size());
  const int ntypes = static_cast<int>(sel.size());
  std::vector<int> offset(ntypes + 1, 0);
  for (int t = 0; t < ntypes; ++t) offset[t + 1] = offset[t] + sel[t];
  FrameEnvironment env;
  env.atoms = n;
  env.slots = offset[ntypes];
  env.neighbor.assign(n * env.slots, -1);
  env.rij.assign(n * env.slots * 3, 0.0);
  env.most_found.assign(ntypes, 0);
  int images[3];
  for (int k = 0; k < 3; ++k) {
    const double h = env_cell_height(box, k);
    if (!(h > 0)) throw InputError("a frame's box is degenerate (zero volume)");
    images[k] = static_cast<int>(std::ceil(rcut / h));
  }
  // Positions wrapped into the cell (fractional coordinates in [0, 1)), so that the images
  // above cover every neighbour whatever the input's unwrapped positions.
  const std::vector<double> x = env_wrapped(coord, box, n);
  const double rc2 = rcut * rcut;
  std::vector<std::vector<EnvCandidate>> found(ntypes);
  for (long i = 0; i < n; ++i) {
    for (auto& f : found) f.clear();
    for (int na = -images[0]; na <= images[0]; ++na)
      for (int nb = -images[1]; nb <= images[1]; ++nb)
        for (int nc = -images[2]; nc <= images[2]; ++nc) {
          double shift[3];
          for (int d = 0; d < 3; ++d) shift[d] = na * box[d] + nb * box[3 + d] + nc * box[6 + d];
          for (long j = 0; j < n; ++j) {
            if (j == i && na == 0 && nb == 0 && nc == 0) continue;
            EnvCandidate c{0, j, {}};
            for (int d = 0; d < 3; ++d) {
              c.d[d] = x[3 * j + d] + shift[d] - x[3 * i + d];
              c.r2 += c.d[d] * c.d[d];
            }
            if (c.r2 < rc2) found[types[j]].push_back(c);
          }
        }
    for (int t = 0; t < ntypes; ++t) {
      auto& f = found[t];
      env.most_found[t] = std::max(env.most_found[t], static_cast<int>(f.size()));
      // Nearest first, ties by index: the same slots whatever the image loop order.
      std::sort(f.begin(), f.end(), [](const EnvCandidate& a, const EnvCandidate& b) {
        return a.r2 < b.r2 || (a.r2 == b.r2 && a.j < b.j);
      });
      const long keep = std::min<long>(static_cast<long>(f.size()), sel[t]);
      for (long k = 0; k < keep; ++k) {
        const long slot = i * env.slots + offset[t] + k;
        env.neighbor[slot] = f[k].j;
        for (int d = 0; d < 3; ++d) env.rij[3 * slot + d] = f[k].d[d];
      }
    }
  }
  return env;
}

std::vector<int> most_within(const FrameEnvironment& env, const std::vector<int>& sel,
                             double radius) {
  std::vector<int> most(sel.size(), 0);
  const double r2max = radius * radius;
  for (long i = 0; i < env.atoms; ++i) {
    long slot = i * env.slots;
    for (std::size_t t = 0; t < sel.size(); ++t) {
      int count = 0;
      for (int k = 0; k < sel[t]; ++k, ++slot) {
        if (env.neighbor[slot] < 0) continue;
        const double* d = &env.rij[3 * slot];
        if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < r2max) ++count;
      }
      most[t] = std::max(most[t], count);
    }
  }
  return most;
}

bool warn_if_sel_overflows(const std::vector<int>& most_found, const std::vector<int>& sel,
                           const std::vector<std::string>& type_map, const std::string& where) {
  std::vector<std::string> over;
  for (std::size_t t = 0; t < sel.size(); ++t)
    if (most_found[t] > sel[t])
      over.push_back(fmt::format("{} neighbours of type {} ({}) where sel holds {}", most_found[t],
                                 t, t < type_map.size() ? type_map[t] : "?", sel[t]));
  if (over.empty()) return false;
  spdlog::warn(
      "{}: an atom has more neighbours within rcut than `sel` slots: {}; the farthest are left "
      "out of the descriptor (raise sel)",
      where, fmt::join(over, "; "));
  return true;
}

}  // namespace surrox::surrogates::deep_potential

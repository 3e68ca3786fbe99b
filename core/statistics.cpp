#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace surrox {

double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size();
  if (n < 3 || b.size() != n) return NAN;
  auto ranks = [n](const std::vector<double>& x) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t p, std::size_t q) { return x[p] < x[q]; });
    std::vector<double> r(n);
    for (std::size_t s = 0; s < n;) {
      std::size_t e = s;
      while (e + 1 < n && x[order[e + 1]] == x[order[s]]) ++e;
      for (std::size_t k = s; k <= e; ++k) r[order[k]] = 0.5 * static_cast<double>(s + e) + 1;
      s = e + 1;
    }
    return r;
  };
  const auto ra = ranks(a), rb = ranks(b);
  const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n,
               mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t k = 0; k < n; ++k)
    sab += (ra[k] - ma) * (rb[k] - mb), saa += (ra[k] - ma) * (ra[k] - ma),
        sbb += (rb[k] - mb) * (rb[k] - mb);
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : NAN;
}

double relative_l2(const double* predicted, const double* truth, std::size_t n) {
  double num = 0, den = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double d = predicted[k] - truth[k];
    num += d * d, den += truth[k] * truth[k];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

}  // namespace surrox

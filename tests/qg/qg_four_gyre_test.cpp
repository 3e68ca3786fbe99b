// ctest-labels: regression
// ctest-libraries: surrox_cli
// Validation item 5 at test size: the wind-driven double gyre of San et al. (2011) (Re 450,
// Ro 0.0036, free slip, from rest) has a four-gyre time mean: along every meridian San's ψ (our
// −ψ) changes sign three times, + − + − from south to north — the two wind-driven inner gyres
// flanked by weaker outer gyres of the opposite sign. On 32 × 64 over t ∈ [10, 30] (about 10 s);
// docs/validation/qg.md shows the same pattern on 64 × 128 and on the published 256 × 512 grid.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "qg/qg_checks.hpp"

namespace surrox::solvers::qg {
namespace {

using testing_support::make_qg;

// The signs, south to north, of the runs of values larger than `floor` in magnitude.
std::string sign_runs(const std::vector<double>& column, double floor) {
  std::string runs;
  for (const double v : column) {
    if (std::fabs(v) <= floor) continue;
    const char sign = v > 0 ? '+' : '-';
    if (runs.empty() || runs.back() != sign) runs += sign;
  }
  return runs;
}

TEST(QgDoubleGyre, TimeMeanHasFourGyres) {
  auto solver =
      make_qg({"solver.reynolds=450", "solver.rossby=0.0036", "solver.length=[1.0, 2.0]",
               "solver.cells=[32, 64]", "solver.boundary=free_slip", "solver.end_time=30"});
  const DmdaGrid& grid = solver->grid();
  const long nx = grid.owned(DmdaGrid::kX), ny = grid.owned(DmdaGrid::kZ);
  const long ox = grid.offset(DmdaGrid::kX), oz = grid.offset(DmdaGrid::kZ);
  std::vector<double> mean(static_cast<std::size_t>(nx * ny), 0.0);  // San's ψ = −ψ, dt-weighted
  double weight = 0;
  while (!solver->finished()) {
    const double before = solver->time();
    solver->advance();
    if (before < 10) continue;
    const double dt = solver->time() - before;
    const auto psi = testing_support::host_field(*solver, "psi");
    for (long k = 0; k < ny; ++k)
      for (long i = 0; i < nx; ++i)
        mean[static_cast<std::size_t>(k * nx + i)] -= dt * psi(0, k + oz, i + ox);
    weight += dt;
  }
  ASSERT_NEAR(weight, 20, 0.01);  // from the first step that starts at t ≥ 10
  double peak = 0, inner_peak = 0;
  for (long k = 0; k < ny; ++k)
    for (long i = 0; i < nx; ++i) {
      const double v = std::fabs(mean[static_cast<std::size_t>(k * nx + i)] /= weight);
      peak = std::max(peak, v);
      const double y = -1 + (k + 1) * solver->hy();
      if (std::fabs(y) < 0.5) inner_peak = std::max(inner_peak, v);
    }
  EXPECT_EQ(inner_peak, peak) << "the strongest time-mean gyres are the inner, wind-driven ones";
  for (const long i : {nx / 8, nx / 4, nx / 2, 3 * nx / 4}) {
    std::vector<double> column;
    for (long k = 0; k < ny; ++k) column.push_back(mean[static_cast<std::size_t>(k * nx + i)]);
    EXPECT_EQ(sign_runs(column, 0.05 * peak), "+-+-") << "meridian i = " << i;
  }
  std::cout << "time-mean San's ψ over t in [10, 30]: largest |ψ| " << peak << "\n";
}

}  // namespace
}  // namespace surrox::solvers::qg

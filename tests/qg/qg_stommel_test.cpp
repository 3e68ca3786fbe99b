// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// Stommel's (1948) linear steady gyre: the full QG solver with advection and viscosity off,
// bottom drag r and β, time-stepped to its steady state, matches the closed-form ψ within 1 % in
// the max norm on the finest of three grids and converges at second order.
#include <gtest/gtest.h>

#include <cmath>

#include "qg/qg_checks.hpp"

namespace surrox::solvers::qg {
namespace {

using testing_support::make_qg;

TEST(QgStommel, SteadyStateMatchesTheClosedFormAtSecondOrder) {
  double previous = 0;
  for (long nx : {32, 64, 128}) {
    auto solver = make_qg(testing_support::stommel_case(nx));
    while (!solver->finished()) solver->advance();
    ASSERT_LT(solver->residual(), 1e-11) << "not steady at t = " << solver->time();
    const auto psi = testing_support::host_field(*solver, "psi");
    const DmdaGrid& grid = solver->grid();
    const double hx = solver->hx(), hy = solver->hy();
    const long xs = grid.start(DmdaGrid::kX), zs = grid.start(DmdaGrid::kZ);
    const long ox = grid.offset(DmdaGrid::kX), oz = grid.offset(DmdaGrid::kZ);
    double error = 0, peak = 0;
    for (long k = 0; k < grid.owned(DmdaGrid::kZ); ++k)
      for (long i = 0; i < grid.owned(DmdaGrid::kX); ++i) {
        const double x = (xs + i + 1) * hx, y = -1 + (zs + k + 1) * hy;
        const double exact = testing_support::stommel_psi(x, y, 10, 0.5, 1, 1, 2);
        error = std::max(error, std::fabs(psi(0, k + oz, i + ox) - exact));
        peak = std::max(peak, std::fabs(exact));
      }
    error = grid.global_max(error) / grid.global_max(peak);
    std::cout << nx << " x " << 2 * nx << ": steady at t = " << solver->time() << " after "
              << solver->step() << " steps, relative max error " << error;
    testing_support::expect_second_order(previous, error);
    previous = error;
  }
  EXPECT_LT(previous, 0.01);
}

}  // namespace
}  // namespace surrox::solvers::qg

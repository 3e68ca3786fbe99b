// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// A linear Rossby basin mode (validation item 2): the inviscid, unforced, linear QG solver
// started from the mode (1, 1) of the unit-by-two basin keeps its shape and travels west at the
// frequency of the dispersion relation σ = −βk/(k² + l²) = β/(2K), within 1 % on three grids,
// converging at second order.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "qg/qg_checks.hpp"

namespace surrox::solvers::qg {
namespace {

using testing_support::make_qg;

constexpr double kRossbyBeta = 1.0;

std::vector<std::string> basin_mode_case(long nx, double dt, double end_time) {
  return {"solver.units=dimensional",
          "solver.beta=" + std::to_string(kRossbyBeta),
          "solver.drag=0",
          "solver.viscosity=0",
          "solver.wind_stress=0",
          "solver.advection=false",
          "solver.initial=basin_mode",
          "solver.mode=[1, 1]",
          "solver.amplitude=1",
          "solver.cells=[" + std::to_string(nx) + ", " + std::to_string(2 * nx) + "]",
          fmt::format("solver.dt={:.17g}", dt),
          fmt::format("solver.end_time={:.17g}", end_time)};
}

// The phase θ of ψ ≈ a φ cos(Kx) + b φ sin(Kx) = |·| φ cos(Kx + θ) by least squares over the
// nodes, and the amplitude √(a² + b²).
struct ModeFit {
  double phase = 0, amplitude = 0;
};

ModeFit fit_mode(QgSolver& solver, double big_k) {
  const auto psi = testing_support::host_field(solver, "psi");
  const DmdaGrid& grid = solver.grid();
  const double hx = solver.hx(), hy = solver.hy();
  const long xs = grid.start(DmdaGrid::kX), zs = grid.start(DmdaGrid::kZ);
  const long ox = grid.offset(DmdaGrid::kX), oz = grid.offset(DmdaGrid::kZ);
  double cc = 0, cs = 0, ss = 0, pc = 0, ps = 0;
  for (long k = 0; k < grid.owned(DmdaGrid::kZ); ++k)
    for (long i = 0; i < grid.owned(DmdaGrid::kX); ++i) {
      const double x = (xs + i + 1) * hx, y = (zs + k + 1) * hy;
      const double envelope = std::sin(M_PI * x) * std::sin(M_PI * y / 2);
      const double c = envelope * std::cos(big_k * x), s = envelope * std::sin(big_k * x);
      const double value = psi(0, k + oz, i + ox);
      cc += c * c, cs += c * s, ss += s * s, pc += value * c, ps += value * s;
    }
  for (double* sum : {&cc, &cs, &ss, &pc, &ps}) *sum = grid.global_sum(*sum);
  const double det = cc * ss - cs * cs;
  const double a = (pc * ss - ps * cs) / det, b = (ps * cc - pc * cs) / det;
  return {std::atan2(-b, a), std::hypot(a, b)};
}

TEST(QgRossbyBasinMode, FrequencyMatchesTheDispersionRelationAtSecondOrder) {
  const double big_k = M_PI * std::sqrt(1.0 + 0.25);  // mode (1, 1) of [0, 1] × [−1, 1]
  const double sigma = kRossbyBeta / (2 * big_k);
  const double period = 2 * M_PI / sigma;
  // σ dt = 2π/200: the RK3 phase error (σ dt)⁴/120 per unit phase is 1e-8, far below the
  // spatial error measured here.
  const double dt = period / 200, end_time = 2 * period;
  double previous = 0;
  for (long nx : {32, 64, 128}) {
    auto solver = make_qg(basin_mode_case(nx, dt, end_time));
    // Least-squares slope of the unwrapped phase against time.
    double unwrapped = fit_mode(*solver, big_k).phase, last = unwrapped;
    const double amplitude0 = fit_mode(*solver, big_k).amplitude;
    double st = 0, sp = 0, stt = 0, stp = 0, count = 0, amplitude = amplitude0;
    const auto add = [&](double t, double p) {
      st += t, sp += p, stt += t * t, stp += t * p, count += 1;
    };
    add(0, unwrapped);
    while (!solver->finished()) {
      solver->advance();
      const ModeFit fit = fit_mode(*solver, big_k);
      unwrapped += std::remainder(fit.phase - last, 2 * M_PI);
      last = fit.phase;
      amplitude = fit.amplitude;
      add(solver->time(), unwrapped);
    }
    const double measured = (count * stp - st * sp) / (count * stt - st * st);
    const double error = std::fabs(measured / sigma - 1);
    std::cout << nx << " x " << 2 * nx << ": σ measured " << measured << ", β/(2K) " << sigma
              << ", relative error " << error << ", amplitude after two periods "
              << amplitude / amplitude0;
    EXPECT_NEAR(solver->time(), end_time, 1e-9 * end_time);
    EXPECT_LT(error, 0.01);
    EXPECT_NEAR(amplitude / amplitude0, 1.0, 0.02);  // inviscid: the mode neither grows nor decays
    testing_support::expect_second_order(previous, error);
    previous = error;
  }
}

}  // namespace
}  // namespace surrox::solvers::qg

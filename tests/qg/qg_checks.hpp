#pragma once
// Helpers of the QG tests: a solver from case-file overrides, its fields on the host, the
// observed order of a convergence study.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "apps/run_case.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "solvers/qg/qg_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::qg::testing_support {

inline std::unique_ptr<QgSolver> make_qg(const std::vector<std::string>& overrides) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: qg}\n", "qg.yaml", apps::run_case_schema(), overrides);
  auto solver = std::make_unique<QgSolver>();
  solver->initialize(c.root.section("solver"), testing::runtime());
  return solver;
}

// The observed order of an error against the previous (twice as coarse) grid's, printed and
// expected second order; nothing on the first grid (previous = 0). Ends the grid's line.
inline void expect_second_order(double previous, double error) {
  if (previous > 0) {
    const double order = std::log2(previous / error);
    std::cout << ", order " << order;
    EXPECT_GT(order, 1.8);
  }
  std::cout << "\n";
}

inline auto host_field(QgSolver& solver, const std::string& name) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.state().fields.at(name));
}

// Stommel's problem: β = 10, r = 0.5 (boundary layer r/β = 0.05), F0 = 1 (τ0 = 1/π, ρ = H = 1,
// Ly = 2), no advection, no viscosity, run to a steady state.
inline std::vector<std::string> stommel_case(long nx) {
  return {"solver.units=dimensional",
          "solver.beta=10",
          "solver.drag=0.5",
          "solver.viscosity=0",
          "solver.wind_stress=0.3183098861837907",
          "solver.density=1",
          "solver.depth=1",
          "solver.advection=false",
          "solver.cells=[" + std::to_string(nx) + ", " + std::to_string(2 * nx) + "]",
          "solver.end_time=400",
          "solver.steady_tolerance=1e-11"};
}

// Stommel's closed form for r∇²ψ + βψ_x = F0 sin(2πy/Ly), ψ = 0 on the walls of [0, Lx] ×
// [−Ly/2, Ly/2]: ψ = X(x) sin(ky), k = 2π/Ly, X = −F0/(rk²) (1 + A e^{m₁x} + B e^{m₂x}),
// m₁,₂ = (−β ± √(β² + 4r²k²))/(2r), A and B from X(0) = X(Lx) = 0.
inline double stommel_psi(double x, double y, double beta, double r, double f0, double lx,
                          double ly) {
  const double k = 2 * M_PI / ly, root = std::sqrt(beta * beta + 4 * r * r * k * k);
  const double m1 = (-beta + root) / (2 * r), m2 = (-beta - root) / (2 * r);
  const double e1 = std::exp(m1 * lx), e2 = std::exp(m2 * lx);
  const double a = (1 - e2) / (e2 - e1), b = (e1 - 1) / (e2 - e1);
  return -f0 / (r * k * k) * (1 + a * std::exp(m1 * x) + b * std::exp(m2 * x)) * std::sin(k * y);
}

}  // namespace surrox::solvers::qg::testing_support

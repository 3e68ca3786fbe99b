// ctest-labels: unit
// ctest-libraries: surrox_cli
// One default per setting: AirfoilParameters{} (what a C++ caller starts from) holds what a
// case file with only `type: airfoil` resolves to, field by field, so the two cannot drift
// apart again (the C++ struct used to default to LU-SGS, the one-sided wall ghost and no
// acceleration while case files got line-implicit, the mirror and depth 12).
#include <gtest/gtest.h>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::airfoil {
namespace {

TEST(AirfoilDefaults, TheStructHoldsTheCaseSchemasDefaults) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: airfoil}\n", "defaults.yaml", apps::run_case_schema(), {});
  const AirfoilParameters from_case = AirfoilSolver::parameters_from_case(c.root.section("solver"));
  const AirfoilParameters d;
  EXPECT_EQ(d.equations, from_case.equations);
  EXPECT_EQ(d.mach, from_case.mach);
  EXPECT_EQ(d.alpha_deg, from_case.alpha_deg);
  EXPECT_EQ(d.cfl, from_case.cfl);
  EXPECT_EQ(d.cfl_ramp, from_case.cfl_ramp);
  EXPECT_EQ(d.max_iterations, from_case.max_iterations);
  EXPECT_EQ(d.residual_drop, from_case.residual_drop);
  EXPECT_EQ(d.stop_on, from_case.stop_on);
  EXPECT_EQ(d.cauchy_elements, from_case.cauchy_elements);
  EXPECT_EQ(d.cauchy_epsilon, from_case.cauchy_epsilon);
  EXPECT_EQ(d.limiter, from_case.limiter);
  EXPECT_EQ(d.entropy_fix, from_case.entropy_fix);
  // The struct's −1 means "0.2 for euler, 0 otherwise", what the schema's rows give.
  EXPECT_EQ(d.linear_fix, -1);
  EXPECT_EQ(from_case.linear_fix, 0.2);
  EXPECT_EQ(d.lusgs_omega, from_case.lusgs_omega);
  EXPECT_EQ(d.far_field, from_case.far_field);
  EXPECT_EQ(d.multigrid_levels, from_case.multigrid_levels);
  EXPECT_EQ(d.multigrid_gamma, from_case.multigrid_gamma);
  EXPECT_EQ(d.multigrid_wall, from_case.multigrid_wall);
  EXPECT_EQ(d.acceleration_depth, from_case.acceleration_depth);
  EXPECT_EQ(d.acceleration_start, from_case.acceleration_start);
  EXPECT_EQ(d.acceleration_restart, from_case.acceleration_restart);
  EXPECT_EQ(d.smoother, from_case.smoother);
  // The case lists the smoother's keys with their schema defaults; the struct leaves them
  // absent, which the smoother reads as the same defaults (smoother_registry.cpp).
  EXPECT_TRUE(d.smoother_options.empty());
  EXPECT_EQ(d.turbulence_model, from_case.turbulence_model);
  EXPECT_EQ(d.nu_tilde_ratio, from_case.nu_tilde_ratio);
  EXPECT_EQ(d.freestream_temperature, from_case.freestream_temperature);
  EXPECT_EQ(d.turbulence_cfl, from_case.turbulence_cfl);
  EXPECT_EQ(d.turbulence_convection, from_case.turbulence_convection);
}

}  // namespace
}  // namespace surrox::solvers::airfoil

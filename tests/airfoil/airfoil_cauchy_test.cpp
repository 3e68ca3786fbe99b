// ctest-labels: unit
// ctest-libraries: surrox_solvers surrox_io_hdf5
// SU2's Cauchy test on force coefficients (solvers/cauchy_criterion.hpp): the ring mean by hand
// on a geometric sequence, the 0.1 floor, and the airfoil solver stopping on it (stop_on) at a
// Cl and Cd within engineering accuracy (|ΔCl| ≤ 1e-4, |ΔCd| ≤ 1e-5) of the residual-converged
// ones.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "solvers/cauchy_criterion.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"
#include "tests/airfoil/naca_test_grid.hpp"

namespace surrox::solvers::airfoil {
namespace {

using Coefficients = std::map<std::string, double>;

// C_n = 0.5 + 0.1·rⁿ: each change is 0.1·rⁿ⁻¹(1 − r) / |C_n|, the ring mean the last `elements`.
TEST(CauchyCriterion, RingMeanOfAGeometricSequenceByHand) {
  const long elements = 5;
  const double r = 0.5;
  CauchyCriterion cauchy({"cl"}, elements, 1e-3);
  std::vector<double> changes;
  double previous = 0;
  for (long n = 0; n < 30; ++n) {
    const double c = 0.5 + 0.1 * std::pow(r, static_cast<double>(n));
    cauchy.record(Coefficients{{"cl", c}});
    changes.push_back(n == 0 ? 0.0 : std::abs(c - previous) / c);
    previous = c;
    double mean = 0;
    for (long k = std::max(0L, n - elements + 1); k <= n; ++k)
      mean += changes[static_cast<std::size_t>(k)];
    mean /= elements;
    if (n >= 1) {
      EXPECT_NEAR(cauchy.value("cl"), mean, 1e-15) << n;
    }
    // Converged once the mean is below ε and at least `elements` + 1 values were recorded.
    EXPECT_EQ(cauchy.converged(), mean < 1e-3 && n >= elements) << n;
  }
  EXPECT_TRUE(cauchy.converged());
  cauchy.reset();
  EXPECT_FALSE(cauchy.converged());
  EXPECT_EQ(cauchy.value("cl"), 1.0);
}

TEST(CauchyCriterion, SmallCoefficientsAreMeasuredAgainstTheFloor) {
  CauchyCriterion cauchy({"cl", "cd"}, 2, 1e-6);
  cauchy.record(Coefficients{{"cl", 1e-3}, {"cd", 0.02}});
  cauchy.record(Coefficients{{"cl", 1.1e-3}, {"cd", 0.02}});
  // |Δ| / max(|C|, 0.1): 1e-4 / 0.1, not 1e-4 / 1.1e-3; the ring holds (0, 1e-3).
  EXPECT_NEAR(cauchy.value("cl"), 0.5 * 1e-4 / 0.1, 1e-15);
  EXPECT_EQ(cauchy.value("cd"), 0.0);
  EXPECT_FALSE(cauchy.converged());  // cl's mean is above ε
}

AirfoilParameters cauchy_case(std::vector<std::string> stop_on) {
  AirfoilParameters p = lusgs_test_parameters();
  p.mach = 0.5;
  p.alpha_deg = 2;
  p.cfl = 1000;
  p.max_iterations = 3000;
  p.stop_on = std::move(stop_on);
  return p;
}

struct Stop {
  long cycles;
  double cl, cd;
  bool converged;
};

Stop run(const AirfoilParameters& p) {
  AirfoilSolver solver;
  solver.initialize(p, testing::naca0012_grid(2e-3));
  while (!solver.finished()) solver.advance();
  const Diagnostics d = solver.diagnostics();
  return {solver.step(), d.at("cl"), d.at("cd"), d.at("converged") == 1.0};
}

TEST(AirfoilCauchy, StopsOnForcesAtEngineeringAccuracyBeforeEightOrders) {
  const Stop residual = run(cauchy_case({"residual"}));
  const Stop forces = run(cauchy_case({"cl", "cd"}));
  std::printf(
      "residual criterion: %ld cycles, Cl %.9f, Cd %.9f; Cauchy: %ld cycles, Cl %.9f, "
      "Cd %.9f\n",
      residual.cycles, residual.cl, residual.cd, forces.cycles, forces.cl, forces.cd);
  ASSERT_TRUE(residual.converged);
  ASSERT_TRUE(forces.converged);
  EXPECT_LT(forces.cycles, residual.cycles);
  EXPECT_NEAR(forces.cl, residual.cl, 1e-4);
  EXPECT_NEAR(forces.cd, residual.cd, 1e-5);
  // Both criteria: the later of the two decides.
  const Stop both = run(cauchy_case({"residual", "cl"}));
  EXPECT_EQ(both.cycles, residual.cycles);
}

// The Cauchy history travels in the checkpoint: a run restarted mid-way stops where the straight
// run stops.
TEST(AirfoilCauchy, RestartedRunStopsAtTheSameCycle) {
  const AirfoilParameters p = cauchy_case({"cl", "cd"});
  const Stop straight = run(p);
  AirfoilSolver first;
  first.initialize(p, testing::naca0012_grid(2e-3));
  for (int n = 0; n < 300; ++n) first.advance();
  io::Hdf5Checkpoint checkpoint;
  first.save_state(checkpoint);
  AirfoilSolver second;
  second.initialize(p, testing::naca0012_grid(2e-3));
  second.load_state(checkpoint);
  while (!second.finished()) second.advance();
  EXPECT_EQ(second.step(), straight.cycles);
  EXPECT_EQ(second.diagnostics().at("cl"), straight.cl);
}

TEST(AirfoilCauchy, UnknownCriterionIsAnInputError) {
  AirfoilSolver solver;
  EXPECT_THROW(solver.initialize(cauchy_case({"lift"}), testing::naca0012_grid(2e-3)), InputError);
  EXPECT_THROW(solver.initialize(cauchy_case({}), testing::naca0012_grid(2e-3)), InputError);
}

}  // namespace
}  // namespace surrox::solvers::airfoil

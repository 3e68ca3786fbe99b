// ctest-labels: unit
// ctest-libraries: surrox_solvers
// The update limiter (solvers/airfoil/update_limiter.hpp) on hand-worked states: the fraction
// of δU a cell takes so that ρ and p change by at most r of their values.
#include "solvers/airfoil/update_limiter.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using surrox::solvers::airfoil::State;
using surrox::solvers::airfoil::to_primitive;
using surrox::solvers::airfoil::update_fraction;

// ρ = 1 at rest with p = 1: ρE = p / (γ − 1) = 2.5.
constexpr State kRest{{1, 0, 0, 2.5}};

TEST(UpdateLimiter, SmallUpdatesAreTakenWhole) {
  const State du{{0.05, 0.01, -0.02, 0.1}};
  EXPECT_EQ(update_fraction(kRest, du, 0.2), 1.0);
}

TEST(UpdateLimiter, DensityBoundScalesTheWholeUpdate) {
  // Δρ = −0.5 at r = 0.2: θ = 0.2 / 0.5 = 0.4; the energy change 0.4 · (−0.5) keeps p − 1 at
  // −0.08, inside the band.
  const State du{{-0.5, 0, 0, -0.5}};
  EXPECT_DOUBLE_EQ(update_fraction(kRest, du, 0.2), 0.4);
}

TEST(UpdateLimiter, PressureBoundHalvesUntilInside) {
  // Δ(ρE) = −2 alone: p = 0.4 (2.5 − 2θ) changes by 0.8θ; ≤ 0.2 needs θ ≤ 0.25, which the
  // halvings 1, 0.5, 0.25 reach.
  const State du{{0, 0, 0, -2}};
  const double theta = update_fraction(kRest, du, 0.2);
  EXPECT_DOUBLE_EQ(theta, 0.25);
  State t;
  for (int k = 0; k < 4; ++k) t[k] = kRest[k] + theta * du[k];
  EXPECT_LE(std::fabs(to_primitive(t)[3] - 1.0), 0.2 + 1e-15);
  // The momentum alone can take p through zero (kinetic energy ½ ρu² = 2.5 at u = √5).
  const State push{{0, 3, 0, 0}};
  const double m = update_fraction(kRest, push, 0.2);
  for (int k = 0; k < 4; ++k) t[k] = kRest[k] + m * push[k];
  EXPECT_LT(m, 1.0);
  EXPECT_LE(std::fabs(to_primitive(t)[3] - 1.0), 0.2 + 1e-15);
  EXPECT_GT(to_primitive(t)[3], 0.0);
}

TEST(UpdateLimiter, OffOrUndefinedPassesTheUpdate) {
  const State du{{-5, 0, 0, -20}};
  EXPECT_EQ(update_fraction(kRest, du, 0.0), 1.0);  // r = 0: no limit
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(update_fraction(kRest, State{{nan, 0, 0, 0}}, 0.2), 1.0);  // for the state check
  EXPECT_EQ(update_fraction(State{{1, 0, 0, -1}}, du, 0.2), 1.0);      // p < 0 already
}

}  // namespace

// ctest-labels: unit
// ctest-libraries: surrox_solvers
// Arakawa's Jacobian: with ψ = ω = 0 on the walls (free slip) the discrete energy and enstrophy
// are conserved to round-off, Σψ J(ψ, ω) = Σω J(ψ, ω) = 0, J(ψ, ψ) = 0 at every node, for
// arbitrary (random) interior fields; it is second-order accurate against a closed-form Jacobian;
// and the plain centred form J⁺⁺ alone does not conserve (the check can fail).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/field_set.hpp"
#include "solvers/qg/arakawa.hpp"

namespace surrox::solvers::qg {
namespace {

constexpr long kNx = 37, kNy = 29;  // interior nodes
constexpr double kHx = 1.0 / (kNx + 1), kHy = 2.0 / (kNy + 1);

Field3 random_field(unsigned seed) {
  Field3 f("f", kNy + 2, 1, kNx + 2);  // zero ghosts: the walls
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (long k = 1; k <= kNy; ++k)
    for (long i = 1; i <= kNx; ++i) f(k, 0, i) = u(gen);
  return f;
}

double plain_jacobian(const Field3& a, const Field3& b, long k, long i) {
  return ((a(k, 0, i + 1) - a(k, 0, i - 1)) * (b(k + 1, 0, i) - b(k - 1, 0, i)) -
          (a(k + 1, 0, i) - a(k - 1, 0, i)) * (b(k, 0, i + 1) - b(k, 0, i - 1))) /
         (4 * kHx * kHy);
}

TEST(Arakawa, ConservesEnergyAndEnstrophyToRoundOff) {
  const Field3 psi = random_field(1), w = random_field(2);
  const double inv = 1 / (12 * kHx * kHy);
  double energy = 0, enstrophy = 0, scale = 0, plain_enstrophy = 0, self = 0;
  for (long k = 1; k <= kNy; ++k)
    for (long i = 1; i <= kNx; ++i) {
      const double j = arakawa_jacobian(psi, w, k, i, inv);
      energy += psi(k, 0, i) * j;
      enstrophy += w(k, 0, i) * j;
      scale += std::fabs(w(k, 0, i) * j);
      plain_enstrophy += w(k, 0, i) * plain_jacobian(psi, w, k, i);
      self = std::max(self, std::fabs(arakawa_jacobian(psi, psi, k, i, inv)));
    }
  std::cout << "relative: sum psi J " << energy / scale << ", sum omega J " << enstrophy / scale
            << ", max |J(psi, psi)| " << self * kHx * kHy << ", plain J++: sum omega J "
            << plain_enstrophy / scale << "\n";
  EXPECT_LT(std::fabs(energy), 1e-13 * scale);
  EXPECT_LT(std::fabs(enstrophy), 1e-13 * scale);
  EXPECT_LT(self * kHx * kHy, 1e-14);
  EXPECT_GT(std::fabs(plain_enstrophy), 1e-3 * scale);  // J⁺⁺ alone does not conserve it
}

TEST(Arakawa, IsSecondOrderAccurate) {
  // a = sin(πx) sin(πy), b = cos(2πx) y²: J = a_x b_y − a_y b_x in closed form.
  double previous = 0;
  for (long n : {32, 64, 128}) {
    const double h = 1.0 / n;
    Field3 a("a", n + 1, 1, n + 1), b("b", n + 1, 1, n + 1);
    for (long k = 0; k <= n; ++k)
      for (long i = 0; i <= n; ++i) {
        const double x = i * h, y = k * h;
        a(k, 0, i) = std::sin(M_PI * x) * std::sin(M_PI * y);
        b(k, 0, i) = std::cos(2 * M_PI * x) * y * y;
      }
    double error = 0;
    for (long k = 1; k < n; ++k)
      for (long i = 1; i < n; ++i) {
        const double x = i * h, y = k * h;
        const double exact =
            M_PI * std::cos(M_PI * x) * std::sin(M_PI * y) * std::cos(2 * M_PI * x) * 2 * y +
            M_PI * std::sin(M_PI * x) * std::cos(M_PI * y) * 2 * M_PI * std::sin(2 * M_PI * x) * y *
                y;
        error = std::max(error, std::fabs(arakawa_jacobian(a, b, k, i, 1 / (12 * h * h)) - exact));
      }
    if (previous > 0) {
      std::cout << n << ": error " << error << ", order " << std::log2(previous / error) << "\n";
      EXPECT_GT(std::log2(previous / error), 1.9);
    }
    previous = error;
  }
}

}  // namespace
}  // namespace surrox::solvers::qg

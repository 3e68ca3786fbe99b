#include "solvers/qg/qg_initial_vorticity.hpp"

#include <cmath>
#include <map>

#include "solvers/counter_hash.hpp"

namespace surrox::solvers::qg {
namespace {

constexpr int kQgInitialModes = 4;  // l, m = 1 … 4 in the random initial vorticity

using QgInitialVorticity = void (*)(const CaseNode&, const QgNodes&, const Field3&);

void qg_rest(const CaseNode&, const QgNodes&, const Field3&) {}  // the fields start at zero

// ω = A/4 Σ a_lm sin(lπx/Lx) sin(mπ(y/Ly + ½)), l, m = 1 … 4, seeded a_lm ∈ [−1, 1).
void qg_random(const CaseNode& config, const QgNodes& n, const Field3& omega) {
  Kokkos::Array<double, kQgInitialModes * kQgInitialModes> a;
  const auto seed = static_cast<std::uint64_t>(config.integer("seed"));
  for (int m = 0; m < kQgInitialModes * kQgInitialModes; ++m)
    a[m] = 2 * unit_interval(mix64(seed * kGoldenGamma + static_cast<std::uint64_t>(m))) - 1;
  const double amplitude = config.real("amplitude") / kQgInitialModes;
  const double hx = n.hx, hy = n.hy, lx = n.lx, ly = n.ly;
  const long x0 = n.x0, z0 = n.z0;
  for_each_cell<2>(
      "QgSolver::initial_random", n.owned, KOKKOS_LAMBDA(long k, long, long i) {
        const double x = static_cast<double>(x0 + i + 1) * hx;
        const double y = static_cast<double>(z0 + k + 1) * hy;  // from the southern wall
        double sum = 0;
        for (int l = 1; l <= kQgInitialModes; ++l)
          for (int m = 1; m <= kQgInitialModes; ++m)
            sum += a[(l - 1) * kQgInitialModes + m - 1] * sin(l * M_PI * x / lx) *
                   sin(m * M_PI * y / ly);
        omega(k, 0, i) = amplitude * sum;
      });
}

// The linear basin mode of ∂t∇²ψ + βψx = 0 with ψ = 0 on the walls (Longuet-Higgins 1964):
// ψ = A φ cos(Kx + σt), φ = sin(mπx/Lx) sin(nπ(y/Ly + ½)), K² = (mπ/Lx)² + (nπ/Ly)², σ = β/(2K):
// a westward-travelling wave under the basin envelope, with wavenumbers (k, l) = (−K, K) on the
// free-wave dispersion relation σ = −βk/(k² + l²). Its t = 0 state; ω is the 5-point Laplacian of
// that ψ, so the discrete inversion returns ψ at the nodes exactly.
void qg_basin_mode(const CaseNode& config, const QgNodes& n, const Field3& omega) {
  const auto mode = config.integers("mode");
  const double amplitude = config.real("amplitude");
  const double hx = n.hx, hy = n.hy, lx = n.lx, ly = n.ly;
  const double kx = static_cast<double>(mode[0]) * M_PI / lx;
  const double ky = static_cast<double>(mode[1]) * M_PI / ly;
  const double big_k = std::sqrt(kx * kx + ky * ky);
  const long x0 = n.x0, z0 = n.z0;
  for_each_cell<2>(
      "QgSolver::initial_basin_mode", n.owned, KOKKOS_LAMBDA(long k, long, long i) {
        const auto psi = [=](long dk, long di) {
          const double x = static_cast<double>(x0 + i + 1 + di) * hx;
          const double y = static_cast<double>(z0 + k + 1 + dk) * hy;  // from the southern wall
          return amplitude * sin(kx * x) * sin(ky * y) * cos(big_k * x);
        };
        const double centre = psi(0, 0);
        omega(k, 0, i) = (psi(0, 1) - 2 * centre + psi(0, -1)) / (hx * hx) +
                         (psi(1, 0) - 2 * centre + psi(-1, 0)) / (hy * hy);
      });
}

const std::map<std::string, QgInitialVorticity>& qg_initial_vorticities() {
  static const std::map<std::string, QgInitialVorticity> fields = {
      {"rest", qg_rest}, {"random", qg_random}, {"basin_mode", qg_basin_mode}};
  return fields;
}

}  // namespace

std::vector<std::string> qg_initial_vorticity_names() {
  std::vector<std::string> names;
  for (const auto& [name, fill] : qg_initial_vorticities()) names.push_back(name);
  return names;
}

void set_qg_initial_vorticity(const std::string& name, const CaseNode& config, const QgNodes& nodes,
                              const Field3& omega) {
  qg_initial_vorticities().at(name)(config, nodes, omega);
}

}  // namespace surrox::solvers::qg

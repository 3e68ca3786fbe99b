// How many cycles can any warm start save? The airfoil solver is started from its own converged
// field, perturbed by smooth noise of a known relative amplitude (a surrogate of that accuracy
// at best, since a real prediction's error is not smooth), and from the converged field of a
// neighbouring case (Δα, the nearest-training-case start). Each start iterates to the same
// criterion as the cold start; cycles are counted at every density-residual decade on the way.
// The ratios bound what a warm start from a surrogate of that accuracy can reach on this solver.
//
// Usage: bench_warm_start_bound [KEY=VALUE ...]   (solver keys, e.g. mesh.first_cell_height=1e-2)
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "solvers/residual_levels.hpp"

namespace {

using surrox::solvers::airfoil::AirfoilSolver;

// The test cases' settings in cases/airfoil_surrogate/warm_start.yaml, one airfoil and angle.
constexpr const char* kCase = R"(equations: euler
mach: 0.4
alpha_deg: 2.0
cfl: 1000
max_iterations: 6000
residual_drop: 1.0e-8
limiter: van_albada
far_field: vortex
mesh:
  airfoil: {type: naca, digits: "2412", trailing_edge: closed}
  cells_around: 96
  cells_normal: 48
  first_cell_height: 2.0e-3
  farfield_radius: 20
)";

// Cycles after which the residual stays below each decade 1e-4 … 1e-8 (−1: not reached).
std::vector<long> converge(AirfoilSolver& solver) {
  surrox::solvers::ResidualLevels levels(solver.parameters().residual_drop);
  while (!solver.finished()) {
    solver.advance();
    levels.record(solver.residual(), solver.step());
  }
  return levels.cycles();
}

// Adds a smooth random field of relative amplitude `amplitude` (of each variable's largest
// magnitude; of |u∞| = 1 for the velocities): three Fourier modes in (θ, j/nj) per variable.
void perturb(std::array<AirfoilSolver::HostMatrix, 4>& w, double amplitude, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> phase(0, 2 * M_PI);
  const long ni = static_cast<long>(w[0].extent(0)), nj = static_cast<long>(w[0].extent(1));
  for (int k = 0; k < 4; ++k) {
    double p[6];
    for (double& v : p) v = phase(generator);
    double scale = 1;
    if (k == 0 || k == 3) {
      scale = 0;
      for (long j = 0; j < nj; ++j)
        for (long i = 0; i < ni; ++i) scale = std::max(scale, std::abs(w[k](i, j)));
    }
    for (long j = 0; j < nj; ++j)
      for (long i = 0; i < ni; ++i) {
        const double t = 2 * M_PI * static_cast<double>(i) / static_cast<double>(ni);
        const double r = static_cast<double>(j) / static_cast<double>(nj);
        const double n = std::sin(t + p[0]) * std::cos(3 * r + p[1]) +
                         0.5 * std::sin(2 * t + p[2]) * std::sin(5 * r + p[3]) +
                         0.3 * std::cos(5 * t + 7 * r + p[4] + p[5]);
        w[k](i, j) += amplitude * scale * n / 1.8;  // |n| ≤ 1.8
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  surrox::Runtime runtime(argc, argv);
  std::vector<std::string> overrides(argv + 1, argv + argc);
  auto load = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), overrides.begin(), overrides.end());
    return surrox::io::load_case_text(kCase, "warm_start_bound", AirfoilSolver::schema(), extra);
  };
  const auto base = load({});
  AirfoilSolver cold;
  cold.initialize(base.root, runtime);
  const std::vector<long> reference = converge(cold);
  const std::vector<double> levels =
      surrox::solvers::ResidualLevels(cold.parameters().residual_drop).levels();
  const auto converged = cold.primitive_host();

  auto row = [&](const std::string& label, const std::vector<long>& cycles) {
    std::string line = fmt::format("| {} |", label);
    for (std::size_t l = 0; l < levels.size(); ++l)
      line += cycles[l] > 0 ? fmt::format(" {} ({:.2f}×) |", cycles[l],
                                          static_cast<double>(reference[l]) / cycles[l])
                            : std::string(" – |");
    fmt::print("{}\n", line);
  };
  std::string header = "| start |", rule = "|---|";
  for (double level : levels) header += fmt::format(" to {:.0e} |", level), rule += "---|";
  fmt::print("Cycles (cold/warm ratio) to each density-residual level\n\n{}\n{}\n", header, rule);
  row("cold (free stream)", reference);

  for (const double amplitude : {1e-2, 1e-3, 1e-4}) {
    std::array<AirfoilSolver::HostMatrix, 4> field;
    for (int k = 0; k < 4; ++k) {  // Views share memory on copy: clone
      field[k] = AirfoilSolver::HostMatrix("field", converged[k].extent(0), converged[k].extent(1));
      Kokkos::deep_copy(field[k], converged[k]);
    }
    perturb(field, amplitude, 1);
    AirfoilSolver warm;
    warm.initialize(base.root, runtime);
    warm.set_initial_primitive(field[0], field[1], field[2], field[3]);
    row(fmt::format("converged + smooth noise {:.0e}", amplitude), converge(warm));
  }
  for (const double delta : {0.5, 0.1}) {
    // The neighbour: the same airfoil at α − Δα, converged, then this case from its field.
    const double alpha = base.root.real("alpha_deg") - delta;
    AirfoilSolver neighbour;
    neighbour.initialize(load({fmt::format("alpha_deg={}", alpha)}).root, runtime);
    converge(neighbour);
    const auto field = neighbour.primitive_host();
    AirfoilSolver warm;
    warm.initialize(base.root, runtime);
    warm.set_initial_primitive(field[0], field[1], field[2], field[3]);
    row(fmt::format("converged case at α − {}°", delta), converge(warm));
  }
  return 0;
}

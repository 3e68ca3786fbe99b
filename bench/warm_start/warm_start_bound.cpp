// How many cycles can any warm start save? The airfoil solver is started from its own converged
// field, perturbed by smooth noise of a known relative amplitude (a surrogate of that accuracy
// at best, since a real prediction's error is not smooth), and from the converged field of a
// neighbouring case (Δα, the nearest-training-case start). Each start iterates to the same
// criterion as the cold start; cycles are counted at every density-residual decade on the way and
// at engineering accuracy (|Cl − Cl∞| ≤ 1e-4 and |Cd − Cd∞| ≤ 1e-5 to the end, against the cold
// run). The cold run ramps its CFL number over 10 cycles, the warm runs over 2, as in
// cases/airfoil_surrogate/warm_start.yaml. The ratios bound what a warm start from a surrogate of
// that accuracy can reach on this solver.
//
// Usage: bench_warm_start_bound [KEY=VALUE ...]   (solver keys, e.g. mesh.first_cell_height=1e-2)
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "couplers/steady_run.hpp"
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
cfl_ramp: 10
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

using surrox::couplers::SteadyRun;

// The warm runs' CFL ramp: coupler.cfl_ramp's default.
constexpr long kWarmRamp = 2;

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
  const SteadyRun reference = surrox::couplers::run_to_criterion(cold);
  const std::vector<double> levels = reference.levels.levels();
  const auto converged = cold.primitive_host();
  const long reference_accurate = cycles_to_accuracy(reference, reference.cl, reference.cd);

  auto row = [&](const std::string& label, const SteadyRun& run) {
    std::string line = fmt::format("| {} |", label);
    const auto ratio = [](long cold_cycles, long cycles) {
      return cycles > 0
                 ? fmt::format(" {} ({:.2f}×) |", cycles,
                               static_cast<double>(cold_cycles) / static_cast<double>(cycles))
                 : std::string(" – |");
    };
    const std::vector<long> cycles = run.levels.cycles();
    for (std::size_t l = 0; l < levels.size(); ++l)
      line += ratio(reference.levels.cycles()[l], cycles[l]);
    line += ratio(reference_accurate, cycles_to_accuracy(run, reference.cl, reference.cd));
    fmt::print("{}\n", line);
  };
  std::string header = "| start |", rule = "|---|";
  for (double level : levels) header += fmt::format(" to {:.0e} |", level), rule += "---|";
  header += " engineering accuracy |", rule += "---|";
  fmt::print("Cycles (cold/warm ratio) to each density-residual level\n\n{}\n{}\n", header, rule);
  row("cold (free stream)", reference);

  auto warm_from = [&](const std::array<AirfoilSolver::HostMatrix, 4>& field) {
    AirfoilSolver warm;
    warm.initialize(base.root, runtime);
    warm.set_cfl_ramp(kWarmRamp);
    warm.set_initial_primitive(field[0], field[1], field[2], field[3]);
    return surrox::couplers::run_to_criterion(warm);
  };
  for (const double amplitude : {1e-2, 1e-3, 1e-4}) {
    std::array<AirfoilSolver::HostMatrix, 4> field;
    for (int k = 0; k < 4; ++k) {  // Views share memory on copy: clone
      field[k] = AirfoilSolver::HostMatrix("field", converged[k].extent(0), converged[k].extent(1));
      Kokkos::deep_copy(field[k], converged[k]);
    }
    perturb(field, amplitude, 1);
    row(fmt::format("converged + smooth noise {:.0e}", amplitude), warm_from(field));
  }
  for (const double delta : {0.5, 0.1}) {
    // The neighbour: the same airfoil at α − Δα, converged, then this case from its field.
    const double alpha = base.root.real("alpha_deg") - delta;
    AirfoilSolver neighbour;
    neighbour.initialize(load({fmt::format("alpha_deg={}", alpha)}).root, runtime);
    surrox::couplers::run_to_criterion(neighbour);
    row(fmt::format("converged case at α − {}°", delta), warm_from(neighbour.primitive_host()));
  }
  return 0;
}

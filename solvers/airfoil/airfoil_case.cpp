// The airfoil solver's case-file section: its schema and the parameters read from it.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "io/hdf5_checkpoint.hpp"
#include "mesh/grid_generator.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"

namespace surrox::solvers::airfoil {
namespace {

template <class T, std::size_t N>
const NamedValue<T>& lookup(const NamedValue<T> (&table)[N], const std::string& name,
                            const CaseNode& config, const char* key) {
  for (const auto& row : table)
    if (name == row.name) return row;
  config.fail(key, "unknown value '" + name + "'");
}

template <class T, std::size_t N>
std::vector<std::string> names_of(const NamedValue<T> (&table)[N]) {
  std::vector<std::string> names;
  for (const auto& row : table) names.emplace_back(row.name);
  return names;
}

template <class T, std::size_t N>
std::string docs_of(const NamedValue<T> (&table)[N]) {
  std::string text;
  for (const auto& row : table)
    text += std::string(text.empty() ? "" : "; ") + row.name + ": " + row.doc;
  return text;
}

Schema turbulence_schema() {
  Schema s(
      "the Spalart–Allmaras model of equations: rans (NASA TMR's SA; docs/validation/rans.md); "
      "an error with other equations");
  s.choice("model", names_of(kTurbulenceModelTable),
           "model variant (" + docs_of(kTurbulenceModelTable) + ")")
      .fallback("sa_neg");
  s.real("nu_tilde_ratio", "ν̃/ν∞ where the far field flows in, and of the initial field (TMR: 3)")
      .above(0)
      .at_most(1e4)
      .fallback("3");
  s.real("freestream_temperature", "T∞ for Sutherland's law μ(T) (S = 110.4 K; TMR: 540 °R)")
      .units("K")
      .above(0)
      .fallback("300");
  s.real("cfl",
         "CFL number of ν̃'s implicit step, capped by the mean flow's (which ramps); 0: the mean "
         "flow's. A smaller one damps the period-2 cycle of the loosely coupled ν̃ step that can "
         "stall large-CFL runs (docs/validation/rans.md)")
      .at_least(0)
      .fallback("0");
  s.choice("convection", names_of(kTurbulenceConvectionTable),
           "convection of ν̃ (" + docs_of(kTurbulenceConvectionTable) + ")")
      .fallback("first_order");
  return s;
}

Schema convergence_schema() {
  Schema s(
      "what ends a run besides max_iterations: every criterion in stop_on must hold (SU2's "
      "CONV_FIELD); docs/validation/airfoil.md, \"Convergence criteria\"");
  s.strings("stop_on",
            "criteria that must all hold: residual (the density residual below residual_drop), "
            "cl, cd (SU2's Cauchy test on that coefficient: the mean over the last "
            "cauchy_elements cycles of |C_n − C_{n−1}| / max(|C_n|, 0.1) below cauchy_epsilon)")
      .fallback("[residual]");
  s.integer("cauchy_elements", "cycles the Cauchy test averages over (SU2's CONV_CAUCHY_ELEMS)")
      .at_least(2)
      .at_most(100000)
      .fallback(std::to_string(kCauchyElements));
  s.real("cauchy_epsilon",
         "threshold of the Cauchy test (SU2's CONV_CAUCHY_EPS; our default is the largest value "
         "measured never to stop before |ΔCl| ≤ 1e-4 and |ΔCd| ≤ 1e-5 on the default cases)")
      .above(0)
      .below(1)
      .fallback(fmt::format("{}", kCauchyEpsilon));
  return s;
}

Schema acceleration_schema() {
  Schema s(
      "Anderson acceleration of the multigrid cycle (solvers/airfoil/anderson_acceleration.hpp): "
      "the next iterate combines the last cycles' so that the linearised update is least; the "
      "converged solution is the same. docs/validation/airfoil.md, \"Anderson acceleration\"");
  s.integer("depth",
            "cycles' differences kept (0: off); 0 for rans (it took more cycles to the NACA 0012 "
            "RANS case's Cauchy stop: 1568 → 2193), see the solver's defaults by equations")
      .at_least(0)
      .at_most(AndersonAcceleration::kMaxDepth)
      .fallback("12");
  s.real("start",
         "relative density residual below which it starts; never inside the CFL ramp, where the "
         "start-up transient is far from the linear regime it extrapolates")
      .above(0)
      .at_most(1)
      .fallback("1");
  s.real("restart",
         "a residual this many times its lowest since the history began clears the history "
         "(counted in summary.json's acceleration_restarts; mixed iterates with ρ or p ≤ 0, "
         "replaced by the cycle's own, in acceleration_rejects)")
      .above(1)
      .fallback("10");
  return s;
}

// The pseudo-time iteration and when it stops.
void add_iteration_keys(Schema& s) {
  s.real(
       "cfl",
       "pseudo-time CFL number of the local time steps (the implicit smoothers are stable far beyond 1)")
      .above(0)
      .at_most(1e6)
      .fallback("50");
  s.integer("cfl_ramp", "iterations over which the CFL number grows geometrically from 1")
      .at_least(0)
      .fallback("50");
  s.integer("max_iterations", "pseudo-time iterations at most").at_least(1).fallback("5000");
  s.real("residual_drop",
         "converged when the L2 density residual falls below this fraction of the first one")
      .above(0)
      .below(1)
      .fallback("1e-8");
  s.section("convergence", convergence_schema(),
            "stopping criteria (residual and/or Cauchy on forces)");
}

// The discretisation (limiter, far field, entropy fixes) and the solver of the steady problem
// (smoother, multigrid, acceleration).
void add_scheme_keys(Schema& s) {
  s.choice("limiter", names_of(kLimiterTable),
           "MUSCL slope limiter (" + docs_of(kLimiterTable) + ")")
      .fallback("van_albada");
  s.choice("far_field", names_of(kFarFieldTable),
           "far-field state (" + docs_of(kFarFieldTable) + ")")
      .fallback("vortex");
  s.real("entropy_fix", "Harten's entropy-fix width δ/c on the acoustic waves")
      .at_least(0)
      .at_most(0.5)
      .fallback("0.1");
  s.real("linear_wave_fix",
         "the same width on the entropy and shear waves: 0.2 for euler (damps the odd-even "
         "entropy layer along the wall, which otherwise stalls convergence), 0 for navier_stokes "
         "and rans (the boundary layer must not see it)")
      .at_least(0)
      .at_most(0.5)
      .fallback("0.2");
  s.real("lusgs_omega", "LU-SGS over-relaxation ω of the spectral radii (1 ≤ ω ≤ 2)")
      .at_least(1)
      .at_most(2)
      .fallback("1.0");
  s.real("max_update",
         "the update limiter: the largest relative change of ρ and p a cell takes in one "
         "smoothing step or coarse-grid correction; a larger proposal is scaled down to it "
         "(0: none; converged results do not depend on it, docs/validation/rans.md)")
      .at_least(0)
      .fallback("0");
  s.component("smoother", smoother_registry(),
              "the implicit pseudo-time smoother of every multigrid level")
      .default_type("line_implicit");
  s.integer(
       "multigrid_levels",
       "grid levels of the FAS multigrid (1: single grid); coarsening stops at odd or tiny grids")
      .at_least(1)
      .at_most(6)
      .fallback("4");
  s.integer("multigrid_gamma",
            "coarse-grid corrections per coarse level and cycle: 1 the sawtooth V-cycle, 2 a "
            "W-cycle (fewer cycles to 8 orders with line_implicit, docs/validation/airfoil.md)")
      .at_least(1)
      .at_most(2)
      .fallback("1");
  s.choice("multigrid_wall", names_of(kMultigridWallTable),
           "the coarse-grid correction's wall ghost in the prolongation (" +
               docs_of(kMultigridWallTable) + ")")
      .fallback("mirror");
  s.section("acceleration", acceleration_schema(),
            "Anderson acceleration of the cycle (fewer cycles to the same solution)");
}

}  // namespace

Schema AirfoilSolver::schema() {
  Schema s(
      "Steady 2D compressible flow past an airfoil (Euler, laminar Navier–Stokes or RANS with "
      "Spalart–Allmaras) on a "
      "body-fitted O-grid (or TMR's flat plate): cell-centred finite volumes, Roe flux with MUSCL reconstruction, "
      "implicit pseudo-time stepping (line-implicit or LU-SGS) with FAS multigrid. Units: ρ∞ = 1, |u∞| = 1, chord = 1, p∞ = 1/(γM²).");
  s.choice("equations", names_of(kEquationsTable),
           "governing equations (" + docs_of(kEquationsTable) + ")")
      .fallback("euler");
  s.real("mach", "free-stream Mach number (subsonic far field; shocks only with limiter minmod)")
      .above(0)
      .at_most(0.9)
      .fallback("0.5");
  s.real("alpha_deg", "angle of attack").units("degree").at_least(-30).at_most(30).fallback("0");
  s.real("reynolds", "Reynolds number ρ∞|u∞|c/μ∞ (required for navier_stokes and rans)")
      .above(0)
      .optional();
  s.section("turbulence", turbulence_schema(), "turbulence model (equations: rans only)");
  add_iteration_keys(s);
  add_scheme_keys(s);
  s.choice("initial", {"freestream", "restart"},
           "initial state: uniform free stream, or the state in restart_file (a checkpoint.h5 of a "
           "run on the same grid, any Mach number or angle: a warm start; residuals stay relative "
           "to this case's free-stream start; `surrox run --restart` continues a run instead)")
      .fallback("freestream");
  s.input_path("restart_file", "checkpoint to start from when initial = restart").optional();
  s.component("mesh", mesh::grid_registry(),
              "the grid: the O-grid around an airfoil, or TMR's flat plate")
      .default_type(mesh::kDefaultGridType);
  // What a case with only the required keys gets per equation set: the settings each was
  // validated with. RANS: TMR's NACA 0012 case at 256 × 128 (docs/validation/rans.md: MUSCL ν̃,
  // the near wake clustered, the first cell at y+ ≈ 0.5 for Re 6e6, the far field at 100
  // chords, ν̃'s step at CFL ≤ 20, the Cauchy stop on CL and CD, no acceleration).
  s.defaults_by("equations", {{"navier_stokes", {{"linear_wave_fix", "0"}}},
                              {"rans",
                               {{"linear_wave_fix", "0"},
                                {"acceleration.depth", "0"},
                                {"cfl_ramp", "100"},
                                {"max_update", "0.2"},
                                {"max_iterations", "6000"},
                                {"convergence.stop_on", "[cl, cd]"},
                                {"turbulence.cfl", "20"},
                                {"turbulence.convection", "second_order"},
                                {"mesh.first_cell_height", "2.0e-6"},
                                {"mesh.farfield_radius", "100"},
                                {"mesh.wake_growth", "1.2"}}}});
  return s;
}

AirfoilParameters AirfoilSolver::parameters_from_case(const CaseNode& config) {
  AirfoilParameters p;
  p.equations = lookup(kEquationsTable, config.string("equations"), config, "equations").value;
  p.mach = config.real("mach");
  p.alpha_deg = config.real("alpha_deg");
  if (p.equations != Equations::kEuler) {
    if (!config.has("reynolds"))
      config.fail("reynolds", "required for equations: " + config.string("equations"));
    p.reynolds = config.real("reynolds");
  }
  const CaseNode turbulence = config.section("turbulence");
  // The validator fills an absent section with its defaults; one written in the file has a mark.
  if (p.equations != Equations::kRans && !turbulence.yaml().Mark().is_null())
    config.fail("turbulence", "a turbulence model needs equations: rans (the case has " +
                                  config.string("equations") + ")");
  p.turbulence_model =
      lookup(kTurbulenceModelTable, turbulence.string("model"), turbulence, "model").value;
  p.nu_tilde_ratio = turbulence.real("nu_tilde_ratio");
  p.freestream_temperature = turbulence.real("freestream_temperature");
  p.turbulence_cfl = turbulence.real("cfl");
  p.turbulence_convection =
      lookup(kTurbulenceConvectionTable, turbulence.string("convection"), turbulence, "convection")
          .value;
  p.cfl = config.real("cfl");
  p.cfl_ramp = config.integer("cfl_ramp");
  p.max_iterations = config.integer("max_iterations");
  p.residual_drop = config.real("residual_drop");
  const CaseNode convergence = config.section("convergence");
  p.stop_on = convergence.strings("stop_on");
  if (const std::string problem = stop_on_problem(p.stop_on); !problem.empty())
    convergence.fail("stop_on", problem);
  p.cauchy_elements = convergence.integer("cauchy_elements");
  p.cauchy_epsilon = convergence.real("cauchy_epsilon");
  p.limiter = lookup(kLimiterTable, config.string("limiter"), config, "limiter").value;
  p.far_field = lookup(kFarFieldTable, config.string("far_field"), config, "far_field").value;
  p.entropy_fix = config.real("entropy_fix");
  p.linear_fix = config.real("linear_wave_fix");
  p.lusgs_omega = config.real("lusgs_omega");
  p.max_update = config.real("max_update");
  const CaseNode smoother = config.section("smoother");
  p.smoother = smoother.type();
  for (const auto& entry : smoother.yaml()) {  // the smoother's own keys, checked by its schema
    const std::string key = entry.first.as<std::string>();
    if (key != "type") p.smoother_options[key] = smoother.real(key);
  }
  p.multigrid_levels = config.integer("multigrid_levels");
  p.multigrid_gamma = config.integer("multigrid_gamma");
  p.multigrid_wall =
      lookup(kMultigridWallTable, config.string("multigrid_wall"), config, "multigrid_wall").value;
  const CaseNode acceleration = config.section("acceleration");
  p.acceleration_depth = acceleration.integer("depth");
  p.acceleration_start = acceleration.real("start");
  p.acceleration_restart = acceleration.real("restart");
  return p;
}

void AirfoilSolver::initialize(const CaseNode& config, Runtime& runtime) {
  const AirfoilParameters p = parameters_from_case(config);
  const auto generator = mesh::make_grid_generator(config.section("mesh"));
  try {  // slabs too thin for the ranks: say so before building the grid
    decompose(generator->cells_i(), generator->cells_j(), runtime.size(), p.multigrid_levels);
  } catch (const InputError& e) {
    config.fail("mesh", e.detail());
  }
  const mesh::CurvilinearGrid grid = generator->build();
  initialize(p, grid, runtime.comm());
  shape_ = generator->descriptors();
  if (config.string("initial") == "restart") {
    if (!config.has("restart_file")) config.fail("restart_file", "required for initial: restart");
    // A warm start: the checkpoint's state, this case's free-stream residual reference.
    const auto reference = first_residual_;
    load_state(io::Hdf5Checkpoint::read(config.string("restart_file"), runtime.comm()));
    first_residual_ = reference;
    reset_history();
  }
}

}  // namespace surrox::solvers::airfoil

#pragma once
// The parameters of the airfoil solver (airfoil_solver.hpp) and the case-file names of their
// choices.
#include <map>
#include <string>
#include <vector>

#include "solvers/airfoil/flux.hpp"
#include "solvers/airfoil/spalart_allmaras.hpp"
#include "solvers/cauchy_criterion.hpp"

namespace surrox::solvers::airfoil {

enum class Equations { kEuler, kNavierStokes, kRans };
enum class FarField { kFreestream, kVortex };
enum class MultigridWall { kOneSided, kMirror };
// What j = 0 is: the airfoil wall (slip for Euler, no-slip adiabatic for Navier–Stokes), or,
// for verification only, another far field (free-stream preservation on a closed annulus).
enum class InnerBoundary { kWall, kFarField };
// How LU-SGS couples the slabs of neighbouring MPI ranks: pipelined, the sweeps run as a
// wavefront over the ranks and reproduce the one-rank sweeps exactly; block Jacobi, the
// neighbour's ΔU counts as zero (no waiting, but a weaker smoother: the laminar NACA 0012 case
// stalls on 2 ranks). C++ only, for comparisons; case files always pipeline.
enum class RankCoupling { kPipelined, kBlockJacobi };
// Convection of ν̃ (turbulence.hpp): first-order upwind, or upwind of MUSCL face values limited
// as the mean flow's (the implicit operator stays first order in both, as SU2's).
enum class TurbulenceConvection { kFirstOrder, kSecondOrder };

// Every default here is the case schema's (airfoil_case.cpp) for `equations: euler`, so a C++
// caller and a case file start from the same settings; the schema's rows per equations
// (defaults_by) change some for navier_stokes and rans. airfoil_defaults_test checks the two agree.
// The C++ tests that pin another path start from tests/airfoil/lusgs_test_parameters.hpp.
struct AirfoilParameters {
  Equations equations = Equations::kEuler;
  double mach = 0.5;
  double alpha_deg = 0;
  double reynolds = 0;  // chord Reynolds number; required > 0 for Navier–Stokes
  double cfl = 50;      // local pseudo-time-step CFL number
  long cfl_ramp = 50;   // iterations over which the CFL grows geometrically from 1
  long max_iterations = 5000;
  double residual_drop = 1e-8;
  // What ends a run (all must hold, SU2's CONV_FIELD): "residual" (the density residual below
  // residual_drop) and/or "cl", "cd" (SU2's Cauchy test on that coefficient,
  // solvers/cauchy_criterion.hpp, over cauchy_elements cycles below cauchy_epsilon).
  std::vector<std::string> stop_on{"residual"};
  long cauchy_elements = kCauchyElements;
  double cauchy_epsilon = kCauchyEpsilon;
  Limiter limiter = Limiter::kVanAlbada;
  double limiter_epsilon = 1e-6;  // van Albada's ε (squared difference, see flux.hpp)
  double entropy_fix = 0.1;       // Harten's δ/ĉ on the acoustic waves
  double linear_fix = -1;         // the same on the entropy/shear waves; < 0: 0.2 Euler, 0 NS
  double lusgs_omega = 1.0;       // over-relaxation of the spectral radii in the LU-SGS diagonal
  // The update limiter (update_limiter.hpp): the largest relative change of ρ and p a cell
  // takes in one smoothing step or coarse-grid correction (0: none).
  double max_update = 0;
  FarField far_field = FarField::kVortex;
  // Levels of the FAS multigrid (1: single grid). Each coarser level takes every other node;
  // levels stop where a dimension would be odd or below 8 × 4 cells, or where an MPI rank's slab
  // would keep fewer than 2 rows on the coarsest level.
  long multigrid_levels = 4;
  // Coarse-grid corrections per coarse level and cycle: 1 the sawtooth V-cycle, 2 a W-cycle.
  long multigrid_gamma = 1;
  // The coarse-grid correction's ghost at a wall when it is prolonged into the wall row: the
  // cell's mirrored like the state's ghost, or the cell's own (one-sided).
  MultigridWall multigrid_wall = MultigridWall::kMirror;
  // Anderson acceleration of the cycle (anderson_acceleration.hpp): the differences kept (0:
  // off), the relative density residual below which it starts (after the CFL ramp), and the
  // growth of the residual over its lowest since the start that clears the history. (The case
  // schema's row for rans sets depth 0.)
  long acceleration_depth = 12;
  double acceleration_start = 1;
  double acceleration_restart = 10;
  InnerBoundary inner = InnerBoundary::kWall;
  RankCoupling lusgs_ranks = RankCoupling::kPipelined;
  // The implicit smoother of every level: a name in smoother_registry() (smoother.hpp), and the
  // numeric keys of its case-file section besides `type` (LU-SGS reads lusgs_omega and
  // lusgs_ranks above); absent keys take the smoother's schema defaults.
  std::string smoother = "line_implicit";
  std::map<std::string, double> smoother_options;
  // RANS only (turbulence.hpp): the model, ν̃∞/ν∞ of the far field and the inflow, and T∞ for
  // Sutherland's law.
  sa::Model turbulence_model = sa::Model::kSaNeg;
  double nu_tilde_ratio = 3;
  double freestream_temperature = 300;  // K
  // The CFL number of ν̃'s implicit step, at most the mean flow's; 0: the mean flow's. A smaller
  // one damps the period-2 cycle of the loosely coupled ν̃ step at large time steps
  // (docs/validation/rans.md).
  double turbulence_cfl = 0;
  TurbulenceConvection turbulence_convection = TurbulenceConvection::kFirstOrder;
};

// What is wrong with a stop_on list (an unknown criterion, or none), or "" when it is valid;
// the case file and the C++ entry both check with it.
inline std::string stop_on_problem(const std::vector<std::string>& stop_on) {
  if (stop_on.empty()) return "needs at least one of: residual, cl, cd";
  for (const auto& c : stop_on)
    if (c != "residual" && c != "cl" && c != "cd")
      return "unknown criterion '" + c + "'; valid: residual, cl, cd";
  return "";
}

// Parameter names: each table row gives a case-file name and its value, so choices and parsing
// share one list.
template <class T>
struct NamedValue {
  const char* name;
  T value;
  const char* doc;
};
inline constexpr NamedValue<Equations> kEquationsTable[] = {
    {"euler", Equations::kEuler, "inviscid, slip wall"},
    {"navier_stokes", Equations::kNavierStokes, "laminar, no-slip adiabatic wall"},
    {"rans", Equations::kRans,
     "Reynolds-averaged with the Spalart–Allmaras model (section turbulence), Sutherland's law, "
     "no-slip adiabatic wall"}};
inline constexpr NamedValue<sa::Model> kTurbulenceModelTable[] = {
    {"sa", sa::Model::kSa, "standard SA of NASA's TMR (with f_t2), ν̃ clipped at 0"},
    {"sa_neg", sa::Model::kSaNeg,
     "SA-neg (Allmaras, Johnson & Spalart 2012): the same solution, robust where ν̃ < 0"}};
inline constexpr NamedValue<TurbulenceConvection> kTurbulenceConvectionTable[] = {
    {"first_order", TurbulenceConvection::kFirstOrder,
     "upwind of the cell values (the default, in case files and C++)"},
    {"second_order", TurbulenceConvection::kSecondOrder,
     "upwind of MUSCL face values with the case's limiter (ε scaled by ν̃∞²); the implicit "
     "operator stays first order"}};
inline constexpr NamedValue<Limiter> kLimiterTable[] = {
    {"van_albada", Limiter::kVanAlbada, "smooth; converges to round-off (default)"},
    {"van_leer", Limiter::kVanLeer, "harmonic mean of the slopes"},
    {"minmod", Limiter::kMinmod, "most dissipative; for shocks"},
    {"none", Limiter::kNone, "unlimited Fromm slopes (smooth subsonic flow only)"}};
inline constexpr NamedValue<FarField> kFarFieldTable[] = {
    {"freestream", FarField::kFreestream, "uniform free stream outside the far-field boundary"},
    {"vortex", FarField::kVortex,
     "free stream plus the Prandtl–Glauert point vortex of the current lift (smaller far-field "
     "error)"}};
inline constexpr NamedValue<MultigridWall> kMultigridWallTable[] = {
    {"mirror", MultigridWall::kMirror,
     "the ghost's correction mirrored like the ghost state (default; needed with no-slip walls "
     "at low Reynolds numbers and with Roe's matrix in line_implicit)"},
    {"one_sided", MultigridWall::kOneSided,
     "the first coarse cell's correction also below the wall (before 2026-11-26)"}};

}  // namespace surrox::solvers::airfoil

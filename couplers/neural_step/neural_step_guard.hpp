#pragma once
// The guard of the neural-step coupler: is a proposed ω k steps ahead good enough to replace
// the solver's k steps? Three checks, cheapest first:
//   projection — the input ω lies near the POD space the network knows: ‖ω' − Φa‖/‖ω'‖ (ω' the
//     input minus the POD mean) at most `projection` (checked before inference);
//   bounds — the proposal's energy E = −½Σψω hx hy and enstrophy Z = ½Σω² hx hy lie in the
//     ranges the solver's training run went through, widened by the fraction `bounds`
//     ([min (1 − b), max (1 + b)]: a slow drift of accepted proposals cannot compound);
//   residual — the vorticity equation over the window τ = k Δt by the trapezoid rule, with the
//     solver's own tendency T evaluated on the input and on the proposal:
//       r = ‖ω₁ − ω₀ − τ/2 (T(ω₀) + T(ω₁))‖ / ‖τ/2 (T(ω₀) + T(ω₁))‖
//     at most `residual` (persistence, ω₁ = ω₀, has r = 1; the solver's own k steps have the
//     trapezoid rule's error, which grows with τ).
#include <cmath>
#include <string>
#include <vector>

#include "solvers/qg/qg_solver.hpp"

namespace surrox::couplers {

struct GuardTolerances {
  double residual = 0.2, bounds = 0.1, projection = 0.8;
  double energy_min = 0, energy_max = INFINITY;  // the solver's ranges (before widening)
  double enstrophy_min = 0, enstrophy_max = INFINITY;
};

// The state a window starts from (kept to restore it when a proposal fails).
struct QgWindowStart {
  std::vector<double> psi, omega, tendency;
  double energy = 0, enstrophy = 0;
};

struct GuardVerdict {
  bool accepted = false;
  std::string failed;  // "", "bounds" or "residual"
  double residual = NAN;
  // The proposal's ψ, T(ω₁), E and Z: the next window's start when accepted.
  std::vector<double> psi, tendency;
  double energy = NAN, enstrophy = NAN;
};

double qg_energy(const std::vector<double>& psi, const std::vector<double>& omega, double area);
double qg_enstrophy(const std::vector<double>& omega, double area);
double trapezoid_residual(const std::vector<double>& omega0, const std::vector<double>& omega1,
                          const std::vector<double>& tendency0,
                          const std::vector<double>& tendency1, double tau);

// The window start of the solver's current state (one tendency evaluation).
QgWindowStart qg_window_start(solvers::qg::QgSolver& solver);

// Sets the solver to the proposal (one inversion) and checks bounds and residual. The solver
// keeps the proposal's state either way: the caller restores `start` on failure.
GuardVerdict check_proposal(solvers::qg::QgSolver& solver, const QgWindowStart& start,
                            const std::vector<double>& proposal, double tau,
                            const GuardTolerances& tolerances);

}  // namespace surrox::couplers

#include "solvers/airfoil/airfoil_solver.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "solvers/airfoil/boundary_conditions.hpp"
#include "solvers/airfoil/multigrid.hpp"
#include "solvers/airfoil/residual.hpp"
#include "solvers/airfoil/spalart_allmaras.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {

AirfoilSolver::Decomposition AirfoilSolver::decompose(long ni, long nj, int ranks, long levels) {
  return layout_slabs(ni, nj, ranks, levels);
}

void AirfoilSolver::initialize(const AirfoilParameters& parameters,
                               const mesh::CurvilinearGrid& grid, MPI_Comm comm) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  const long ni = grid.cells_i(), nj = grid.cells_j();
  if (ni < 8 || nj < 4)
    throw InputError(fmt::format("airfoil grid too small: {} × {} cells (need ≥ 8 × 4)", ni, nj));
  const Decomposition d = decompose(ni, nj, ranks, parameters.multigrid_levels);
  if (rank == 0 && d.levels < d.grid_levels)
    spdlog::info(
        "airfoil: {} multigrid levels instead of {}: on {} MPI ranks each slab of the {} rows "
        "needs at least 2 rows on the coarsest level",
        d.levels, d.grid_levels, ranks, nj);
  flow_levels_.clear();
  flow_levels_.reserve(static_cast<std::size_t>(d.levels));
  flow_levels_.emplace_back(parameters, grid, Slab(comm, d.rows, ni));
  add_coarse_levels(flow_levels_, grid, d.levels - 1);

  FlowLevel& f = fine();
  p_ = f.parameters;
  if (const std::string problem = stop_on_problem(p_.stop_on); !problem.empty())
    throw InputError("airfoil: stop_on " + problem);
  if (p_.cauchy_elements < 2 || !(p_.cauchy_epsilon > 0))
    throw InputError("airfoil: cauchy_elements must be ≥ 2 and cauchy_epsilon > 0");
  if (!(p_.acceleration_start > 0 && p_.acceleration_start <= 1) || !(p_.acceleration_restart > 1))
    throw InputError("airfoil: acceleration start must be in (0, 1] and restart > 1");
  std::vector<std::string> cauchy_fields;  // the coefficients of stop_on
  stop_on_residual_ = false;
  for (const auto& c : p_.stop_on) {
    if (c == "residual")
      stop_on_residual_ = true;
    else
      cauchy_fields.push_back(c);
  }
  cauchy_ = CauchyCriterion(cauchy_fields, p_.cauchy_elements, p_.cauchy_epsilon);
  ni_ = ni;
  nj_ = nj;
  j0_ = f.slab.first_row();
  nl_ = f.rows();
  levels_ = d.levels;
  chord_ = f.chord_line.chord;
  p_inf_ = f.p_inf;
  state_ = FieldSet();
  const char* names[4] = {"density", "velocity_x", "velocity_y", "pressure"};
  for (int k = 0; k < 4; ++k)
    state_.add(names[k], Field3(f.w.data() + (k * (nl_ + 4) + 2) * ni_, 1, nl_, ni_));
  if (f.turbulent) {
    state_.add("nu_tilde", Field3(f.nu_tilde.data() + 2 * ni_, 1, nl_, ni_));
    f.turbulence = std::make_unique<TurbulenceSolver>(f);
  }
  f.circulation = 0;
  f.set_freestream();
  acceleration_.reset();
  if (p_.acceleration_depth > 0) {
    // The accelerated state: U, and with RANS ν̃ too (its step is part of the cycle's map), in
    // the free stream's magnitudes (ν̃ where it matters: a boundary layer's, ~10³ ν̃∞).
    std::vector<double> scale{1, 1, 1, p_inf_ / (kGamma - 1) + 0.5};
    if (f.turbulent) scale.push_back(1e3 * f.nu_tilde_inf);
    accelerated_state_ = f.turbulent ? Array3("accelerated_state", 5, nl_, ni_) : f.u;
    acceleration_ = std::make_unique<AndersonAcceleration>(
        accelerated_state_, static_cast<int>(p_.acceleration_depth), scale, f.slab.comm());
  }
  reset_history();
  // The residual reference: the impulsive start from the free stream on this grid. Warm starts
  // keep it, so a good initial field needs fewer iterations to the same absolute level.
  compute_residual();
  // A flat plate's uniform start has no density residual at all: there the reference is the
  // largest residual of the CFL ramp (advance()).
  for (int k = 0; k < 4; ++k) first_residual_[k] = f.absolute_residual[k];
  ramp_reference_ = !(first_residual_[0] > 0);
}

void AirfoilSolver::reset_history() {
  iteration_ = 0;
  if (acceleration_) acceleration_->clear();
  acceleration_lowest_ = INFINITY;
  acceleration_restarts_ = acceleration_rejects_ = 0;
  cauchy_.reset();
  fine().absolute_residual = {0, 0, 0, 0};
  relative_residual_ = {1, 1, 1, 1};
}

void AirfoilSolver::set_initial_primitive(const HostMatrix& rho, const HostMatrix& u,
                                          const HostMatrix& v, const HostMatrix& p) {
  // Every rank checks the whole field, so all throw the same error together.
  const HostMatrix* fields[4] = {&rho, &u, &v, &p};
  const char* names[4] = {"rho", "u", "v", "p"};
  for (int k = 0; k < 4; ++k)
    if (static_cast<long>(fields[k]->extent(0)) != ni_ ||
        static_cast<long>(fields[k]->extent(1)) != nj_)
      throw InputError(
          fmt::format("set_initial_primitive: {} is {} × {}, the grid has {} × {} cells", names[k],
                      fields[k]->extent(0), fields[k]->extent(1), ni_, nj_));
  for (long j = 0; j < nj_; ++j)
    for (long i = 0; i < ni_; ++i) {
      const State w{{rho(i, j), u(i, j), v(i, j), p(i, j)}};
      if (!(w[0] > 0 && w[3] > 0 && std::isfinite(w[0] + w[1] + w[2] + w[3])))
        throw InputError(fmt::format(
            "set_initial_primitive: cell (i = {}, j = {}) has ρ = {}, u = {}, v = {}, p = {}; "
            "ρ and p must be positive and all values finite",
            i, j, w[0], w[1], w[2], w[3]));
    }
  FlowLevel& f = fine();
  auto host = Kokkos::create_mirror_view(f.u);
  for (long j = 0; j < nl_; ++j)
    for (long i = 0; i < ni_; ++i) {
      const long g = j0_ + j;
      const State c = to_conservative({{rho(i, g), u(i, g), v(i, g), p(i, g)}});
      for (int k = 0; k < 4; ++k) host(k, j, i) = c[k];
    }
  Kokkos::deep_copy(f.u, host);
  f.update_primitives();
  start_from_current_state();
}

void AirfoilSolver::start_from_current_state() {
  // The far-field vortex must carry the lift of the field handed in, not that of the previous
  // state: with zero circulation a converged field is pushed away from convergence at once.
  // The residual pass fills the wall states the force integral reads.
  if (p_.far_field == FarField::kVortex && p_.inner == InnerBoundary::kWall) {
    compute_residual();
    update_circulation();
  }
  reset_history();
}

namespace {

// χ = ν̃/ν with ν_t/ν = χ f_v1(χ) = χ⁴/(χ³ + c_v1³) = r ≥ 0. The left side increases with χ and
// lies between χ − 0.53 c_v1 and min(χ, χ⁴/c_v1³), which bracket the root for bisection.
double chi_of_eddy_viscosity_ratio(double r) {
  const double c3 = sa::kCv1 * sa::kCv1 * sa::kCv1;
  double lo = std::max(r, std::sqrt(std::sqrt(r * c3))), hi = r + sa::kCv1;
  for (int it = 0; it < 100 && hi - lo > 1e-14 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (mid * mid * mid * mid / (mid * mid * mid + c3) < r ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

bool AirfoilSolver::set_initial_eddy_viscosity(const HostMatrix& nu_t) {
  FlowLevel& f = fine();
  if (!f.turbulent) return false;
  if (static_cast<long>(nu_t.extent(0)) != ni_ || static_cast<long>(nu_t.extent(1)) != nj_)
    throw InputError(fmt::format("set_initial_eddy_viscosity: ν_t is {} × {}, the grid has {} × {}",
                                 nu_t.extent(0), nu_t.extent(1), ni_, nj_));
  for (long j = 0; j < nj_; ++j)
    for (long i = 0; i < ni_; ++i)
      if (!std::isfinite(nu_t(i, j)))
        throw InputError(fmt::format(
            "set_initial_eddy_viscosity: cell (i = {}, j = {}) has ν_t = {}", i, j, nu_t(i, j)));
  // ν = μ(T)/ρ of the current state, as the viscous flux and the output's ν_t take it.
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.w);
  auto nt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.nu_tilde);
  for (long j = 0; j < nl_; ++j)
    for (long i = 0; i < ni_; ++i) {
      const long r = j + 2;
      const double rho = w(0, r, i), theta = w(3, r, i) / rho;
      const double nu = f.mu * sa::sutherland(theta / p_inf_, f.sutherland_ratio) / rho;
      // A negative prediction is no eddy viscosity (ν̃ = 0), as at the wall.
      nt(0, r, i) = nu * chi_of_eddy_viscosity_ratio(std::max(nu_t(i, j0_ + j), 0.0) / nu);
    }
  Kokkos::deep_copy(f.nu_tilde, nt);
  start_from_current_state();  // the eddy viscosity changes the friction, so the lift
  return true;
}

std::array<AirfoilSolver::HostMatrix, 4> AirfoilSolver::primitive_host() const {
  return fine().slab.gather(fine().w, 2, "Airfoil::primitive");
}

std::array<AirfoilSolver::HostMatrix, 4> AirfoilSolver::conservative_host() const {
  return fine().slab.gather(fine().u, 0, "Airfoil::conservative");
}

std::array<AirfoilSolver::HostMatrix, 4> AirfoilSolver::residual_host() const {
  return fine().slab.gather(fine().res, 0, "Airfoil::residual");
}

void AirfoilSolver::compute_residual() { evaluate_residual(fine()); }

void AirfoilSolver::update_circulation() {
  fine().circulation = 0.5 * chord_ * coefficients().at("cl");
}

void AirfoilSolver::set_cfl_ramp(long cycles) {
  if (cycles < 0) throw InputError(fmt::format("solver.cfl_ramp must be >= 0 (got {})", cycles));
  p_.cfl_ramp = cycles;
}

double AirfoilSolver::current_cfl() const {
  if (p_.cfl_ramp <= 0 || iteration_ >= p_.cfl_ramp) return p_.cfl;
  return std::min(
      p_.cfl, std::pow(p_.cfl, static_cast<double>(iteration_) / static_cast<double>(p_.cfl_ramp)));
}

StepReport AirfoilSolver::advance() {
  FlowLevel& f = fine();
  evaluate_residual(f);
  for (int k = 0; k < 4; ++k) {
    if (ramp_reference_ && iteration_ <= p_.cfl_ramp)
      first_residual_[k] = std::max(first_residual_[k], f.absolute_residual[k]);
    relative_residual_[k] =
        first_residual_[k] > 0 ? f.absolute_residual[k] / first_residual_[k] : 1.0;
  }
  if (!std::isfinite(relative_residual_[0])) f.check_state(iteration_, relative_residual_[0]);
  if (!cauchy_.fields().empty()) cauchy_.record(coefficients());
  if (p_.far_field == FarField::kVortex && p_.inner == InnerBoundary::kWall) update_circulation();
  const double cfl = current_cfl();
  // RANS, loosely coupled (turbulence.hpp): ν̃'s residual from the same state as the mean
  // flow's, its step after the mean flow's cycle.
  if (f.turbulent) {
    f.turbulence->evaluate(f, p_.turbulence_cfl > 0 ? std::min(cfl, p_.turbulence_cfl) : cfl);
    if (turbulence_first_residual_ == 0)
      turbulence_first_residual_ =
          f.turbulence->absolute_residual() > 0 ? f.turbulence->absolute_residual() : 1e-300;
  }
  // Anderson acceleration of the cycle (with ν̃'s step, RANS), once past the ramp and the
  // start-up transient; a residual that grows well above its lowest clears the history.
  const bool accelerate =
      acceleration_ && iteration_ >= p_.cfl_ramp && relative_residual_[0] <= p_.acceleration_start;
  if (accelerate) {
    ScopedPhase phase(f.phase_seconds, "acceleration");
    if (relative_residual_[0] > p_.acceleration_restart * acceleration_lowest_) {
      acceleration_->clear();
      ++acceleration_restarts_;
      acceleration_lowest_ = relative_residual_[0];  // a new history, a new lowest
    }
    acceleration_lowest_ = std::min(acceleration_lowest_, relative_residual_[0]);
    pack_accelerated_state();
    acceleration_->remember(accelerated_state_);
  } else if (acceleration_) {
    acceleration_->clear();
  }
  f.smooth(cfl, iteration_, relative_residual_[0]);
  coarse_grid_correction(flow_levels_, 0, cfl, iteration_, relative_residual_[0]);
  if (f.turbulent) f.turbulence->smooth(f);
  if (accelerate) {
    ScopedPhase phase(f.phase_seconds, "acceleration");
    pack_accelerated_state();
    if (acceleration_->accelerate(accelerated_state_) > 0) {
      unpack_accelerated_state();
      // Not admissible (ρ or p ≤ 0): keep the cycle's own iterate.
      if (!(f.worst_state() > 0)) {
        ++acceleration_rejects_;
        acceleration_->reject(accelerated_state_);
        unpack_accelerated_state();
      }
    }
  }
  ++iteration_;
  return {iteration_, static_cast<double>(iteration_), 1.0};
}

void AirfoilSolver::pack_accelerated_state() {
  FlowLevel& f = fine();
  if (!f.turbulent) return;  // the state is U itself
  Kokkos::deep_copy(Kokkos::subview(accelerated_state_, Rows(0, 4), Kokkos::ALL, Kokkos::ALL), f.u);
  Kokkos::deep_copy(Kokkos::subview(accelerated_state_, 4, Kokkos::ALL, Kokkos::ALL),
                    Kokkos::subview(f.nu_tilde, 0, Rows(2, nl_ + 2), Kokkos::ALL));
}

void AirfoilSolver::unpack_accelerated_state() {
  FlowLevel& f = fine();
  if (f.turbulent) {
    Kokkos::deep_copy(f.u,
                      Kokkos::subview(accelerated_state_, Rows(0, 4), Kokkos::ALL, Kokkos::ALL));
    Kokkos::deep_copy(Kokkos::subview(f.nu_tilde, 0, Rows(2, nl_ + 2), Kokkos::ALL),
                      Kokkos::subview(accelerated_state_, 4, Kokkos::ALL, Kokkos::ALL));
  }
  f.update_primitives();
}

bool AirfoilSolver::converged() const {
  if (iteration_ == 0) return false;
  const bool residual = !stop_on_residual_ || relative_residual_[0] <= p_.residual_drop;
  const bool forces = cauchy_.fields().empty() || cauchy_.converged();
  return residual && forces;
}

bool AirfoilSolver::finished() const { return iteration_ >= p_.max_iterations || converged(); }

double AirfoilSolver::progress() const {
  const double by_iterations =
      static_cast<double>(iteration_) / static_cast<double>(p_.max_iterations);
  // Progress towards the residual criterion, or the Cauchy test's (they are logarithmic alike).
  double r = relative_residual_[0], target = p_.residual_drop;
  if (!stop_on_residual_) {
    r = 0;
    for (const auto& field : cauchy_.fields()) r = std::max(r, cauchy_.value(field));
    target = p_.cauchy_epsilon;
  }
  const double by_residual = r > 0 && r < 1 ? std::log(r) / std::log(target) : 0.0;
  return std::min(1.0, std::max(by_iterations, by_residual));
}

std::array<double, 4> AirfoilSolver::boundary_outflow() const {
  const FlowLevel& f = fine();
  auto fj = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.flux_j);
  double out[4] = {0, 0, 0, 0};
  for (long i = 0; i < ni_; ++i)
    for (int k = 0; k < 4; ++k) {
      if (f.slab.has_far_field()) out[k] += fj(k, nl_, i);
      if (f.slab.has_wall()) out[k] -= fj(k, 0, i);
    }
  f.slab.sum_over_ranks(out, 4);
  return {out[0], out[1], out[2], out[3]};
}

Diagnostics AirfoilSolver::monitor() const {
  Diagnostics d = coefficients();
  d.erase("cm");
  const char* names[4] = {"res_rho", "res_rhou", "res_rhov", "res_rhoe"};
  for (int k = 0; k < 4; ++k) d[names[k]] = relative_residual_[k];
  if (fine().turbulent && turbulence_first_residual_ > 0)
    d["res_nu_tilde"] = fine().turbulence->absolute_residual() / turbulence_first_residual_;
  for (const auto& field : cauchy_.fields()) d["cauchy_" + field] = cauchy_.value(field);
  return d;
}

Diagnostics AirfoilSolver::diagnostics() const {
  Diagnostics d = coefficients();
  d["iterations"] = static_cast<double>(iteration_);
  d["final_residual"] = relative_residual_[0];
  d["converged"] = converged() ? 1.0 : 0.0;
  for (const auto& field : cauchy_.fields()) d["cauchy_" + field] = cauchy_.value(field);
  d["residual_orders"] = relative_residual_[0] > 0 ? -std::log10(relative_residual_[0]) : 0.0;
  if (fine().turbulent && turbulence_first_residual_ > 0)
    d["res_nu_tilde"] = fine().turbulence->absolute_residual() / turbulence_first_residual_;
  if (acceleration_) {
    d["acceleration_restarts"] = static_cast<double>(acceleration_restarts_);
    d["acceleration_rejects"] = static_cast<double>(acceleration_rejects_);
  }
  d["mach"] = p_.mach;
  d["multigrid_levels"] = levels_;
  d["alpha_deg"] = p_.alpha_deg;
  for (const auto& [name, value] : shape_) d[name] = value;  // surrogate inputs in a sweep dataset
  if (fine().viscous) {
    d["reynolds"] = p_.reynolds;
    const double sep = separation_point();
    d["separation_x_over_c"] = std::isfinite(sep) ? sep : -1.0;
  }
  return d;
}

}  // namespace surrox::solvers::airfoil

#include "solvers/qg/qg_solver.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "solvers/common/fft_poisson_solver.hpp"
#include "solvers/common/fft_tridiagonal_poisson_solver.hpp"
#include "solvers/common/ksp_poisson_solver.hpp"
#include "solvers/common/wall_normal_grid.hpp"
#include "solvers/qg/arakawa.hpp"
#include "solvers/qg/qg_initial_vorticity.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::qg {
namespace {

QgParameters qg_parameters(const CaseNode& config) {
  QgParameters p;
  const auto length = config.reals("length");
  if (length[0] <= 0 || length[1] <= 0) config.fail("length", "needs positive lengths");
  p.lx = length[0], p.ly = length[1];
  p.drag = config.real("drag");
  if (config.string("units") == "nondimensional") {
    p.beta = 1 / config.real("rossby");
    p.forcing = 1 / config.real("rossby");
    p.viscosity = 1 / config.real("reynolds");
  } else {
    p.beta = config.real("beta");
    p.viscosity = config.real("viscosity");
    p.forcing = 2 * M_PI * config.real("wind_stress") /
                (config.real("density") * config.real("depth") * p.ly);
  }
  p.advection = config.boolean("advection");
  p.no_slip = config.string("boundary") == "no_slip";
  return p;
}

// The step from `time` toward `target` (the end or the next output): lands on it exactly, and
// halves the step before it rather than leave a sliver.
double qg_landed_step(double dt, double time, double target, bool& lands) {
  lands = false;
  if (time + dt >= target * (1 - 1e-13)) {
    lands = true;
    return target - time;
  }
  return time + 2 * dt > target ? 0.5 * (target - time) : dt;
}

// The streamfunction solvers by their case-file name (solver.poisson.solver); all solve the same
// discrete problem with Dirichlet sides.
using QgPoissonFactory = std::unique_ptr<PoissonSolver> (*)(const DmdaGrid&, const WallNormalGrid&,
                                                            double, const CaseNode&);
const std::map<std::string, QgPoissonFactory>& qg_poisson_solvers() {
  static const PoissonBoundaries walls{PoissonSide::kDirichlet, PoissonSide::kDirichlet};
  static const std::map<std::string, QgPoissonFactory> factories = {
      {"fft",
       [](const DmdaGrid& grid, const WallNormalGrid& z, double hx,
          const CaseNode&) -> std::unique_ptr<PoissonSolver> {
         return std::make_unique<FftPoissonSolver>(grid, z, hx, walls);
       }},
      {"fft_tridiagonal",
       [](const DmdaGrid& grid, const WallNormalGrid& z, double hx,
          const CaseNode&) -> std::unique_ptr<PoissonSolver> {
         return std::make_unique<FftTridiagonalPoissonSolver>(grid, z, hx, walls);
       }},
      {"ksp",
       [](const DmdaGrid& grid, const WallNormalGrid& z, double hx,
          const CaseNode& options) -> std::unique_ptr<PoissonSolver> {
         return std::make_unique<KspPoissonSolver>(grid, z, hx, 1.0, options, "qg_poisson_", 1,
                                                   walls);
       }},
  };
  return factories;
}

}  // namespace

void QgSolver::initialize(const CaseNode& config, Runtime& runtime) {
  comm_ = runtime.comm();
  p_ = qg_parameters(config);
  const auto cells = config.integers("cells");
  nx_ = cells[0], ny_ = cells[1];
  hx_ = p_.lx / static_cast<double>(nx_);
  hy_ = p_.ly / static_cast<double>(ny_);
  end_time_ = config.real("end_time");
  cfl_ = config.real("cfl");
  fixed_dt_ = config.real("dt");
  max_dt_ = config.real("max_dt");
  average_from_ = config.real("average_from");
  steady_tolerance_ = config.real("steady_tolerance");

  // The interior nodes on a DMDA with walls on every side; QG's y is the grid's z.
  grid_ = std::make_unique<DmdaGrid>(comm_, 2, std::array<long, 3>{nx_ - 1, 1, ny_ - 1}, false);
  xs_ = grid_->start(DmdaGrid::kX), zs_ = grid_->start(DmdaGrid::kZ);
  xm_ = grid_->owned(DmdaGrid::kX), zm_ = grid_->owned(DmdaGrid::kZ);
  ox_ = grid_->offset(DmdaGrid::kX), oz_ = grid_->offset(DmdaGrid::kZ);
  owned_ = grid_->owned_box();
  if (xm_ < 2 || zm_ < 2)
    config.fail("cells", fmt::format("too few nodes for {} ranks: each needs at least 2 per "
                                     "direction",
                                     runtime.size()));
  psi_ = grid_->ghosted_field("QG::psi"), omega_ = grid_->ghosted_field("QG::omega");
  omega0_ = grid_->ghosted_field("QG::omega0"), rate_ = grid_->ghosted_field("QG::rate");
  rhs_ = grid_->owned_field("QG::rhs");
  {
    const long rows = grid_->ghosted(DmdaGrid::kZ);
    forcing_ = Kokkos::View<double*>("QG::forcing", rows);
    auto f = Kokkos::create_mirror_view(forcing_);
    for (long r = 0; r < rows; ++r) {
      const double y = -0.5 * p_.ly + static_cast<double>(zs_ - oz_ + r + 1) * hy_;
      f(r) = p_.forcing * std::sin(2 * M_PI * y / p_.ly);
    }
    Kokkos::deep_copy(forcing_, f);
  }
  // −∇²_h times the node areas is scale-free in 2D (only hx/hy enters): the Poisson solvers'
  // z grid is [0, 1] in ny − 1 rows, so x is scaled to keep the ratio.
  const WallNormalGrid z(ny_ - 1, 0.0);
  const double hx_scaled = z.dz(0) * hx_ / hy_;
  const CaseNode poisson = config.section("poisson");
  poisson_ = qg_poisson_solvers().at(poisson.string("solver"))(*grid_, z, hx_scaled, poisson);

  set_initial(config);
  grid_->exchange(omega_);
  solve_streamfunction();
  set_wall_vorticity();
  time_ = 0, step_ = 0, dt_ = 0, residual_ = 0;
  integrals_.clear();
  averaged_time_ = 0;
  last_ = instantaneous();
  energy_at_start_ = average_from_ <= 0 ? last_.at("energy") : NAN;
  state_ = FieldSet();
  // 2D state as (1, y, x) Views of the same memory (nk = 1 in 2D, core/field_set.hpp).
  for (auto [name, f] : {std::pair{"psi", psi_}, {"omega", omega_}})
    state_.add(name, Field3(f.data(), 1, f.extent(0), f.extent(2)));
}

void QgSolver::set_initial(const CaseNode& config) {
  const QgNodes nodes{hx_, hy_, p_.lx, p_.ly, xs_ - ox_, zs_ - oz_, owned_};
  set_qg_initial_vorticity(config.string("initial"), config, nodes, omega_);
}

void QgSolver::solve_streamfunction() {
  ScopedPhase phase(phase_seconds_, "poisson");
  const Field3 w = omega_, r = rhs_;
  const long ox = ox_, oz = oz_;
  const double area = hx_ * hy_;
  // A ψ = −ω hx hy with A = −∇²_h times the node area.
  for_each_cell<2>(
      "QgSolver::poisson_rhs", grid_->owned_from_zero(),
      KOKKOS_LAMBDA(long k, long, long i) { r(k, 0, i) = -area * w(k + oz, 0, i + ox); });
  const PoissonReport report = poisson_->solve(rhs_, psi_, 0, 0.0);
  if (!report.converged)
    throw Error(
        fmt::format("the streamfunction solve failed at step {} (KSP reason {}, {} "
                    "iterations); try other solver.poisson options",
                    step_ + 1, report.reason, report.iterations));
}

void QgSolver::set_wall_vorticity() const {
  // Thom: ψ = 0 and ∂ψ/∂n = 0 at a no-slip wall give ω_wall = ∂²ψ/∂n² = 2ψ_adjacent/h².
  const bool no_slip = p_.no_slip;
  const bool left = xs_ == 0, right = xs_ + xm_ == nx_ - 1;
  const bool bottom = zs_ == 0, top = zs_ + zm_ == ny_ - 1;
  const long i0 = ox_, i1 = ox_ + xm_ - 1, k0 = oz_, k1 = oz_ + zm_ - 1;
  const double cx = 2 / (hx_ * hx_), cy = 2 / (hy_ * hy_);
  const long gz = grid_->ghosted(DmdaGrid::kZ), gx = grid_->ghosted(DmdaGrid::kX);
  const Field3 w = omega_, psi = psi_;
  Kokkos::parallel_for(
      "QgSolver::wall_vorticity_x", gz, KOKKOS_LAMBDA(long k) {
        if (left) w(k, 0, i0 - 1) = no_slip ? cx * psi(k, 0, i0) : 0.0;
        if (right) w(k, 0, i1 + 1) = no_slip ? cx * psi(k, 0, i1) : 0.0;
      });
  Kokkos::parallel_for(
      "QgSolver::wall_vorticity_y", gx, KOKKOS_LAMBDA(long i) {
        if (bottom) w(k0 - 1, 0, i) = no_slip ? cy * psi(k0, 0, i) : 0.0;
        if (top) w(k1 + 1, 0, i) = no_slip ? cy * psi(k1, 0, i) : 0.0;
      });
}

void QgSolver::tendency() const {
  const Field3 w = omega_, psi = psi_, rate = rate_;
  const auto forcing = forcing_;
  const double inv_12 = 1 / (12 * hx_ * hy_), ihx2 = 1 / (hx_ * hx_), ihy2 = 1 / (hy_ * hy_);
  const double beta_2hx = p_.beta / (2 * hx_), drag = p_.drag, nu = p_.viscosity;
  const bool advection = p_.advection;
  for_each_cell<2>(
      "QgSolver::tendency", owned_, KOKKOS_LAMBDA(long k, long, long i) {
        double r = forcing(k) - drag * w(k, 0, i) + nu * five_point_laplacian(w, k, i, ihx2, ihy2) -
                   beta_2hx * (psi(k, 0, i + 1) - psi(k, 0, i - 1));
        if (advection) r -= arakawa_jacobian(psi, w, k, i, inv_12);
        rate(k, 0, i) = r;
      });
}

void QgSolver::stage(int s, double dt) {
  // Shu–Osher SSP-RK3: ω ← a ω⁰ + (1 − a)(ω + dt R(ω)), a = 0, ¾, ⅓.
  static constexpr double kA[3] = {0.0, 0.75, 1.0 / 3.0};
  {
    ScopedPhase phase(phase_seconds_, "tendency");
    tendency();
    const double a = kA[s];
    const Field3 w = omega_, w0 = omega0_, rate = rate_;
    for_each_cell<2>(
        "QgSolver::update", owned_, KOKKOS_LAMBDA(long k, long, long i) {
          w(k, 0, i) = a * w0(k, 0, i) + (1 - a) * (w(k, 0, i) + dt * rate(k, 0, i));
        });
    grid_->exchange(omega_);
  }
  solve_streamfunction();
  set_wall_vorticity();
}

double QgSolver::stable_dt() const {
  double adv = 0;
  if (p_.advection) {
    const Field3 psi = psi_;
    const double i2hx = 1 / (2 * hx_ * hx_), i2hy = 1 / (2 * hy_ * hy_);  // |Δψ|/(2h) / h
    reduce_cells<2, double>(
        "QgSolver::cfl", owned_,
        KOKKOS_LAMBDA(long k, long, long i, double& m) {
          // |u|/hx + |v|/hy with u = −ψ_y, v = ψ_x; NaN propagates.
          const double s = fabs(psi(k + 1, 0, i) - psi(k - 1, 0, i)) * i2hy +
                           fabs(psi(k, 0, i + 1) - psi(k, 0, i - 1)) * i2hx;
          if (!(s <= m)) m = s;
        },
        Kokkos::Max<double>(adv));
    adv = grid_->global_max(adv);
  }
  // The Rossby-wave rate β ξx/(ξx² + ξy²) of the discrete operators is at most β/(2√S_y,min)
  // (S the Laplacian's symbol, ξx² ≤ S_x) and at most β/√S_x,min.
  const auto symbol_min = [](double h, double l) {
    const double s = std::sin(M_PI * h / (2 * l));
    return 4 * s * s / (h * h);
  };
  const double rossby = p_.beta * std::min(0.5 / std::sqrt(symbol_min(hy_, p_.ly)),
                                           1 / std::sqrt(symbol_min(hx_, p_.lx)));
  const double damping = p_.drag + p_.viscosity * (4 / (hx_ * hx_) + 4 / (hy_ * hy_));
  double stable = INFINITY;
  if (adv + rossby > 0) stable = std::sqrt(3.0) / (adv + rossby);
  if (damping > 0) stable = std::min(stable, 2.5 / damping);
  if (std::isnan(adv)) return NAN;
  return stable;
}

StepReport QgSolver::advance() {
  double dt = fixed_dt_;
  if (dt <= 0) {
    const double stable = stable_dt();
    if (!std::isfinite(stable))
      throw Error(
          fmt::format("the run blew up at step {} (t = {:.6g}): non-finite streamfunction; "
                      "reduce solver.cfl or refine the grid",
                      step_, time_));
    dt = cfl_ * stable;
    if (max_dt_ > 0) dt = std::min(dt, max_dt_);
  }
  double target = end_time_;
  if (requested_stop_ > time_) target = std::min(target, requested_stop_);
  bool lands = false;
  dt = qg_landed_step(dt, time_, target, lands);
  if (!(dt > 1e-14 * std::max(1.0, time_)))
    throw Error(fmt::format("the time step collapsed at step {} (t = {:.6g}, dt = {:.3g})",
                            step_ + 1, time_, dt));
  Kokkos::deep_copy(omega0_, omega_);
  for (int s = 0; s < 3; ++s) stage(s, dt);
  const double start = time_;
  ++step_;
  time_ = lands ? target : time_ + dt;
  dt_ = dt;

  ScopedPhase phase(phase_seconds_, "diagnostics");
  {
    const Field3 w = omega_, w0 = omega0_;
    double change = 0;
    reduce_cells<2, double>(
        "QgSolver::change", owned_,
        KOKKOS_LAMBDA(long k, long, long i, double& m) {
          const double d = fabs(w(k, 0, i) - w0(k, 0, i));
          if (!(d <= m)) m = d;  // NaN wins
        },
        Kokkos::Max<double>(change));
    change = grid_->global_max(change);
    residual_ = change / dt / (p_.forcing > 0 ? p_.forcing : 1.0);
    if (!std::isfinite(residual_))
      throw Error(
          fmt::format("the run blew up at step {} (t = {:.6g}, dt = {:.3g}): non-finite "
                      "vorticity; reduce solver.cfl or refine the grid",
                      step_, time_, dt_));
  }
  accumulate(start);
  return {step_, time_, dt_};
}

bool QgSolver::finished() const {
  if (steady_tolerance_ > 0 && step_ > 0 && residual_ < steady_tolerance_) return true;
  return time_ >= end_time_ * (1 - 1e-14);
}

}  // namespace surrox::solvers::qg

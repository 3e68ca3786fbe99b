#include "solvers/rayleigh_benard/rb_solver.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/common/fft_tridiagonal_poisson_solver.hpp"
#include "solvers/common/ksp_poisson_solver.hpp"
#include "solvers/common/wall_normal_grid.hpp"
#include "solvers/rayleigh_benard/rb_common.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

using detail::kFigures;

// The smallest horizontal wavelength of the random initial perturbation.
constexpr double kShortestWavelength[] = {0, 0, 0.25, 0.5};

// The pressure section's Poisson solver: the FFT + tridiagonal direct solver (2D) or PETSc's
// KSP with the section's options.
std::unique_ptr<PoissonSolver> make_pressure_solver(const CaseNode& pressure, DmdaGrid& dmda,
                                                    const WallNormalGrid& grid, double hx,
                                                    double hy, bool three_d) {
  if (pressure.string("solver") != "fft_tridiagonal")
    return std::make_unique<KspPoissonSolver>(dmda, grid, hx, hy, pressure, "pressure_", 3);
  if (three_d) pressure.fail("solver", "fft_tridiagonal is for the 2D solver only; use ksp");
  // PETSc options would be ignored: say so rather than run another solver than asked for.
  for (const auto& [key, fallback] :
       {std::pair{"ksp_type", "auto"}, {"pc_type", "auto"}, {"options", ""}})
    if (pressure.string(key) != fallback)
      pressure.fail(key, std::string(key) +
                             " applies to solver: ksp; this case's pressure solver "
                             "is fft_tridiagonal (set solver.pressure.solver: ksp)");
  return std::make_unique<FftTridiagonalPoissonSolver>(dmda, grid, hx, PoissonBoundaries{});
}

}  // namespace

template <int dim>
void RayleighBenardSolver<dim>::initialize(const CaseNode& config, Runtime& runtime) {
  constexpr bool three_d = dim == 3;
  comm_ = runtime.comm();
  ranks_ = runtime.size();
  ra_ = config.real("rayleigh");
  pr_ = config.real("prandtl");
  const auto length = config.reals("length");
  lx_ = length[0];
  ly_ = three_d ? length[1] : 0.0;
  for (double l : length)
    if (l <= 0) config.fail("length", "needs positive lengths");
  if (std::fabs(length[dim - 1] - 1.0) > 1e-12)
    config.fail("length", "Lz must be 1 (the unit of length in free-fall units)");
  const auto cells = config.integers("cells");
  for (long n : cells)
    if (n < 4) config.fail("cells", "needs at least 4 cells per direction");
  nx_ = cells[0];
  ny_ = three_d ? cells[1] : 1;
  nz_ = cells[dim - 1];
  end_time_ = config.real("end_time");
  cfl_ = config.real("cfl");
  max_dt_ = config.real("max_dt");
  average_from_ = config.real("average_from");
  steady_tolerance_ = config.real("steady_tolerance");
  stretching_ = config.real("stretching");
  hx_ = lx_ / static_cast<double>(nx_);
  hy_ = three_d ? ly_ / static_cast<double>(ny_) : 1.0;
  const WallNormalGrid grid(nz_, stretching_);
  hz_min_ = grid.min_dz();
  z_diffusion_bound_ = grid.diffusion_bound();
  zc_global_.resize(nz_);
  z_faces_.resize(nz_ + 1);
  for (long k = 0; k < nz_; ++k) zc_global_[k] = grid.zc(k);
  for (long k = 0; k <= nz_; ++k) z_faces_[k] = grid.face(k);
  nu_ = std::sqrt(pr_ / ra_);
  kappa_ = 1.0 / std::sqrt(ra_ * pr_);

  // The DMDA distributes everything: periodic horizontally, ghosted (walls) in z.
  grid_ = std::make_unique<DmdaGrid>(comm_, dim, std::array<long, 3>{nx_, ny_, nz_});
  xs_ = grid_->start(DmdaGrid::kX), ys_ = grid_->start(DmdaGrid::kY);
  zs_ = grid_->start(DmdaGrid::kZ);
  xm_ = grid_->owned(DmdaGrid::kX), ym_ = grid_->owned(DmdaGrid::kY);
  zm_ = grid_->owned(DmdaGrid::kZ);
  gxm_ = grid_->ghosted(DmdaGrid::kX), gym_ = grid_->ghosted(DmdaGrid::kY);
  gzm_ = grid_->ghosted(DmdaGrid::kZ);
  ox_ = grid_->offset(DmdaGrid::kX), oy_ = grid_->offset(DmdaGrid::kY);
  oz_ = grid_->offset(DmdaGrid::kZ);
  owned_ = grid_->owned_box();
  if (xm_ < 2 || zm_ < 2 || (three_d && ym_ < 2))
    config.fail(
        "cells",
        fmt::format("too few cells for {} ranks: each needs at least 2 per direction", ranks_));

  const auto make = [&](const char* name) { return grid_->ghosted_field(name); };
  u_ = make("RB::u"), w_ = make("RB::w"), b_ = make("RB::b"), p_ = make("RB::p");
  u0_ = make("RB::u0"), w0_ = make("RB::w0"), b0_ = make("RB::b0");
  ru_ = make("RB::ru"), rw_ = make("RB::rw"), rb_ = make("RB::rb");
  if constexpr (three_d) v_ = make("RB::v"), v0_ = make("RB::v0"), rv_ = make("RB::rv");
  {
    dz_ = Metric("RB::dz", gzm_), dzc_ = Metric("RB::dzc", gzm_), zc_ = Metric("RB::zc", gzm_);
    iw_ = Metric("RB::iw", gzm_);
    auto dz = Kokkos::create_mirror_view(dz_), dzc = Kokkos::create_mirror_view(dzc_),
         zc = Kokkos::create_mirror_view(zc_), iw = Kokkos::create_mirror_view(iw_);
    for (long r = 0; r < gzm_; ++r) {
      const long k = zs_ - oz_ + r;
      dz(r) = grid.dz(k), dzc(r) = grid.dzc(k), zc(r) = grid.zc(k);
      iw(r) = 1 / std::min(grid.dz(k - 1), grid.dz(k));
    }
    Kokkos::deep_copy(dz_, dz), Kokkos::deep_copy(dzc_, dzc), Kokkos::deep_copy(zc_, zc);
    Kokkos::deep_copy(iw_, iw);
  }
  const CaseNode pressure = config.section("pressure");
  projection_ = std::make_unique<PressureProjection<dim>>(
      *grid_, dz_, dzc_, hx_, hy_, hz_min_,
      make_pressure_solver(pressure, *grid_, grid, hx_, hy_, three_d),
      pressure.real("divergence_tolerance"));

  set_initial(config);
  exchange(u_, Boundary::kU);
  if constexpr (three_d) exchange(v_, Boundary::kU);
  exchange(w_, Boundary::kW);
  exchange(b_, Boundary::kB);
  time_ = 0;
  step_ = 0;
  dt_ = 0;
  residual_ = 0;
  for (const char* name : kFigures) sums_[name] = 0;
  averaged_time_ = 0;
  series_.clear();
  last_nu_ = instantaneous().at("nu_bottom");
  state_ = FieldSet();
  if constexpr (three_d) {
    for (auto [name, f] : {std::pair{"u", u_}, {"v", v_}, {"w", w_}, {"b", b_}, {"p", p_}})
      state_.add(name, f);
  } else {
    // 2D state as (1, z, x) Views of the same memory (nk = 1 in 2D, core/field_set.hpp).
    for (auto [name, f] : {std::pair{"u", u_}, {"w", w_}, {"b", b_}, {"p", p_}})
      state_.add(name, Field3(f.data(), 1, f.extent(0), f.extent(2)));
  }
}

template <int dim>
void RayleighBenardSolver<dim>::set_initial(const CaseNode& config) {
  // Conduction profile b = ½ − z plus the perturbation, which vanishes at the walls and is a
  // function of the position only (the same continuous field on any grid and decomposition).
  const bool mode = config.string("initial") == "mode";
  const double amplitude = config.real("amplitude");
  const detail::SmoothPerturbation noise(static_cast<std::uint64_t>(config.integer("seed")), lx_,
                                         ly_, kShortestWavelength[dim]);
  const long ox = ox_, oy = oy_, xs = xs_, ys = ys_;
  const double hx = hx_, hy = hy_, lx = lx_, ly = ly_;
  const Field3 b = b_;
  const Metric zc = zc_;
  for_each_cell<dim>(
      "RayleighBenardSolver::initial", owned_, KOKKOS_LAMBDA(long k, long j, long i) {
        const long ig = xs + (i - ox), jg = ys + (j - oy);
        const double x = (ig + 0.5) * hx, y = dim == 3 ? (jg + 0.5) * hy : 0.0, z = zc(k);
        double shape;
        if (mode) {
          shape = cos(2 * M_PI * x / lx);
          if constexpr (dim == 3) shape *= cos(2 * M_PI * y / ly);
          shape *= sin(M_PI * z);
        } else {
          shape = noise(x, y, z);
        }
        b(k, j, i) = 0.5 - z + amplitude * shape;
      });
}

template <int dim>
void RayleighBenardSolver<dim>::apply_walls(const Field3& f, Boundary kind) const {
  const bool bottom = zs_ == 0, top = zs_ + zm_ == nz_;
  const long lo = oz_, hi = oz_ + zm_ - 1;  // first and last owned rows
  Kokkos::parallel_for(
      "RayleighBenardSolver::walls", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {gym_, gxm_}),
      KOKKOS_LAMBDA(long j, long i) {
        if (bottom) {
          switch (kind) {
            case Boundary::kU:
              f(lo - 1, j, i) = -f(lo, j, i);
              break;
            case Boundary::kW:
              f(lo, j, i) = 0;
              f(lo - 1, j, i) = -f(lo + 1, j, i);
              break;
            case Boundary::kB:
              f(lo - 1, j, i) = 1.0 - f(lo, j, i);
              break;
          }
        }
        if (top) {
          switch (kind) {
            case Boundary::kU:
              f(hi + 1, j, i) = -f(hi, j, i);
              break;
            case Boundary::kW:
              f(hi + 1, j, i) = 0;
              break;
            case Boundary::kB:
              f(hi + 1, j, i) = -1.0 - f(hi, j, i);
              break;
          }
        }
      });
}

template <int dim>
void RayleighBenardSolver<dim>::exchange(const Field3& f, Boundary kind) const {
  grid_->exchange(f);
  apply_walls(f, kind);
}

template <int dim>
void RayleighBenardSolver<dim>::project(int s, double dt, double weight) {
  {
    ScopedPhase phase(phase_seconds_, "pressure");
    const PoissonReport report = projection_->solve(velocity(), s, rate_);
    if (!report.converged)
      throw Error(
          fmt::format("the pressure solve failed at step {} (KSP reason {}, {} iterations); "
                      "try other solver.pressure options",
                      step_ + 1, report.reason, report.iterations));
  }
  ScopedPhase phase(phase_seconds_, "projection");
  projection_->correct(velocity(), p_, weight > 0 ? 1.0 / (weight * dt) : 0.0);
  exchange(u_, Boundary::kU);
  if constexpr (dim == 3) exchange(v_, Boundary::kU);
  exchange(w_, Boundary::kW);
}

template <int dim>
void RayleighBenardSolver<dim>::stage(int s, double dt) {
  // Shu–Osher SSP-RK3: f ← a f⁰ + (1 − a)(f + dt R(f)), a = 0, ¾, ⅓.
  static constexpr double kA[3] = {0.0, 0.75, 1.0 / 3.0};
  {
    ScopedPhase phase(phase_seconds_, "advection_diffusion");
    compute_rhs();
    const double a = kA[s];
    const Field3 u = u_, v = v_, w = w_, b = b_, u0 = u0_, v0 = v0_, w0 = w0_, b0 = b0_;
    const Field3 ru = ru_, rv = rv_, rw = rw_, rb = rb_;
    for_each_cell<dim>(
        "RayleighBenardSolver::update", owned_, KOKKOS_LAMBDA(long k, long j, long i) {
          u(k, j, i) = a * u0(k, j, i) + (1 - a) * (u(k, j, i) + dt * ru(k, j, i));
          if constexpr (dim == 3)
            v(k, j, i) = a * v0(k, j, i) + (1 - a) * (v(k, j, i) + dt * rv(k, j, i));
          w(k, j, i) = a * w0(k, j, i) + (1 - a) * (w(k, j, i) + dt * rw(k, j, i));
          b(k, j, i) = a * b0(k, j, i) + (1 - a) * (b(k, j, i) + dt * rb(k, j, i));
        });
  }
  {
    ScopedPhase phase(phase_seconds_, "halo");
    exchange(u_, Boundary::kU);
    if constexpr (dim == 3) exchange(v_, Boundary::kU);
    exchange(w_, Boundary::kW);
    exchange(b_, Boundary::kB);
  }
  // The velocity correction of the last stage is (1 − a) dt ∇p: p = φ / ((1 − a) dt).
  project(s, dt, s == 2 ? 1 - kA[s] : 0.0);
}

template <int dim>
double RayleighBenardSolver<dim>::stable_dt() const {
  const Field3 u = u_, v = v_, w = w_;
  const Metric iw = iw_;
  const double ihx = 1 / hx_, ihy = 1 / hy_;
  double rate = 0;
  reduce_cells<dim, double>(
      "RayleighBenardSolver::cfl", owned_,
      KOKKOS_LAMBDA(long k, long j, long i, double& m) {
        double r = fabs(u(k, j, i)) * ihx;
        if constexpr (dim == 3) r += fabs(v(k, j, i)) * ihy;
        r += fabs(w(k, j, i)) * iw(k);
        if (!(r <= m)) m = r;  // NaN wins
      },
      Kokkos::Max<double>(rate));
  rate = grid_->global_max(rate);
  rate_ = rate;
  // SSP-RK3 is stable for central advection up to |λ dt| ≤ √3 and for diffusion up to 2.51;
  // the diffusive eigenvalue bound is max(ν, κ)(4/hx² + 4/hy² + the z bound, 4/hz² when
  // uniform).
  double horizontal = 4 * ihx * ihx;
  if constexpr (dim == 3) horizontal += 4 * ihy * ihy;
  const double advective = rate > 0 ? std::sqrt(3.0) / rate : INFINITY;
  const double diffusive = 2.5 / (std::max(nu_, kappa_) * (horizontal + z_diffusion_bound_));
  return std::min(advective, diffusive);
}

template <int dim>
void RayleighBenardSolver<dim>::check_finite() const {
  const Field3 u = u_, v = v_, w = w_, b = b_;
  long where = -1;
  const long xm = xm_, ym = ym_, ox = ox_, oy = oy_, oz = oz_;
  reduce_cells<dim, long>(
      "RayleighBenardSolver::finite", grid_->owned_from_zero(),
      KOKKOS_LAMBDA(long kk, long jj, long ii, long& last) {
        const long k = kk + oz, j = jj + oy, i = ii + ox;
        double s = u(k, j, i);
        if constexpr (dim == 3) s += v(k, j, i);
        s += w(k, j, i) + b(k, j, i);
        const long cell = (kk * ym + jj) * xm + ii;
        if (!(fabs(s) < INFINITY) && cell > last) last = cell;
      },
      Kokkos::Max<long>(where));
  // Report a non-finite owned cell in global indices (every rank checks its own): one global
  // linear index reduced over the ranks, so that the three indices name one cell of one rank.
  long local_global = -1;
  if (where >= 0) {
    const long k = zs_ + where / (xm_ * ym_), j = ys_ + (where / xm_) % ym_, i = xs_ + where % xm_;
    local_global = (k * ny_ + j) * nx_ + i;
  }
  long global = -1;
  MPI_Allreduce(&local_global, &global, 1, MPI_LONG, MPI_MAX, comm_);
  if (global < 0) return;
  const long cell[3] = {global / (nx_ * ny_), (global / nx_) % ny_, global % nx_};
  const double x = (cell[2] + 0.5) * hx_, z = zc_global_[std::max(0L, cell[0])];
  const std::string where_text =
      dim == 3 ? fmt::format(
                     "u, v, w or b in cell (i = {}, j = {}, k = {}) at x = {:.4g}, y = "
                     "{:.4g}, z = {:.4g}",
                     cell[2], cell[1], cell[0], x, (cell[1] + 0.5) * hy_, z)
               : fmt::format("u, w or b in cell (i = {}, k = {}) at x = {:.4g}, z = {:.4g}",
                             cell[2], cell[0], x, z);
  throw Error(
      fmt::format("the run blew up at step {} (t = {:.6g}, dt = {:.3g}): non-finite {}; reduce "
                  "solver.cfl or refine the grid",
                  step_, time_, dt_, where_text));
}

template <int dim>
StepReport RayleighBenardSolver<dim>::advance() {
  double stable;
  {
    ScopedPhase phase(phase_seconds_, "advection_diffusion");
    const double limit = stable_dt();
    if (!std::isfinite(limit)) {
      check_finite();
      throw Error(fmt::format("the run blew up at step {} (t = {:.6g}): non-finite velocity", step_,
                              time_));
    }
    stable = std::min(cfl_ * limit, max_dt_);
  }
  // Land exactly on end_time and on output times; avoid a sliver step before them.
  double target = end_time_;
  if (requested_stop_ > time_) target = std::min(target, requested_stop_);
  const auto [dt, lands] = detail::land_step(stable, time_, target, step_ + 1);

  Kokkos::deep_copy(u0_, u_);
  if constexpr (dim == 3) Kokkos::deep_copy(v0_, v_);
  Kokkos::deep_copy(w0_, w_);
  Kokkos::deep_copy(b0_, b_);
  for (int s = 0; s < 3; ++s) stage(s, dt);
  ++step_;
  time_ = lands ? target : time_ + dt;
  dt_ = dt;

  ScopedPhase phase(phase_seconds_, "diagnostics");
  check_finite();
  const Diagnostics now = instantaneous();
  residual_ = now.at("max_divergence");
  std::vector<double> row{time_, dt_};
  for (const char* name : kFigures) row.push_back(now.at(name));
  series_.push_back(std::move(row));
  if (time_ > average_from_) {
    const double span = std::min(dt_, time_ - average_from_);
    for (const char* name : kFigures) sums_[name] += span * now.at(name);
    averaged_time_ += span;
  }
  steady_change_ = std::fabs(now.at("nu_bottom") - last_nu_) / dt_;
  last_nu_ = now.at("nu_bottom");
  steady_ = steady_tolerance_ > 0 && time_ > average_from_ && steady_change_ < steady_tolerance_;
  return {step_, time_, dt_};
}

template <int dim>
bool RayleighBenardSolver<dim>::finished() const {
  return steady_ || time_ >= end_time_ * (1 - 1e-14);
}

template <int dim>
io::MeshData RayleighBenardSolver<dim>::output_mesh() const {
  // Cell data (velocities averaged from their faces to the centres) on the grid of cell
  // corners, in the global index space: this rank's piece covers its cells, and neighbouring
  // pieces share their boundary layer of points, so partitioned files tile without gaps. A
  // uniform grid is an image (.vti); a stretched one a structured grid with the face heights
  // (.vts). In 2D VTK's y axis is z.
  constexpr bool three_d = dim == 3;
  io::MeshData mesh;
  mesh.extent = three_d ? std::array<long, 6>{xs_, xs_ + xm_, ys_, ys_ + ym_, zs_, zs_ + zm_}
                        : std::array<long, 6>{xs_, xs_ + xm_, zs_, zs_ + zm_, 0, 0};
  if (stretching_ == 0) {
    mesh.kind = io::MeshKind::kImage;
    mesh.origin = {0, 0, 0};
    const double hz = 1.0 / static_cast<double>(nz_);
    mesh.spacing =
        three_d ? std::array<double, 3>{hx_, hy_, hz} : std::array<double, 3>{hx_, hz, 1};
  } else {
    mesh.kind = io::MeshKind::kStructured;
    mesh.points = io::HostArray("RB::points", (xm_ + 1) * (three_d ? ym_ + 1 : 1) * (zm_ + 1), 3);
    long row = 0;
    for (long k = zs_; k <= zs_ + zm_; ++k)
      for (long j = ys_; j <= ys_ + (three_d ? ym_ : 0); ++j)
        for (long i = xs_; i <= xs_ + xm_; ++i, ++row) {
          mesh.points(row, 0) = static_cast<double>(i) * hx_;
          mesh.points(row, 1) = three_d ? static_cast<double>(j) * hy_ : z_faces_[k];
          mesh.points(row, 2) = three_d ? z_faces_[k] : 0.0;
        }
  }
  const long n = xm_ * ym_ * zm_;
  auto host = [](const Field3& f) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  };
  const auto u = host(u_), w = host(w_), b = host(b_), p = host(p_);
  const auto v = three_d ? host(v_) : decltype(u)();
  auto dz = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dz_);
  // The pressure's mean is arbitrary: remove its (volume-weighted) mean.
  double mean = 0;
  for (long k = oz_; k < oz_ + zm_; ++k)
    for (long j = oy_; j < oy_ + ym_; ++j)
      for (long i = ox_; i < ox_ + xm_; ++i) mean += p(k, j, i) * dz(k);
  mean = grid_->global_sum(mean) / static_cast<double>(nx_ * ny_);
  io::HostArray pa("RB::p", n, 1), ba("RB::b", n, 1), ua("RB::u", n, 1), va("RB::v", n, 1),
      wa("RB::w", n, 1);
  long row = 0;
  for (long k = oz_; k < oz_ + zm_; ++k)
    for (long j = oy_; j < oy_ + ym_; ++j)
      for (long i = ox_; i < ox_ + xm_; ++i, ++row) {
        pa(row, 0) = p(k, j, i) - mean;
        ba(row, 0) = b(k, j, i);
        ua(row, 0) = 0.5 * (u(k, j, i) + u(k, j, i + 1));
        if constexpr (three_d) va(row, 0) = 0.5 * (v(k, j, i) + v(k, j + 1, i));
        wa(row, 0) = 0.5 * (w(k, j, i) + w(k + 1, j, i));
      }
  if constexpr (three_d)
    mesh.cell_data = {{"p", pa}, {"b", ba}, {"u", ua}, {"v", va}, {"w", wa}};
  else
    mesh.cell_data = {{"p", pa}, {"b", ba}, {"u", ua}, {"w", wa}};
  return mesh;
}

template <int dim>
void RayleighBenardSolver<dim>::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["time"] = time_;
  checkpoint.scalars["step"] = static_cast<double>(step_);
  checkpoint.scalars["dt"] = dt_;
  checkpoint.scalars["averaged_time"] = averaged_time_;
  checkpoint.scalars["last_nu"] = last_nu_;
  for (const auto& [name, sum] : sums_) checkpoint.scalars["sum_" + name] = sum;
  auto save = [&](const std::string& name, const Field3& f) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    io::HostArray a("RB::" + name, host.size(), 1);
    std::copy(host.data(), host.data() + host.size(), a.data());
    checkpoint.arrays.push_back({name, a});
  };
  save("u", u_);
  if constexpr (dim == 3) save("v", v_);
  save("w", w_), save("b", b_), save("p", p_);
  projection_->poisson().save_state(checkpoint);
  // The Nu(t) series so far (the same on every rank), so that nusselt.csv covers the whole run.
  const std::size_t width = series_.empty() ? 0 : series_.front().size();
  io::HostArray series("RB::series", series_.size(), width);
  for (std::size_t r = 0; r < series_.size(); ++r)
    std::copy(series_[r].begin(), series_[r].end(), &series(r, 0));
  checkpoint.arrays.push_back({"rb_series", series});
}

template <int dim>
void RayleighBenardSolver<dim>::load_state(const io::Hdf5Checkpoint& checkpoint) {
  time_ = checkpoint.scalar("time");
  step_ = static_cast<long>(checkpoint.scalar("step"));
  dt_ = checkpoint.scalar("dt");
  averaged_time_ = checkpoint.scalar("averaged_time");
  last_nu_ = checkpoint.scalar("last_nu");
  for (auto& [name, sum] : sums_) sum = checkpoint.scalar("sum_" + name);
  auto load = [&](const std::string& name, const Field3& f) {
    const io::NamedArray& a = checkpoint.array(name);
    if (a.tuples() != f.size())
      throw InputError("checkpoint array '" + name +
                       "' does not match this grid and decomposition");
    auto host = Kokkos::create_mirror_view(f);
    std::copy(a.values.data(), a.values.data() + f.size(), host.data());
    Kokkos::deep_copy(f, host);
  };
  load("u", u_);
  if constexpr (dim == 3) load("v", v_);
  load("w", w_), load("b", b_), load("p", p_);
  projection_->poisson().load_state(checkpoint);
  series_.clear();
  if (const io::NamedArray* series = checkpoint.find_array("rb_series"))
    for (std::size_t r = 0; r < series->tuples(); ++r)
      series_.emplace_back(&series->values(r, 0), &series->values(r, 0) + series->components());
}

template <int dim>
void RayleighBenardSolver<dim>::finalize(const std::filesystem::path& output_dir,
                                         nlohmann::json& results) {
  nlohmann::json rb;
  const Diagnostics d = diagnostics();
  for (const auto& [name, value] : d) rb[name] = value;
  rb["average_window"] = {average_from_, time_};
  rb["phase_times_s"] = phase_seconds_;
  results["rayleigh_benard"] = rb;
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  if (rank != 0) return;
  std::ofstream csv(output_dir / "nusselt.csv");
  csv << "time,dt";
  for (const char* name : kFigures) csv << ',' << name;
  csv << '\n';
  csv.precision(17);
  for (const auto& row : series_) {
    for (std::size_t n = 0; n < row.size(); ++n) csv << (n ? "," : "") << row[n];
    csv << '\n';
  }
}

template class RayleighBenardSolver<2>;
template class RayleighBenardSolver<3>;

}  // namespace surrox::solvers::rayleigh_benard

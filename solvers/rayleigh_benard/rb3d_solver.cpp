#include "solvers/rayleigh_benard/rb3d_solver.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/rayleigh_benard/rb_common.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

using detail::kFigures;
using solvers::ScopedPhase;
using detail::Sums;

using Range3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;

}  // namespace

Schema RayleighBenard3dSolver::schema() {
  Schema s(
      "3D Rayleigh–Bénard convection (Boussinesq, free-fall units) on a MAC grid with PETSc "
      "pressure projection; periodic in x and y, no-slip walls at z = 0 and 1.");
  s.real("rayleigh", "Rayleigh number Ra").above(0).fallback("1e5");
  s.real("prandtl", "Prandtl number Pr").above(0).fallback("1.0");
  s.reals("length", "domain size [Lx, Ly, Lz]; Lz = 1").sized(3).fallback("[2.0, 2.0, 1.0]");
  s.integers("cells", "cells [nx, ny, nz]").sized(3).at_least(1).fallback("[32, 32, 16]");
  s.real("end_time", "simulated time to reach (free-fall units)").above(0).fallback("10.0");
  s.real("cfl", "time step as a fraction of the stable SSP-RK3 limit")
      .above(0)
      .at_most(1)
      .fallback("0.8");
  s.real("max_dt", "largest time step").above(0).fallback("0.05");
  s.real("stretching",
         "wall-normal clustering γ: cell faces z_k = ½(1 + tanh(γ(2k/nz − 1))/tanh γ), "
         "k = 0…nz, centres midway; 0: uniform")
      .at_least(0)
      .at_most(4)
      .fallback("0");
  s.real("amplitude",
         "amplitude A of the seeded buoyancy perturbation, a function of position: "
         "b' = A M^-1/2 Σ a cos(2πlx/Lx + θ) cos(2πmy/Ly + φ) sin(nπz) over l ≤ 2Lx, m ≤ 2Ly, "
         "n ≤ 4 with seeded a, θ, φ")
      .at_least(0)
      .fallback("1e-2");
  s.integer("seed", "seed of the random perturbation").at_least(0).fallback("42");
  s.real("average_from", "start of the time-averaging window for summary.json")
      .at_least(0)
      .fallback("0");
  Schema pressure("PETSc KSP for the pressure Poisson equation (options prefix -pressure_).");
  pressure.string("ksp_type", "KSP type; \"auto\": preonly with the auto PC, else cg")
      .fallback("auto");
  pressure
      .string("pc_type",
              "PC type; \"auto\": LU (nested dissection) on one rank, redundant LU on several — "
              "fastest "
              "measured up to ~10⁵ cells; use gamg or hypre for large 3D grids")
      .fallback("auto");
  pressure.real("rtol", "relative residual tolerance").above(0).fallback("1e-12");
  pressure.real("divergence_tolerance", "stop when max|∇·u| is below this times U/h")
      .above(0)
      .fallback("1e-11");
  pressure.string("options", "extra PETSc options").fallback("\"\"");
  s.section("pressure", pressure, "pressure solver");
  return s;
}

void RayleighBenard3dSolver::initialize(const CaseNode& config, Runtime& runtime) {
  comm_ = runtime.comm();
  ra_ = config.real("rayleigh");
  pr_ = config.real("prandtl");
  const auto length = config.reals("length");
  lx_ = length[0], ly_ = length[1];
  if (lx_ <= 0 || ly_ <= 0) config.fail("length", "needs positive lengths");
  if (std::fabs(length[2] - 1.0) > 1e-12)
    config.fail("length", "Lz must be 1 (the unit of length)");
  const auto cells = config.integers("cells");
  if (cells[0] < 4 || cells[1] < 4 || cells[2] < 4)
    config.fail("cells", "needs at least 4 cells per direction");
  nx_ = cells[0], ny_ = cells[1], nz_ = cells[2];
  end_time_ = config.real("end_time");
  cfl_ = config.real("cfl");
  max_dt_ = config.real("max_dt");
  average_from_ = config.real("average_from");
  stretching_ = config.real("stretching");
  hx_ = lx_ / nx_, hy_ = ly_ / ny_;
  const detail::WallNormalGrid grid(nz_, stretching_);
  hz_min_ = grid.min_dz();
  z_diffusion_bound_ = grid.diffusion_bound();
  z_faces_.resize(nz_ + 1);
  for (long k = 0; k <= nz_; ++k) z_faces_[k] = grid.face(k);
  nu_ = std::sqrt(pr_ / ra_);
  kappa_ = 1.0 / std::sqrt(ra_ * pr_);

  SURROX_PETSC_CHECK(DMDACreate3d(
      comm_, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_GHOSTED, DMDA_STENCIL_BOX,
      static_cast<PetscInt>(nx_), static_cast<PetscInt>(ny_), static_cast<PetscInt>(nz_),
      PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, nullptr, nullptr, nullptr, da_.out()));
  SURROX_PETSC_CHECK(DMSetUp(da_.get()));
  {
    PetscInt c[6], g[6];
    SURROX_PETSC_CHECK(DMDAGetCorners(da_.get(), &c[0], &c[1], &c[2], &c[3], &c[4], &c[5]));
    SURROX_PETSC_CHECK(DMDAGetGhostCorners(da_.get(), &g[0], &g[1], &g[2], &g[3], &g[4], &g[5]));
    xs_ = c[0], ys_ = c[1], zs_ = c[2], xm_ = c[3], ym_ = c[4], zm_ = c[5];
    gxm_ = g[3], gym_ = g[4], gzm_ = g[5];
    ox_ = c[0] - g[0], oy_ = c[1] - g[1], oz_ = c[2] - g[2];
  }
  if (xm_ < 2 || ym_ < 2 || zm_ < 2) config.fail("cells", "too few cells for this many ranks");
  SURROX_PETSC_CHECK(DMCreateLocalVector(da_.get(), local_.out()));
  SURROX_PETSC_CHECK(DMCreateGlobalVector(da_.get(), global_.out()));
  SURROX_PETSC_CHECK(DMCreateGlobalVector(da_.get(), rhs_.out()));
  for (auto& phi : phi_) {
    SURROX_PETSC_CHECK(DMCreateGlobalVector(da_.get(), phi.out()));
    SURROX_PETSC_CHECK(VecSet(phi.get(), 0.0));
  }
  // Preallocate only: the box stencil's pattern would otherwise be stored as explicit zeros,
  // which adds fill to factorisations and edges to algebraic multigrid.
  SURROX_PETSC_CHECK(DMSetMatrixPreallocateOnly(da_.get(), PETSC_TRUE));
  SURROX_PETSC_CHECK(DMCreateMatrix(da_.get(), matrix_.out()));
  {
    // −D G scaled by the cell volumes hx hy dz_k: symmetric on a stretched grid too.
    for (PetscInt k = static_cast<PetscInt>(zs_); k < zs_ + zm_; ++k)
      for (PetscInt j = static_cast<PetscInt>(ys_); j < ys_ + ym_; ++j)
        for (PetscInt i = static_cast<PetscInt>(xs_); i < xs_ + xm_; ++i) {
          const double dz = grid.dz(k), cx = hy_ * dz / hx_, cy = hx_ * dz / hy_;
          const double cb = hx_ * hy_ / grid.dzc(k), ct = hx_ * hy_ / grid.dzc(k + 1);
          MatStencil row{}, cols[7]{};
          PetscScalar vals[7];
          row.i = i, row.j = j, row.k = k;
          int n = 0;
          double diag = 2 * cx + 2 * cy;
          auto add = [&](PetscInt ii, PetscInt jj, PetscInt kk, double value) {
            cols[n].i = ii, cols[n].j = jj, cols[n].k = kk, vals[n++] = value;
          };
          add(i - 1, j, k, -cx), add(i + 1, j, k, -cx), add(i, j - 1, k, -cy),
              add(i, j + 1, k, -cy);
          if (k > 0) add(i, j, k - 1, -cb), diag += cb;
          if (k < nz_ - 1) add(i, j, k + 1, -ct), diag += ct;
          add(i, j, k, diag);
          SURROX_PETSC_CHECK(
              MatSetValuesStencil(matrix_.get(), 1, &row, n, cols, vals, INSERT_VALUES));
        }
    SURROX_PETSC_CHECK(MatAssemblyBegin(matrix_.get(), MAT_FINAL_ASSEMBLY));
    SURROX_PETSC_CHECK(MatAssemblyEnd(matrix_.get(), MAT_FINAL_ASSEMBLY));
    SURROX_PETSC_CHECK(MatNullSpaceCreate(comm_, PETSC_TRUE, 0, nullptr, null_space_.out()));
    SURROX_PETSC_CHECK(MatSetNullSpace(matrix_.get(), null_space_.get()));
  }
  const CaseNode pressure = config.section("pressure");
  SURROX_PETSC_CHECK(KSPCreate(comm_, ksp_.out()));
  SURROX_PETSC_CHECK(KSPSetOptionsPrefix(ksp_.get(), "pressure_"));
  SURROX_PETSC_CHECK(KSPSetOperators(ksp_.get(), matrix_.get(), matrix_.get()));
  int ranks = 1;
  MPI_Comm_size(comm_, &ranks);
  std::string ksp_type = pressure.string("ksp_type"), pc_type = pressure.string("pc_type");
  const bool auto_pc = pc_type == "auto";
  if (ksp_type == "auto") ksp_type = auto_pc ? KSPPREONLY : KSPCG;
  if (auto_pc) pc_type = ranks == 1 ? PCLU : PCREDUNDANT;
  if (KSPSetType(ksp_.get(), ksp_type.c_str()) != 0)
    pressure.fail("ksp_type", "unknown PETSc KSP type");
  PC pc;
  SURROX_PETSC_CHECK(KSPGetPC(ksp_.get(), &pc));
  if (PCSetType(pc, pc_type.c_str()) != 0)
    pressure.fail("pc_type", "unknown or unavailable PETSc PC type");
  if (auto_pc && ranks == 1) {
    SURROX_PETSC_CHECK(PCFactorSetMatOrderingType(pc, MATORDERINGND));
    SURROX_PETSC_CHECK(PCFactorSetShiftType(pc, MAT_SHIFT_NONZERO));
  } else if (auto_pc) {
    SURROX_PETSC_CHECK(PetscOptionsInsertString(
        nullptr,
        "-pressure_redundant_pc_type lu -pressure_redundant_pc_factor_mat_ordering_type nd "
        "-pressure_redundant_pc_factor_shift_type nonzero"));
  }
  rtol_ = pressure.real("rtol");
  divergence_tolerance_ = pressure.real("divergence_tolerance");
  SURROX_PETSC_CHECK(KSPSetTolerances(ksp_.get(), rtol_, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  const std::string options = pressure.string("options");
  if (!options.empty() && PetscOptionsInsertString(nullptr, options.c_str()) != 0)
    pressure.fail("options", "PETSc cannot parse these options");
  SURROX_PETSC_CHECK(KSPSetFromOptions(ksp_.get()));
  {
    KSPType type = nullptr;
    SURROX_PETSC_CHECK(KSPGetType(ksp_.get(), &type));
    SURROX_PETSC_CHECK(KSPSetInitialGuessNonzero(
        ksp_.get(), std::string(type) == KSPPREONLY ? PETSC_FALSE : PETSC_TRUE));
  }
  SURROX_PETSC_CHECK(KSPSetUp(ksp_.get()));

  auto make = [&](const char* name) { return Field3(std::string(name), gzm_, gym_, gxm_); };
  u_ = make("RB3::u"), v_ = make("RB3::v"), w_ = make("RB3::w"), b_ = make("RB3::b"),
  p_ = make("RB3::p");
  u0_ = make("RB3::u0"), v0_ = make("RB3::v0"), w0_ = make("RB3::w0"), b0_ = make("RB3::b0");
  ru_ = make("RB3::ru"), rv_ = make("RB3::rv"), rw_ = make("RB3::rw"), rb_ = make("RB3::rb");
  phi_local_ = make("RB3::phi");
  div_ = Field3("RB3::div", zm_, ym_, xm_);
  {
    dz_ = Metric("RB3::dz", gzm_), dzc_ = Metric("RB3::dzc", gzm_), zc_ = Metric("RB3::zc", gzm_);
    iw_ = Metric("RB3::iw", gzm_);
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
  {
    // A function of the position: the same continuous field on any grid and decomposition.
    const double amplitude = config.real("amplitude"), hx = hx_, hy = hy_;
    const Metric zc = zc_;
    const detail::SmoothPerturbation noise(static_cast<std::uint64_t>(config.integer("seed")), lx_,
                                           ly_, 0.5);
    const long ox = ox_, oy = oy_, oz = oz_, xs = xs_, ys = ys_;
    const Field3 b = b_;
    Kokkos::parallel_for(
        "RayleighBenard3dSolver::initial", Range3({0, 0, 0}, {zm_, ym_, xm_}),
        KOKKOS_LAMBDA(long kk, long jj, long ii) {
          const long j = ys + jj, i = xs + ii;
          const double x = (i + 0.5) * hx, y = (j + 0.5) * hy, z = zc(kk + oz);
          b(kk + oz, jj + oy, ii + ox) = 0.5 - z + amplitude * noise(x, y, z);
        });
  }
  exchange(u_, Boundary::kU);
  exchange(v_, Boundary::kU);
  exchange(w_, Boundary::kW);
  exchange(b_, Boundary::kB);
  for (const char* name : kFigures) sums_[name] = 0;
  state_ = FieldSet();
  state_.add("u", u_), state_.add("v", v_), state_.add("w", w_), state_.add("b", b_),
      state_.add("p", p_);
}

void RayleighBenard3dSolver::apply_walls(Field3 f, Boundary kind) const {
  const bool bottom = zs_ == 0, top = zs_ + zm_ == nz_;
  const long lo = oz_, hi = oz_ + zm_ - 1;
  Kokkos::parallel_for(
      "RayleighBenard3dSolver::walls", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {gym_, gxm_}),
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
            case Boundary::kP:
              f(lo - 1, j, i) = f(lo, j, i);
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
            case Boundary::kP:
              f(hi + 1, j, i) = f(hi, j, i);
              break;
          }
        }
      });
}

void RayleighBenard3dSolver::exchange(Field3 f, Boundary kind) const {
  auto host = Kokkos::create_mirror_view(f);
  Kokkos::deep_copy(host, f);
  PetscScalar* owned = nullptr;
  SURROX_PETSC_CHECK(VecGetArray(global_.get(), &owned));
  for (long k = 0; k < zm_; ++k)
    for (long j = 0; j < ym_; ++j)
      std::copy(&host(k + oz_, j + oy_, ox_), &host(k + oz_, j + oy_, ox_) + xm_,
                owned + (k * ym_ + j) * xm_);
  SURROX_PETSC_CHECK(VecRestoreArray(global_.get(), &owned));
  SURROX_PETSC_CHECK(VecPlaceArray(local_.get(), host.data()));
  SURROX_PETSC_CHECK(DMGlobalToLocal(da_.get(), global_.get(), INSERT_VALUES, local_.get()));
  SURROX_PETSC_CHECK(VecResetArray(local_.get()));
  Kokkos::deep_copy(f, host);
  apply_walls(f, kind);
}

double RayleighBenard3dSolver::stable_dt() const {
  const Field3 u = u_, v = v_, w = w_;
  const Metric iw = iw_;
  const double ihx = 1 / hx_, ihy = 1 / hy_;
  double rate = 0;
  Kokkos::parallel_reduce(
      "RayleighBenard3dSolver::cfl", Range3({oz_, oy_, ox_}, {oz_ + zm_, oy_ + ym_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long j, long i, double& m) {
        const double r = fabs(u(k, j, i)) * ihx + fabs(v(k, j, i)) * ihy + fabs(w(k, j, i)) * iw(k);
        if (!(r <= m)) m = r;
      },
      Kokkos::Max<double>(rate));
  double pair[2] = {std::isnan(rate) ? 0.0 : rate, std::isnan(rate) ? 1.0 : 0.0}, out[2];
  MPI_Allreduce(pair, out, 2, MPI_DOUBLE, MPI_MAX, comm_);
  rate = out[1] > 0 ? NAN : out[0];
  rate_ = rate;
  const double advective = rate > 0 ? std::sqrt(3.0) / rate : INFINITY;
  const double diffusive =
      2.5 / (std::max(nu_, kappa_) * (4 * (ihx * ihx + ihy * ihy) + z_diffusion_bound_));
  return std::min(advective, diffusive);
}

void RayleighBenard3dSolver::stage(int s, double dt) {
  static constexpr double kA[3] = {0.0, 0.75, 1.0 / 3.0};
  {
    ScopedPhase phase(phase_seconds_, "advection_diffusion");
    // The 2D solver's finite volumes (RayleighBenardSolver::compute_rhs) with a y direction.
    const Field3 u = u_, v = v_, w = w_, b = b_, ru = ru_, rv = rv_, rw = rw_, rb = rb_;
    const Metric dz = dz_, dzc = dzc_, zc = zc_;
    const double ihx = 1 / hx_, ihy = 1 / hy_, nu = nu_, kappa = kappa_;
    const double ihx2 = ihx * ihx, ihy2 = ihy * ihy;
    const long zs = zs_, oz = oz_;
    Kokkos::parallel_for(
        "RayleighBenard3dSolver::rhs", Range3({oz_, oy_, ox_}, {oz_ + zm_, oy_ + ym_, ox_ + xm_}),
        KOKKOS_LAMBDA(long k, long j, long i) {
          const double ihz = 1 / dz(k), idzc_b = 1 / dzc(k), idzc_t = 1 / dzc(k + 1);
          // Laplacian at a cell-centre height (u, v, b): z fluxes at the faces k and k + 1.
          auto lap = [&](const Field3& f) {
            return (f(k, j, i + 1) - 2 * f(k, j, i) + f(k, j, i - 1)) * ihx2 +
                   (f(k, j + 1, i) - 2 * f(k, j, i) + f(k, j - 1, i)) * ihy2 +
                   ((f(k + 1, j, i) - f(k, j, i)) * idzc_t -
                    (f(k, j, i) - f(k - 1, j, i)) * idzc_b) *
                       ihz;
          };
          {  // u on the x-face (i − ½, j, k)
            const double fe = 0.25 * (u(k, j, i) + u(k, j, i + 1)) * (u(k, j, i) + u(k, j, i + 1));
            const double fw = 0.25 * (u(k, j, i - 1) + u(k, j, i)) * (u(k, j, i - 1) + u(k, j, i));
            const double gn =
                0.25 * (v(k, j + 1, i - 1) + v(k, j + 1, i)) * (u(k, j, i) + u(k, j + 1, i));
            const double gs = 0.25 * (v(k, j, i - 1) + v(k, j, i)) * (u(k, j - 1, i) + u(k, j, i));
            const double gt =
                0.25 * (w(k + 1, j, i - 1) + w(k + 1, j, i)) * (u(k, j, i) + u(k + 1, j, i));
            const double gb = 0.25 * (w(k, j, i - 1) + w(k, j, i)) * (u(k - 1, j, i) + u(k, j, i));
            ru(k, j, i) = -(fe - fw) * ihx - (gn - gs) * ihy - (gt - gb) * ihz + nu * lap(u);
          }
          {  // v on the y-face (i, j − ½, k)
            const double fn = 0.25 * (v(k, j, i) + v(k, j + 1, i)) * (v(k, j, i) + v(k, j + 1, i));
            const double fs = 0.25 * (v(k, j - 1, i) + v(k, j, i)) * (v(k, j - 1, i) + v(k, j, i));
            const double ge =
                0.25 * (u(k, j - 1, i + 1) + u(k, j, i + 1)) * (v(k, j, i) + v(k, j, i + 1));
            const double gw = 0.25 * (u(k, j - 1, i) + u(k, j, i)) * (v(k, j, i - 1) + v(k, j, i));
            const double gt =
                0.25 * (w(k + 1, j - 1, i) + w(k + 1, j, i)) * (v(k, j, i) + v(k + 1, j, i));
            const double gb = 0.25 * (w(k, j - 1, i) + w(k, j, i)) * (v(k - 1, j, i) + v(k, j, i));
            rv(k, j, i) = -(ge - gw) * ihx - (fn - fs) * ihy - (gt - gb) * ihz + nu * lap(v);
          }
          if (zs + (k - oz) > 0) {  // w on the z-face (i, j, k − ½); its volume is dzc_k high
            const double lo = 0.5 * dz(k - 1) * idzc_b, hi = 0.5 * dz(k) * idzc_b;
            const double he = 0.5 * (lo * u(k - 1, j, i + 1) + hi * u(k, j, i + 1)) *
                              (w(k, j, i) + w(k, j, i + 1));
            const double hw =
                0.5 * (lo * u(k - 1, j, i) + hi * u(k, j, i)) * (w(k, j, i - 1) + w(k, j, i));
            const double hn = 0.5 * (lo * v(k - 1, j + 1, i) + hi * v(k, j + 1, i)) *
                              (w(k, j, i) + w(k, j + 1, i));
            const double hs =
                0.5 * (lo * v(k - 1, j, i) + hi * v(k, j, i)) * (w(k, j - 1, i) + w(k, j, i));
            const double ft = 0.25 * (w(k, j, i) + w(k + 1, j, i)) * (w(k, j, i) + w(k + 1, j, i));
            const double fb = 0.25 * (w(k - 1, j, i) + w(k, j, i)) * (w(k - 1, j, i) + w(k, j, i));
            const double lap_w = (w(k, j, i + 1) - 2 * w(k, j, i) + w(k, j, i - 1)) * ihx2 +
                                 (w(k, j + 1, i) - 2 * w(k, j, i) + w(k, j - 1, i)) * ihy2 +
                                 ((w(k + 1, j, i) - w(k, j, i)) / dz(k) -
                                  (w(k, j, i) - w(k - 1, j, i)) / dz(k - 1)) *
                                     idzc_b;
            const double conductive = 0.5 - 0.5 * (zc(k - 1) + zc(k));
            rw(k, j, i) = -(he - hw) * ihx - (hn - hs) * ihy - (ft - fb) * idzc_b + nu * lap_w +
                          0.5 * (b(k - 1, j, i) + b(k, j, i)) - conductive;
          } else {
            rw(k, j, i) = 0;
          }
          {  // b at the cell centre
            const double fe = u(k, j, i + 1) * 0.5 * (b(k, j, i) + b(k, j, i + 1));
            const double fw = u(k, j, i) * 0.5 * (b(k, j, i - 1) + b(k, j, i));
            const double fn = v(k, j + 1, i) * 0.5 * (b(k, j, i) + b(k, j + 1, i));
            const double fs = v(k, j, i) * 0.5 * (b(k, j - 1, i) + b(k, j, i));
            const double ft = w(k + 1, j, i) * 0.5 * (b(k, j, i) + b(k + 1, j, i));
            const double fb = w(k, j, i) * 0.5 * (b(k - 1, j, i) + b(k, j, i));
            rb(k, j, i) = -(fe - fw) * ihx - (fn - fs) * ihy - (ft - fb) * ihz + kappa * lap(b);
          }
        });
    const double a = kA[s];
    const Field3 u0 = u0_, v0 = v0_, w0 = w0_, b0 = b0_;
    Kokkos::parallel_for(
        "RayleighBenard3dSolver::update",
        Range3({oz_, oy_, ox_}, {oz_ + zm_, oy_ + ym_, ox_ + xm_}),
        KOKKOS_LAMBDA(long k, long j, long i) {
          u(k, j, i) = a * u0(k, j, i) + (1 - a) * (u(k, j, i) + dt * ru(k, j, i));
          v(k, j, i) = a * v0(k, j, i) + (1 - a) * (v(k, j, i) + dt * rv(k, j, i));
          w(k, j, i) = a * w0(k, j, i) + (1 - a) * (w(k, j, i) + dt * rw(k, j, i));
          b(k, j, i) = a * b0(k, j, i) + (1 - a) * (b(k, j, i) + dt * rb(k, j, i));
        });
  }
  {
    ScopedPhase phase(phase_seconds_, "halo");
    exchange(u_, Boundary::kU);
    exchange(v_, Boundary::kU);
    exchange(w_, Boundary::kW);
    exchange(b_, Boundary::kB);
  }
  project(s, dt, s == 2 ? 1 - kA[s] : 0.0);
}

void RayleighBenard3dSolver::project(int s, double dt, double weight) {
  const Field3 u = u_, v = v_, w = w_, div = div_;
  const Metric dz = dz_, dzc = dzc_;
  const double ihx = 1 / hx_, ihy = 1 / hy_, hx = hx_, hy = hy_, vol = hx_ * hy_ * hz_min_;
  const long ox = ox_, oy = oy_, oz = oz_;
  {
    ScopedPhase phase(phase_seconds_, "pressure");
    Kokkos::parallel_for(
        "RayleighBenard3dSolver::divergence", Range3({0, 0, 0}, {zm_, ym_, xm_}),
        KOKKOS_LAMBDA(long kk, long jj, long ii) {
          const long k = kk + oz, j = jj + oy, i = ii + ox;
          div(kk, jj, ii) = -(hx * hy * dz(k)) * ((u(k, j, i + 1) - u(k, j, i)) * ihx +
                                                  (v(k, j + 1, i) - v(k, j, i)) * ihy +
                                                  (w(k + 1, j, i) - w(k, j, i)) / dz(k));
        });
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), div);
    PetscScalar* rhs = nullptr;
    SURROX_PETSC_CHECK(VecGetArray(rhs_.get(), &rhs));
    std::copy(host.data(), host.data() + host.size(), rhs);
    SURROX_PETSC_CHECK(VecRestoreArray(rhs_.get(), &rhs));
    SURROX_PETSC_CHECK(MatNullSpaceRemove(null_space_.get(), rhs_.get()));
    SURROX_PETSC_CHECK(KSPSetTolerances(ksp_.get(), rtol_, divergence_tolerance_ * rate_ * vol,
                                        PETSC_DEFAULT, 10000));
    SURROX_PETSC_CHECK(KSPSolve(ksp_.get(), rhs_.get(), phi_[s].get()));
    KSPConvergedReason reason;
    SURROX_PETSC_CHECK(KSPGetConvergedReason(ksp_.get(), &reason));
    PetscInt its = 0;
    SURROX_PETSC_CHECK(KSPGetIterationNumber(ksp_.get(), &its));
    ksp_iterations_ += its;
    ++ksp_solves_;
    if (reason < 0)
      throw Error(fmt::format("the pressure solve failed at step {} (KSP reason {})", step_ + 1,
                              static_cast<int>(reason)));
    auto phi_host = Kokkos::create_mirror_view(phi_local_);
    SURROX_PETSC_CHECK(VecPlaceArray(local_.get(), phi_host.data()));
    SURROX_PETSC_CHECK(DMGlobalToLocal(da_.get(), phi_[s].get(), INSERT_VALUES, local_.get()));
    SURROX_PETSC_CHECK(VecResetArray(local_.get()));
    Kokkos::deep_copy(phi_local_, phi_host);
    apply_walls(phi_local_, Boundary::kP);
  }
  const Field3 phi = phi_local_, p = p_;
  const long zs = zs_;
  const double to_pressure = weight > 0 ? 1.0 / (weight * dt) : 0.0;
  Kokkos::parallel_for(
      "RayleighBenard3dSolver::correct", Range3({oz_, oy_, ox_}, {oz_ + zm_, oy_ + ym_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long j, long i) {
        u(k, j, i) -= (phi(k, j, i) - phi(k, j, i - 1)) * ihx;
        v(k, j, i) -= (phi(k, j, i) - phi(k, j - 1, i)) * ihy;
        if (zs + (k - oz) > 0) w(k, j, i) -= (phi(k, j, i) - phi(k - 1, j, i)) / dzc(k);
        if (to_pressure != 0.0) p(k, j, i) = phi(k, j, i) * to_pressure;
      });
  exchange(u_, Boundary::kU);
  exchange(v_, Boundary::kU);
  exchange(w_, Boundary::kW);
}

StepReport RayleighBenard3dSolver::advance() {
  const double limit = stable_dt();
  if (!std::isfinite(limit))
    throw Error(
        fmt::format("the run blew up at step {} (t = {:.6g}): non-finite velocity", step_, time_));
  double target = end_time_;
  if (requested_stop_ > time_) target = std::min(target, requested_stop_);
  const auto [dt, lands] = detail::land_step(std::min(cfl_ * limit, max_dt_), time_, target, step_ + 1);
  Kokkos::deep_copy(u0_, u_);
  Kokkos::deep_copy(v0_, v_);
  Kokkos::deep_copy(w0_, w_);
  Kokkos::deep_copy(b0_, b_);
  for (int s = 0; s < 3; ++s) stage(s, dt);
  ++step_;
  time_ = lands ? target : time_ + dt;
  dt_ = dt;
  const Diagnostics now = instantaneous();
  residual_ = now.at("max_divergence");
  if (!std::isfinite(now.at("kinetic_energy")))
    throw Error(
        fmt::format("the run blew up at step {} (t = {:.6g}, dt = {:.3g}): non-finite fields",
                    step_, time_, dt_));
  if (time_ > average_from_) {
    const double span = std::min(dt_, time_ - average_from_);
    for (const char* name : kFigures) sums_[name] += span * now.at(name);
    averaged_time_ += span;
  }
  return {step_, time_, dt_};
}

Diagnostics RayleighBenard3dSolver::instantaneous() const {
  // Volume-weighted sums per unit horizontal cell (weights dz_k at cell heights, dzc_k at
  // interior z-faces, dz/2 for the wall half-cells), as in the 2D solver.
  const Field3 u = u_, v = v_, w = w_, b = b_;
  const Metric dz = dz_, dzc = dzc_;
  const double ihx = 1 / hx_, ihy = 1 / hy_;
  const long zs = zs_, oz = oz_, nz = nz_;
  Sums sums;
  Kokkos::parallel_reduce(
      "RayleighBenard3dSolver::figures", Range3({oz_, oy_, ox_}, {oz_ + zm_, oy_ + ym_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long j, long i, Sums& s) {
        const long kg = zs + (k - oz);
        const double hk = dz(k), hc = dzc(k), ihz = 1 / hk, ihc = 1 / hc;
        if (kg == 0) s.v[0] += (0.5 - b(k, j, i)) * 2 * ihz;
        if (kg == nz - 1) s.v[1] += (b(k, j, i) + 0.5) * 2 * ihz;
        if (kg > 0) s.v[2] += w(k, j, i) * 0.5 * (b(k - 1, j, i) + b(k, j, i)) * hc;
        auto sq = [](double x) { return x * x; };
        double g = 0;
        // Horizontal components: all x and y differences; z differences on interior faces
        // and one-sided at the walls (half cells).
        auto horizontal = [&](const Field3& q) {
          double r =
              (sq((q(k, j, i + 1) - q(k, j, i)) * ihx) + sq((q(k, j + 1, i) - q(k, j, i)) * ihy)) *
              hk;
          if (kg > 0)
            r += sq((q(k, j, i) - q(k - 1, j, i)) * ihc) * hc;
          else
            r += 0.5 * hk * sq(2 * q(k, j, i) * ihz);
          if (kg == nz - 1) r += 0.5 * hk * sq(2 * q(k, j, i) * ihz);
          return r;
        };
        g += horizontal(u) + horizontal(v);
        g += sq((w(k + 1, j, i) - w(k, j, i)) * ihz) * hk;
        if (kg > 0)
          g += (sq((w(k, j, i) - w(k, j, i - 1)) * ihx) + sq((w(k, j, i) - w(k, j - 1, i)) * ihy)) *
               hc;
        s.v[3] += g;
        double h =
            (sq((b(k, j, i) - b(k, j, i - 1)) * ihx) + sq((b(k, j, i) - b(k, j - 1, i)) * ihy)) *
            hk;
        if (kg > 0)
          h += sq((b(k, j, i) - b(k - 1, j, i)) * ihc) * hc;
        else
          h += 0.5 * hk * sq((b(k, j, i) - 0.5) * 2 * ihz);
        if (kg == nz - 1) h += 0.5 * hk * sq((-0.5 - b(k, j, i)) * 2 * ihz);
        s.v[4] += h;
        s.v[5] += (sq(u(k, j, i)) + sq(v(k, j, i))) * hk + (kg > 0 ? sq(w(k, j, i)) * hc : 0.0);
      },
      sums);
  double div_max = 0, speed_max = 0;
  Kokkos::parallel_reduce(
      "RayleighBenard3dSolver::maxima", Range3({oz_, oy_, ox_}, {oz_ + zm_, oy_ + ym_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long j, long i, double& m) {
        const double d =
            fabs((u(k, j, i + 1) - u(k, j, i)) * ihx + (v(k, j + 1, i) - v(k, j, i)) * ihy +
                 (w(k + 1, j, i) - w(k, j, i)) / dz(k));
        if (!(d <= m)) m = d;
      },
      Kokkos::Max<double>(div_max));
  Kokkos::parallel_reduce(
      "RayleighBenard3dSolver::speed", Range3({oz_, oy_, ox_}, {oz_ + zm_, oy_ + ym_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long j, long i, double& m) {
        const double s = fmax(fabs(u(k, j, i)), fmax(fabs(v(k, j, i)), fabs(w(k, j, i))));
        if (!(s <= m)) m = s;
      },
      Kokkos::Max<double>(speed_max));
  double local[6], total[6];
  for (int n = 0; n < 6; ++n) local[n] = sums.v[n];
  MPI_Allreduce(local, total, 6, MPI_DOUBLE, MPI_SUM, comm_);
  double maxima[2] = {div_max, speed_max}, gmax[2];
  MPI_Allreduce(maxima, gmax, 2, MPI_DOUBLE, MPI_MAX, comm_);
  // Layer height 1: the volume per horizontal cell is 1, so dividing by the columns averages.
  const double cells = static_cast<double>(nx_ * ny_), plates = static_cast<double>(nx_ * ny_);
  const double h = std::min({hx_, hy_, hz_min_});
  Diagnostics d;
  d["nu_bottom"] = total[0] / plates;
  d["nu_top"] = total[1] / plates;
  d["nu_volume"] = 1 + std::sqrt(ra_ * pr_) * total[2] / cells;
  d["nu_kinetic"] = 1 + pr_ * total[3] / cells;
  d["nu_thermal"] = total[4] / cells;
  d["kinetic_energy"] = 0.5 * total[5] / cells;
  d["u_rms"] = std::sqrt(total[5] / cells);
  d["max_divergence"] = gmax[1] > 0 ? gmax[0] * h / gmax[1] : gmax[0] * h;
  return d;
}

Diagnostics RayleighBenard3dSolver::diagnostics() const {
  Diagnostics d = instantaneous();
  d["dt"] = dt_;
  d["rayleigh"] = ra_;
  d["prandtl"] = pr_;
  d["pressure_iterations_per_solve"] =
      ksp_solves_ > 0 ? double(ksp_iterations_) / double(ksp_solves_) : 0.0;
  if (averaged_time_ > 0) {
    for (const char* name : kFigures)
      d[std::string("mean_") + name] = sums_.at(name) / averaged_time_;
    d["averaged_time"] = averaged_time_;
  }
  return d;
}

io::MeshData RayleighBenard3dSolver::output_mesh() const {
  // Cell data on the image of cell corners: neighbouring pieces share their boundary points,
  // so partitioned files tile without gaps (see RayleighBenardSolver::output_mesh).
  // A stretched grid is a structured grid whose points carry the face heights.
  io::MeshData mesh;
  mesh.extent = {xs_, xs_ + xm_, ys_, ys_ + ym_, zs_, zs_ + zm_};
  if (stretching_ == 0) {
    mesh.kind = io::MeshKind::kImage;
    mesh.origin = {0, 0, 0};
    mesh.spacing = {hx_, hy_, 1.0 / static_cast<double>(nz_)};
  } else {
    mesh.kind = io::MeshKind::kStructured;
    mesh.points = io::HostArray("RB3::points", (xm_ + 1) * (ym_ + 1) * (zm_ + 1), 3);
    long point = 0;
    for (long k = zs_; k <= zs_ + zm_; ++k)
      for (long j = ys_; j <= ys_ + ym_; ++j)
        for (long i = xs_; i <= xs_ + xm_; ++i, ++point) {
          mesh.points(point, 0) = static_cast<double>(i) * hx_;
          mesh.points(point, 1) = static_cast<double>(j) * hy_;
          mesh.points(point, 2) = z_faces_[k];
        }
  }
  const long n = xm_ * ym_ * zm_;
  auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_);
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v_);
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w_);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b_);
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p_);
  io::HostArray pa("RB3::p", n, 1), ba("RB3::b", n, 1), ua("RB3::u", n, 1), va("RB3::v", n, 1),
      wa("RB3::w", n, 1);
  long row = 0;
  for (long k = oz_; k < oz_ + zm_; ++k)
    for (long j = oy_; j < oy_ + ym_; ++j)
      for (long i = ox_; i < ox_ + xm_; ++i, ++row) {
        pa(row, 0) = p(k, j, i);
        ba(row, 0) = b(k, j, i);
        ua(row, 0) = 0.5 * (u(k, j, i) + u(k, j, i + 1));
        va(row, 0) = 0.5 * (v(k, j, i) + v(k, j + 1, i));
        wa(row, 0) = 0.5 * (w(k, j, i) + w(k + 1, j, i));
      }
  mesh.cell_data = {{"p", pa}, {"b", ba}, {"u", ua}, {"v", va}, {"w", wa}};
  return mesh;
}

void RayleighBenard3dSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["time"] = time_;
  checkpoint.scalars["step"] = static_cast<double>(step_);
  checkpoint.scalars["dt"] = dt_;
  checkpoint.scalars["averaged_time"] = averaged_time_;
  for (const auto& [name, sum] : sums_) checkpoint.scalars["sum_" + name] = sum;
  auto save = [&](const std::string& name, const Field3& f) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    io::HostArray a("RB3::" + name, host.size(), 1);
    std::copy(host.data(), host.data() + host.size(), a.data());
    checkpoint.arrays.push_back({name, a});
  };
  save("u", u_), save("v", v_), save("w", w_), save("b", b_), save("p", p_);
  for (int s = 0; s < 3; ++s) {
    const PetscScalar* x = nullptr;
    PetscInt n = 0;
    SURROX_PETSC_CHECK(VecGetLocalSize(phi_[s].get(), &n));
    SURROX_PETSC_CHECK(VecGetArrayRead(phi_[s].get(), &x));
    io::HostArray a("RB3::phi", n, 1);
    std::copy(x, x + n, a.data());
    SURROX_PETSC_CHECK(VecRestoreArrayRead(phi_[s].get(), &x));
    checkpoint.arrays.push_back({"phi" + std::to_string(s), a});
  }
}

void RayleighBenard3dSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  time_ = checkpoint.scalar("time");
  step_ = static_cast<long>(checkpoint.scalar("step"));
  dt_ = checkpoint.scalar("dt");
  averaged_time_ = checkpoint.scalar("averaged_time");
  for (auto& [name, sum] : sums_) sum = checkpoint.scalar("sum_" + name);
  auto load = [&](const std::string& name, Field3 f) {
    const io::NamedArray& a = checkpoint.array(name);
    if (a.tuples() != f.size())
      throw InputError("checkpoint array '" + name +
                       "' does not match this grid and decomposition");
    auto host = Kokkos::create_mirror_view(f);
    std::copy(a.values.data(), a.values.data() + f.size(), host.data());
    Kokkos::deep_copy(f, host);
  };
  load("u", u_), load("v", v_), load("w", w_), load("b", b_), load("p", p_);
  for (int s = 0; s < 3; ++s) {
    const io::NamedArray& a = checkpoint.array("phi" + std::to_string(s));
    PetscScalar* x = nullptr;
    PetscInt n = 0;
    SURROX_PETSC_CHECK(VecGetLocalSize(phi_[s].get(), &n));
    if (static_cast<PetscInt>(a.tuples()) != n)
      throw InputError("checkpoint array 'phi' does not match");
    SURROX_PETSC_CHECK(VecGetArray(phi_[s].get(), &x));
    std::copy(a.values.data(), a.values.data() + n, x);
    SURROX_PETSC_CHECK(VecRestoreArray(phi_[s].get(), &x));
  }
}

}  // namespace surrox::solvers::rayleigh_benard

#include "solvers/rayleigh_benard/rb_solver.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <fstream>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/rayleigh_benard/rb_common.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

using detail::kFigures;
using solvers::ScopedPhase;
using detail::Sums;

using Range2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;

}  // namespace

Schema RayleighBenardSolver::schema() {
  Schema s(
      "Rayleigh–Bénard convection (Boussinesq, free-fall units) on a MAC grid with PETSc "
      "pressure projection; periodic in x, no-slip walls at z = 0 and 1.");
  s.real("rayleigh", "Rayleigh number Ra").above(0).fallback("1e6");
  s.real("prandtl", "Prandtl number Pr").above(0).fallback("1.0");
  s.reals("length", "domain size [Lx, Lz]; Lz = 1 is the unit of length")
      .sized(2)
      .fallback("[4.0, 1.0]");
  s.integers("cells", "cells [nx, nz]").sized(2).at_least(1).fallback("[512, 128]");
  s.real("end_time", "simulated time to reach (free-fall units)").above(0).fallback("50.0");
  s.real("cfl", "time step as a fraction of the stable SSP-RK3 limit (advective and diffusive)")
      .above(0)
      .at_most(1)
      .fallback("0.8");
  s.real("max_dt", "largest time step").above(0).fallback("0.05");
  s.real("stretching",
         "wall-normal clustering γ: cell faces z_k = ½(1 + tanh(γ(2k/nz − 1))/tanh γ), "
         "k = 0…nz, centres midway; the wall cell is ≈ 2γ/sinh 2γ of a uniform one (γ = 1.5: "
         "0.30) for large nz. 0: uniform")
      .at_least(0)
      .at_most(4)
      .fallback("0");
  s.choice("initial", {"random", "mode"},
           "initial perturbation of the conductive profile, a function of position (the same "
           "on every grid): random: b' = A M^-1/2 Σ a cos(2πlx/Lx + θ) sin(nπz) over "
           "l ≤ 4Lx, n ≤ 4 with seeded a, θ; mode: b' = A cos(2πx/Lx) sin(πz)")
      .fallback("random");
  s.real("amplitude", "amplitude A of the initial buoyancy perturbation")
      .at_least(0)
      .fallback("1e-3");
  s.integer("seed", "seed of the random perturbation").at_least(0).fallback("42");
  s.real("average_from", "start of the time-averaging window for summary.json")
      .at_least(0)
      .fallback("0");
  s.real("steady_tolerance",
         "stop early when |dNu/dt| (bottom plate) falls below this; 0: run to end_time")
      .at_least(0)
      .fallback("0");
  Schema pressure("PETSc KSP for the pressure Poisson equation (options prefix -pressure_).");
  pressure
      .string("ksp_type",
              "KSP type; \"auto\": preonly (a direct factorisation needs no iterations)")
      .fallback("auto");
  pressure
      .string("pc_type",
              "PC type; \"auto\": LU with nested-dissection ordering on one rank, the same LU "
              "redundantly "
              "on every rank on several (the fastest measured, docs/performance_rb.md); or gamg, "
              "hypre, ...")
      .fallback("auto");
  pressure.real("rtol", "relative residual tolerance (to the right-hand side)")
      .above(0)
      .fallback("1e-12");
  pressure
      .real("divergence_tolerance",
            "absolute tolerance: stop when max|∇·u| after the projection is below this times U/h")
      .above(0)
      .fallback("1e-11");
  pressure.string("options", "extra PETSc options, e.g. \"-pressure_pc_mg_levels 4\"")
      .fallback("\"\"");
  s.section("pressure", pressure, "pressure solver");
  return s;
}

void RayleighBenardSolver::initialize(const CaseNode& config, Runtime& runtime) {
  comm_ = runtime.comm();
  ranks_ = runtime.size();
  ra_ = config.real("rayleigh");
  pr_ = config.real("prandtl");
  const auto length = config.reals("length");
  lx_ = length[0];
  lz_ = length[1];
  if (lx_ <= 0 || lz_ <= 0) config.fail("length", "needs positive lengths");
  if (std::fabs(lz_ - 1.0) > 1e-12)
    config.fail("length", "Lz must be 1 (the unit of length in free-fall units)");
  const auto cells = config.integers("cells");
  if (cells[0] < 4 || cells[1] < 4) config.fail("cells", "needs at least 4 cells per direction");
  nx_ = cells[0];
  nz_ = cells[1];
  end_time_ = config.real("end_time");
  cfl_ = config.real("cfl");
  max_dt_ = config.real("max_dt");
  average_from_ = config.real("average_from");
  steady_tolerance_ = config.real("steady_tolerance");
  stretching_ = config.real("stretching");
  hx_ = lx_ / static_cast<double>(nx_);
  const detail::WallNormalGrid grid(nz_, stretching_);
  hz_min_ = grid.min_dz();
  z_diffusion_bound_ = grid.diffusion_bound();
  zc_global_.resize(nz_);
  z_faces_.resize(nz_ + 1);
  for (long k = 0; k < nz_; ++k) zc_global_[k] = grid.zc(k);
  for (long k = 0; k <= nz_; ++k) z_faces_[k] = grid.face(k);
  nu_ = std::sqrt(pr_ / ra_);
  kappa_ = 1.0 / std::sqrt(ra_ * pr_);

  // The DMDA distributes everything: periodic in x, ghosted (walls) in z, box stencil width 1.
  SURROX_PETSC_CHECK(DMDACreate2d(comm_, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_GHOSTED,
                                  DMDA_STENCIL_BOX, static_cast<PetscInt>(nx_),
                                  static_cast<PetscInt>(nz_), PETSC_DECIDE, PETSC_DECIDE, 1, 1,
                                  nullptr, nullptr, da_.out()));
  SURROX_PETSC_CHECK(DMSetUp(da_.get()));
  {
    PetscInt c[4], g[4];
    SURROX_PETSC_CHECK(DMDAGetCorners(da_.get(), &c[0], &c[1], nullptr, &c[2], &c[3], nullptr));
    SURROX_PETSC_CHECK(
        DMDAGetGhostCorners(da_.get(), &g[0], &g[1], nullptr, &g[2], &g[3], nullptr));
    xs_ = c[0], zs_ = c[1], xm_ = c[2], zm_ = c[3];
    gxs_ = g[0], gzs_ = g[1], gxm_ = g[2], gzm_ = g[3];
  }
  if (xm_ < 2 || zm_ < 2)
    config.fail(
        "cells",
        fmt::format("too few cells for {} ranks: each needs at least 2 per direction", ranks_));
  ox_ = xs_ - gxs_;
  oz_ = zs_ - gzs_;
  SURROX_PETSC_CHECK(DMCreateLocalVector(da_.get(), local_.out()));
  SURROX_PETSC_CHECK(DMCreateGlobalVector(da_.get(), global_.out()));
  SURROX_PETSC_CHECK(DMCreateGlobalVector(da_.get(), rhs_.out()));
  for (auto& phi : phi_) {
    SURROX_PETSC_CHECK(DMCreateGlobalVector(da_.get(), phi.out()));
    SURROX_PETSC_CHECK(VecSet(phi.get(), 0.0));
  }

  // The Poisson matrix −D G scaled by the cell areas hx dz_k, with Neumann walls: the z
  // coupling of cells k and k+1 is hx/dzc_{k+1} from both sides, so it stays symmetric
  // positive semi-definite on a stretched grid.
  // Preallocate only: the box stencil's pattern would otherwise be stored as explicit zeros,
  // which adds fill to factorisations and edges to algebraic multigrid.
  SURROX_PETSC_CHECK(DMSetMatrixPreallocateOnly(da_.get(), PETSC_TRUE));
  SURROX_PETSC_CHECK(DMCreateMatrix(da_.get(), matrix_.out()));
  {
    for (PetscInt k = static_cast<PetscInt>(zs_); k < zs_ + zm_; ++k)
      for (PetscInt i = static_cast<PetscInt>(xs_); i < xs_ + xm_; ++i) {
        const double cx = grid.dz(k) / hx_, cb = hx_ / grid.dzc(k), ct = hx_ / grid.dzc(k + 1);
        MatStencil row{}, cols[5]{};
        PetscScalar vals[5];
        row.i = i;
        row.j = k;
        int n = 0;
        double diag = 2 * cx;
        cols[n].i = i - 1, cols[n].j = k, vals[n++] = -cx;
        cols[n].i = i + 1, cols[n].j = k, vals[n++] = -cx;
        if (k > 0) cols[n].i = i, cols[n].j = k - 1, vals[n++] = -cb, diag += cb;
        if (k < nz_ - 1) cols[n].i = i, cols[n].j = k + 1, vals[n++] = -ct, diag += ct;
        cols[n].i = i, cols[n].j = k, vals[n++] = diag;
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
  SURROX_PETSC_CHECK(
      KSPSetDM(ksp_.get(), da_.get()));  // geometric MG (pc_type mg) coarsens the DMDA
  SURROX_PETSC_CHECK(KSPSetDMActive(ksp_.get(), PETSC_FALSE));
  {
    std::string ksp_type = pressure.string("ksp_type"), pc_type = pressure.string("pc_type");
    const bool auto_pc = pc_type == "auto";
    if (ksp_type == "auto") ksp_type = auto_pc ? KSPPREONLY : KSPCG;
    if (auto_pc) pc_type = ranks_ == 1 ? PCLU : PCREDUNDANT;
    if (KSPSetType(ksp_.get(), ksp_type.c_str()) != 0)
      pressure.fail("ksp_type", "unknown PETSc KSP type");
    PC pc;
    SURROX_PETSC_CHECK(KSPGetPC(ksp_.get(), &pc));
    if (PCSetType(pc, pc_type.c_str()) != 0)
      pressure.fail("pc_type", "unknown or unavailable PETSc PC type");
    if (auto_pc && ranks_ == 1) {
      // The operator is singular (constant null space): a nonzero shift replaces the one zero
      // pivot; the right-hand side is consistent, so only the arbitrary constant is affected.
      SURROX_PETSC_CHECK(PCFactorSetMatOrderingType(pc, MATORDERINGND));
      SURROX_PETSC_CHECK(PCFactorSetShiftType(pc, MAT_SHIFT_NONZERO));
    } else if (auto_pc) {
      // Several ranks: every rank factors the whole (small) operator once and solves it
      // redundantly; measured faster here than MUMPS or SuperLU_DIST (docs/performance_rb.md).
      SURROX_PETSC_CHECK(PetscOptionsInsertString(
          nullptr,
          "-pressure_redundant_pc_type lu -pressure_redundant_pc_factor_mat_ordering_type nd "
          "-pressure_redundant_pc_factor_shift_type nonzero"));
    }
    SURROX_PETSC_CHECK(
        KSPSetTolerances(ksp_.get(), pressure.real("rtol"), PETSC_DEFAULT, PETSC_DEFAULT, 10000));
    rtol_ = pressure.real("rtol");
    divergence_tolerance_ = pressure.real("divergence_tolerance");
    const std::string options = pressure.string("options");
    if (!options.empty() && PetscOptionsInsertString(nullptr, options.c_str()) != 0)
      pressure.fail("options", "PETSc cannot parse these options");
    SURROX_PETSC_CHECK(KSPSetFromOptions(ksp_.get()));
    // Warm starts from the previous step's potential for the same stage (not for preonly).
    KSPType type = nullptr;
    SURROX_PETSC_CHECK(KSPGetType(ksp_.get(), &type));
    SURROX_PETSC_CHECK(KSPSetInitialGuessNonzero(
        ksp_.get(), std::string(type) == KSPPREONLY ? PETSC_FALSE : PETSC_TRUE));
    SURROX_PETSC_CHECK(KSPSetUp(ksp_.get()));
  }

  auto make = [&](const char* name) {
    Field2 f(std::string(name), gzm_, gxm_);
    return f;
  };
  u_ = make("RB::u"), w_ = make("RB::w"), b_ = make("RB::b"), p_ = make("RB::p");
  u0_ = make("RB::u0"), w0_ = make("RB::w0"), b0_ = make("RB::b0");
  ru_ = make("RB::ru"), rw_ = make("RB::rw"), rb_ = make("RB::rb"), phi_local_ = make("RB::phi");
  div_ = Field2("RB::div", zm_, xm_);
  {
    dz_ = Metric("RB::dz", gzm_), dzc_ = Metric("RB::dzc", gzm_), zc_ = Metric("RB::zc", gzm_);
    iw_ = Metric("RB::iw", gzm_);
    auto dz = Kokkos::create_mirror_view(dz_), dzc = Kokkos::create_mirror_view(dzc_),
         zc = Kokkos::create_mirror_view(zc_), iw = Kokkos::create_mirror_view(iw_);
    for (long r = 0; r < gzm_; ++r) {
      const long k = gzs_ + r;
      dz(r) = grid.dz(k), dzc(r) = grid.dzc(k), zc(r) = grid.zc(k);
      iw(r) = 1 / std::min(grid.dz(k - 1), grid.dz(k));
    }
    Kokkos::deep_copy(dz_, dz), Kokkos::deep_copy(dzc_, dzc), Kokkos::deep_copy(zc_, zc);
    Kokkos::deep_copy(iw_, iw);
  }

  // Conduction profile b = ½ − z plus the perturbation, which vanishes at the walls and is a
  // function of the position only (the same continuous field on any grid and decomposition).
  {
    const bool mode = config.string("initial") == "mode";
    const double amplitude = config.real("amplitude");
    const detail::SmoothPerturbation noise(static_cast<std::uint64_t>(config.integer("seed")), lx_,
                                           0.0, 0.25);
    const long ox = ox_, oz = oz_, xs = xs_;
    const double hx = hx_, lx = lx_;
    const Field2 b = b_;
    const Metric zc = zc_;
    Kokkos::parallel_for(
        "RayleighBenardSolver::initial", Range2({0, 0}, {zm_, xm_}),
        KOKKOS_LAMBDA(long kk, long ii) {
          const long i = xs + ii;
          const double x = (i + 0.5) * hx, z = zc(kk + oz);
          const double shape = mode ? cos(2 * M_PI * x / lx) * sin(M_PI * z) : noise(x, 0.0, z);
          b(kk + oz, ii + ox) = 0.5 - z + amplitude * shape;
        });
  }
  exchange(u_, Boundary::kU);
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
  // FieldSet holds rank-3 Views: expose the ghosted 2D arrays as (1, z, x) views sharing memory.
  state_ = FieldSet();
  for (auto [name, f] : {std::pair{"u", u_}, {"w", w_}, {"b", b_}, {"p", p_}})
    state_.add(name, Field3(f.data(), 1, f.extent(0), f.extent(1)));
}

double RayleighBenardSolver::global_sum(double v) const {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return out;
}

double RayleighBenardSolver::global_max(double v) const {
  // NaN must win: reduce a flag alongside the maximum.
  double pair[2] = {std::isnan(v) ? 0.0 : v, std::isnan(v) ? 1.0 : 0.0}, out[2];
  MPI_Allreduce(pair, out, 2, MPI_DOUBLE, MPI_MAX, comm_);
  return out[1] > 0 ? NAN : out[0];
}

void RayleighBenardSolver::apply_walls(Field2 f, Boundary kind) const {
  const bool bottom = zs_ == 0, top = zs_ + zm_ == nz_;
  const long lo = oz_, hi = oz_ + zm_ - 1;  // first and last owned rows
  Kokkos::parallel_for(
      "RayleighBenardSolver::walls", Kokkos::RangePolicy<>(0, gxm_), KOKKOS_LAMBDA(long i) {
        if (bottom) {
          switch (kind) {
            case Boundary::kU:
              f(lo - 1, i) = -f(lo, i);
              break;
            case Boundary::kW:
              f(lo, i) = 0;
              f(lo - 1, i) = -f(lo + 1, i);
              break;
            case Boundary::kB:
              f(lo - 1, i) = 1.0 - f(lo, i);
              break;
            case Boundary::kP:
              f(lo - 1, i) = f(lo, i);
              break;
          }
        }
        if (top) {
          switch (kind) {
            case Boundary::kU:
              f(hi + 1, i) = -f(hi, i);
              break;
            case Boundary::kW:
              f(hi + 1, i) = 0;
              break;
            case Boundary::kB:
              f(hi + 1, i) = -1.0 - f(hi, i);
              break;
            case Boundary::kP:
              f(hi + 1, i) = f(hi, i);
              break;
          }
        }
      });
}

void RayleighBenardSolver::exchange(Field2 f, Boundary kind) const {
  auto host = Kokkos::create_mirror_view(f);
  Kokkos::deep_copy(host, f);
  // Owned values into the global vector (DMLocalToGlobal cannot insert with periodic x).
  PetscScalar* owned = nullptr;
  SURROX_PETSC_CHECK(VecGetArray(global_.get(), &owned));
  for (long k = 0; k < zm_; ++k)
    std::copy(&host(k + oz_, ox_), &host(k + oz_, ox_) + xm_, owned + k * xm_);
  SURROX_PETSC_CHECK(VecRestoreArray(global_.get(), &owned));
  SURROX_PETSC_CHECK(VecPlaceArray(local_.get(), host.data()));
  SURROX_PETSC_CHECK(DMGlobalToLocal(da_.get(), global_.get(), INSERT_VALUES, local_.get()));
  SURROX_PETSC_CHECK(VecResetArray(local_.get()));
  Kokkos::deep_copy(f, host);
  apply_walls(f, kind);
}

void RayleighBenardSolver::compute_rhs() {
  // Finite volumes: u's is hx × dz_k around (i hx, zc_k), w's hx × dzc_k around (x_{i+½}, z_k),
  // b's the cell. Advected values are arithmetic means and mass fluxes exact sums over the
  // control-volume faces, so advection stays skew-symmetric (energy-conserving) on a stretched
  // grid; diffusion is the flux difference of centred gradients over the control volume.
  const Field2 u = u_, w = w_, b = b_, ru = ru_, rw = rw_, rb = rb_;
  const Metric dz = dz_, dzc = dzc_, zc = zc_;
  const double ihx = 1 / hx_, ihx2 = ihx * ihx, nu = nu_, kappa = kappa_;
  const long zs = zs_, oz = oz_;
  Kokkos::parallel_for(
      "RayleighBenardSolver::rhs", Range2({oz_, ox_}, {oz_ + zm_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long i) {
        const double idz = 1 / dz(k), idzc_b = 1 / dzc(k), idzc_t = 1 / dzc(k + 1);
        // u on the face x = i hx, z = zc_k.
        {
          const double fe = 0.25 * (u(k, i) + u(k, i + 1)) * (u(k, i) + u(k, i + 1));
          const double fw = 0.25 * (u(k, i - 1) + u(k, i)) * (u(k, i - 1) + u(k, i));
          const double gt = 0.25 * (w(k + 1, i - 1) + w(k + 1, i)) * (u(k, i) + u(k + 1, i));
          const double gb = 0.25 * (w(k, i - 1) + w(k, i)) * (u(k - 1, i) + u(k, i));
          const double lap =
              (u(k, i + 1) - 2 * u(k, i) + u(k, i - 1)) * ihx2 +
              ((u(k + 1, i) - u(k, i)) * idzc_t - (u(k, i) - u(k - 1, i)) * idzc_b) * idz;
          ru(k, i) = -(fe - fw) * ihx - (gt - gb) * idz + nu * lap;
        }
        // w on the face x = (i + ½) hx, z = z_k (k = 0 is the wall).
        if (zs + (k - oz) > 0) {
          // u through the east/west faces of w's volume: the dz-weighted mean of the two halves.
          const double lo = 0.5 * dz(k - 1) * idzc_b, hi = 0.5 * dz(k) * idzc_b;
          const double he =
              0.5 * (lo * u(k - 1, i + 1) + hi * u(k, i + 1)) * (w(k, i) + w(k, i + 1));
          const double hw = 0.5 * (lo * u(k - 1, i) + hi * u(k, i)) * (w(k, i - 1) + w(k, i));
          const double ft = 0.25 * (w(k, i) + w(k + 1, i)) * (w(k, i) + w(k + 1, i));
          const double fb = 0.25 * (w(k - 1, i) + w(k, i)) * (w(k - 1, i) + w(k, i));
          const double lap =
              (w(k, i + 1) - 2 * w(k, i) + w(k, i - 1)) * ihx2 +
              ((w(k + 1, i) - w(k, i)) / dz(k) - (w(k, i) - w(k - 1, i)) / dz(k - 1)) * idzc_b;
          // Buoyancy less the conductive profile ½ − z interpolated the same way: that part is a
          // discrete gradient that the projection would remove anyway, and leaving it out keeps
          // the Poisson residual (hence ∇·u) small relative to the velocity even while the
          // flow is still weak.
          const double conductive = 0.5 - 0.5 * (zc(k - 1) + zc(k));
          rw(k, i) = -(he - hw) * ihx - (ft - fb) * idzc_b + nu * lap +
                     0.5 * (b(k - 1, i) + b(k, i)) - conductive;
        } else {
          rw(k, i) = 0;
        }
        // b at the cell centre; the wall faces carry no advective flux (w = 0 there).
        {
          const double fe = u(k, i + 1) * 0.5 * (b(k, i) + b(k, i + 1));
          const double fw = u(k, i) * 0.5 * (b(k, i - 1) + b(k, i));
          const double ft = w(k + 1, i) * 0.5 * (b(k, i) + b(k + 1, i));
          const double fb = w(k, i) * 0.5 * (b(k - 1, i) + b(k, i));
          const double lap =
              (b(k, i + 1) - 2 * b(k, i) + b(k, i - 1)) * ihx2 +
              ((b(k + 1, i) - b(k, i)) * idzc_t - (b(k, i) - b(k - 1, i)) * idzc_b) * idz;
          rb(k, i) = -(fe - fw) * ihx - (ft - fb) * idz + kappa * lap;
        }
      });
}

void RayleighBenardSolver::project(int s, double dt, double weight) {
  const Field2 u = u_, w = w_, div = div_;
  const Metric dz = dz_, dzc = dzc_;
  const double hx = hx_, ihx = 1 / hx_, area = hx_ * hz_min_;
  const long oz = oz_, ox = ox_;
  {
    ScopedPhase phase(phase_seconds_, "pressure");
    // Right-hand side −(∇·u*)·hx dz_k of the scaled system (the net outflow of the cell).
    Kokkos::parallel_for(
        "RayleighBenardSolver::divergence", Range2({0, 0}, {zm_, xm_}),
        KOKKOS_LAMBDA(long kk, long ii) {
          const long k = kk + oz, i = ii + ox;
          div(kk, ii) = -((u(k, i + 1) - u(k, i)) * dz(k) + (w(k + 1, i) - w(k, i)) * hx);
        });
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), div);
    PetscScalar* rhs = nullptr;
    SURROX_PETSC_CHECK(VecGetArray(rhs_.get(), &rhs));
    std::copy(host.data(), host.data() + host.size(), rhs);
    SURROX_PETSC_CHECK(VecRestoreArray(rhs_.get(), &rhs));
    SURROX_PETSC_CHECK(MatNullSpaceRemove(null_space_.get(), rhs_.get()));
    // ‖r‖₂ ≥ max|r| ≥ hx min(dz) max|∇·u|, and rate_ = max(|u|/hx + |w|/dz) ≥ U/h.
    SURROX_PETSC_CHECK(KSPSetTolerances(ksp_.get(), rtol_, divergence_tolerance_ * rate_ * area,
                                        PETSC_DEFAULT, 10000));
    SURROX_PETSC_CHECK(KSPSolve(ksp_.get(), rhs_.get(), phi_[s].get()));
    KSPConvergedReason reason;
    SURROX_PETSC_CHECK(KSPGetConvergedReason(ksp_.get(), &reason));
    PetscInt its = 0;
    SURROX_PETSC_CHECK(KSPGetIterationNumber(ksp_.get(), &its));
    ksp_iterations_ += its;
    ++ksp_solves_;
    if (reason < 0)
      throw Error(
          fmt::format("the pressure solve failed at step {} (KSP reason {}, {} iterations); "
                      "try other solver.pressure options",
                      step_ + 1, static_cast<int>(reason), static_cast<long>(its)));
    auto phi_host = Kokkos::create_mirror_view(phi_local_);
    SURROX_PETSC_CHECK(VecPlaceArray(local_.get(), phi_host.data()));
    SURROX_PETSC_CHECK(DMGlobalToLocal(da_.get(), phi_[s].get(), INSERT_VALUES, local_.get()));
    SURROX_PETSC_CHECK(VecResetArray(local_.get()));
    Kokkos::deep_copy(phi_local_, phi_host);
    apply_walls(phi_local_, Boundary::kP);
  }
  ScopedPhase phase(phase_seconds_, "projection");
  const Field2 phi = phi_local_, p = p_;
  const long zs = zs_;
  const double to_pressure = weight > 0 ? 1.0 / (weight * dt) : 0.0;
  Kokkos::parallel_for(
      "RayleighBenardSolver::correct", Range2({oz_, ox_}, {oz_ + zm_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long i) {
        u(k, i) -= (phi(k, i) - phi(k, i - 1)) * ihx;
        if (zs + (k - oz) > 0) w(k, i) -= (phi(k, i) - phi(k - 1, i)) / dzc(k);
        if (to_pressure != 0.0) p(k, i) = phi(k, i) * to_pressure;
      });
  exchange(u_, Boundary::kU);
  exchange(w_, Boundary::kW);
}

void RayleighBenardSolver::stage(int s, double dt) {
  // Shu–Osher SSP-RK3: f ← a f⁰ + (1 − a)(f + dt R(f)), a = 0, ¾, ⅓.
  static constexpr double kA[3] = {0.0, 0.75, 1.0 / 3.0};
  {
    ScopedPhase phase(phase_seconds_, "advection_diffusion");
    compute_rhs();
    const double a = kA[s];
    const Field2 u = u_, w = w_, b = b_, u0 = u0_, w0 = w0_, b0 = b0_, ru = ru_, rw = rw_, rb = rb_;
    Kokkos::parallel_for(
        "RayleighBenardSolver::update", Range2({oz_, ox_}, {oz_ + zm_, ox_ + xm_}),
        KOKKOS_LAMBDA(long k, long i) {
          u(k, i) = a * u0(k, i) + (1 - a) * (u(k, i) + dt * ru(k, i));
          w(k, i) = a * w0(k, i) + (1 - a) * (w(k, i) + dt * rw(k, i));
          b(k, i) = a * b0(k, i) + (1 - a) * (b(k, i) + dt * rb(k, i));
        });
  }
  {
    ScopedPhase phase(phase_seconds_, "halo");
    exchange(u_, Boundary::kU);
    exchange(w_, Boundary::kW);
    exchange(b_, Boundary::kB);
  }
  // The velocity correction of the last stage is (1 − a) dt ∇p: p = φ / ((1 − a) dt).
  project(s, dt, s == 2 ? 1 - kA[s] : 0.0);
}

double RayleighBenardSolver::stable_dt() const {
  const Field2 u = u_, w = w_;
  const Metric iw = iw_;
  const double ihx = 1 / hx_;
  double rate = 0;
  Kokkos::parallel_reduce(
      "RayleighBenardSolver::cfl", Range2({oz_, ox_}, {oz_ + zm_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long i, double& m) {
        const double r = fabs(u(k, i)) * ihx + fabs(w(k, i)) * iw(k);
        if (!(r <= m)) m = r;  // NaN wins
      },
      Kokkos::Max<double>(rate));
  rate = global_max(rate);
  rate_ = rate;
  // SSP-RK3 is stable for central advection up to |λ dt| ≤ √3 and for diffusion up to 2.51;
  // the diffusive eigenvalue bound is max(ν, κ)(4/hx² + the z bound, 4/hz² when uniform).
  const double advective = rate > 0 ? std::sqrt(3.0) / rate : INFINITY;
  const double diffusive = 2.5 / (std::max(nu_, kappa_) * (4 * ihx * ihx + z_diffusion_bound_));
  return std::min(advective, diffusive);
}

void RayleighBenardSolver::check_finite() const {
  const Field2 u = u_, w = w_, b = b_;
  long where = -1;
  const long xm = xm_, ox = ox_, oz = oz_;
  Kokkos::parallel_reduce(
      "RayleighBenardSolver::finite", Range2({0, 0}, {zm_, xm_}),
      KOKKOS_LAMBDA(long kk, long ii, long& first) {
        const double s = u(kk + oz, ii + ox) + w(kk + oz, ii + ox) + b(kk + oz, ii + ox);
        if (!(fabs(s) < INFINITY) && kk * xm + ii > first) first = kk * xm + ii;
      },
      Kokkos::Max<long>(where));
  // Report the first non-finite owned cell in global indices (every rank checks its own).
  long local_cell[2] = {-1, -1};
  if (where >= 0) {
    local_cell[0] = zs_ + where / xm_;
    local_cell[1] = xs_ + where % xm_;
  }
  long global_cell[2];
  MPI_Allreduce(local_cell, global_cell, 2, MPI_LONG, MPI_MAX, comm_);
  if (global_cell[0] >= 0 || global_cell[1] >= 0)
    throw Error(fmt::format(
        "the run blew up at step {} (t = {:.6g}, dt = {:.3g}): non-finite u, w or b in "
        "cell (i = {}, k = {}) at x = {:.4g}, z = {:.4g}; reduce solver.cfl or refine the grid",
        step_, time_, dt_, global_cell[1], global_cell[0], (global_cell[1] + 0.5) * hx_,
        zc_global_[global_cell[0]]));
}

StepReport RayleighBenardSolver::advance() {
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

bool RayleighBenardSolver::finished() const { return steady_ || time_ >= end_time_ * (1 - 1e-14); }

Diagnostics RayleighBenardSolver::instantaneous() const {
  // Every sum is per unit length in x of the integral over the layer: a term at a cell centre
  // or an x-face carries dz_k, one at an interior z-face or a corner dzc_k, a wall half-cell
  // dz/2 (the weights that summation by parts of the discrete operators gives).
  const Field2 u = u_, w = w_, b = b_;
  const Metric dz = dz_, dzc = dzc_;
  const double ihx = 1 / hx_;
  const long zs = zs_, oz = oz_, nz = nz_;
  Sums sums;
  Kokkos::parallel_reduce(
      "RayleighBenardSolver::figures", Range2({oz_, ox_}, {oz_ + zm_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long i, Sums& s) {
        const long kg = zs + (k - oz);
        const double h = dz(k), hc = dzc(k), ih = 1 / h, ihc = 1 / hc;
        // Wall gradients over the half cell between the wall and the first centre.
        if (kg == 0) s.v[0] += (0.5 - b(k, i)) * 2 * ih;
        if (kg == nz - 1) s.v[1] += (b(k, i) + 0.5) * 2 * ih;
        if (kg > 0) s.v[2] += w(k, i) * 0.5 * (b(k - 1, i) + b(k, i)) * hc;
        // |∇u|²: u_x and w_z at centres, u_z and w_x at corners (interior), u_z at the walls.
        double g = 0;
        const double ux = (u(k, i + 1) - u(k, i)) * ihx, wz = (w(k + 1, i) - w(k, i)) * ih;
        g += (ux * ux + wz * wz) * h;
        if (kg > 0) {
          const double uz = (u(k, i) - u(k - 1, i)) * ihc, wx = (w(k, i) - w(k, i - 1)) * ihx;
          g += (uz * uz + wx * wx) * hc;
        } else {
          const double uz = 2 * u(k, i) * ih;
          g += 0.5 * h * uz * uz;
        }
        if (kg == nz - 1) {
          const double uz = 2 * u(k, i) * ih;
          g += 0.5 * h * uz * uz;
        }
        s.v[3] += g;
        // |∇b|²: x-faces, interior z-faces, wall half-cells against the wall values.
        const double bx = (b(k, i) - b(k, i - 1)) * ihx;
        double q = bx * bx * h;
        if (kg > 0) {
          const double bz = (b(k, i) - b(k - 1, i)) * ihc;
          q += bz * bz * hc;
        } else {
          const double bz = (b(k, i) - 0.5) * 2 * ih;
          q += 0.5 * h * bz * bz;
        }
        if (kg == nz - 1) {
          const double bz = (-0.5 - b(k, i)) * 2 * ih;
          q += 0.5 * h * bz * bz;
        }
        s.v[4] += q;
        s.v[5] += u(k, i) * u(k, i) * h + (kg > 0 ? w(k, i) * w(k, i) * hc : 0.0);
      },
      sums);
  // Maxima cannot share the summing reducer: separate Max reductions.
  double div_max = 0, speed_max = 0;
  Kokkos::parallel_reduce(
      "RayleighBenardSolver::max_divergence", Range2({oz_, ox_}, {oz_ + zm_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long i, double& m) {
        const double d = fabs((u(k, i + 1) - u(k, i)) * ihx + (w(k + 1, i) - w(k, i)) / dz(k));
        if (!(d <= m)) m = d;
      },
      Kokkos::Max<double>(div_max));
  Kokkos::parallel_reduce(
      "RayleighBenardSolver::max_speed", Range2({oz_, ox_}, {oz_ + zm_, ox_ + xm_}),
      KOKKOS_LAMBDA(long k, long i, double& m) {
        const double v = fmax(fabs(u(k, i)), fabs(w(k, i)));
        if (!(v <= m)) m = v;
      },
      Kokkos::Max<double>(speed_max));
  double local[6] = {sums.v[0], sums.v[1], sums.v[2], sums.v[3], sums.v[4], sums.v[5]}, total[6];
  MPI_Allreduce(local, total, 6, MPI_DOUBLE, MPI_SUM, comm_);
  div_max = global_max(div_max);
  speed_max = global_max(speed_max);
  const double columns = static_cast<double>(nx_);  // layer height 1: the area is nx hx
  const double h = std::min(hx_, hz_min_);
  Diagnostics d;
  d["nu_bottom"] = total[0] / columns;
  d["nu_top"] = total[1] / columns;
  d["nu_volume"] = 1 + std::sqrt(ra_ * pr_) * total[2] / columns;
  d["nu_kinetic"] = 1 + pr_ * total[3] / columns;
  d["nu_thermal"] = total[4] / columns;
  d["kinetic_energy"] = 0.5 * total[5] / columns;
  d["u_rms"] = std::sqrt(total[5] / columns);
  d["max_divergence"] = speed_max > 0 ? div_max * h / speed_max : div_max * h;
  return d;
}

Diagnostics RayleighBenardSolver::monitor() const { return instantaneous(); }

Diagnostics RayleighBenardSolver::diagnostics() const {
  Diagnostics d = instantaneous();
  d["dt"] = dt_;
  d["rayleigh"] = ra_;
  d["prandtl"] = pr_;
  d["pressure_iterations_per_solve"] =
      ksp_solves_ > 0 ? static_cast<double>(ksp_iterations_) / static_cast<double>(ksp_solves_)
                      : 0.0;
  if (averaged_time_ > 0) {
    double lo = INFINITY, hi = -INFINITY;
    for (const char* name : kFigures) {
      const double mean = sums_.at(name) / averaged_time_;
      d[std::string("mean_") + name] = mean;
      if (std::string(name).rfind("nu_", 0) == 0) lo = std::min(lo, mean), hi = std::max(hi, mean);
    }
    d["mean_nu_spread"] = (hi - lo) / (0.5 * (hi + lo));  // (max − min)/mid of the four-plus-one Nu
    d["averaged_time"] = averaged_time_;
  }
  return d;
}

std::map<std::string, double> RayleighBenardSolver::phase_times() const { return phase_seconds_; }

io::MeshData RayleighBenardSolver::output_mesh() const {
  // Cell data (u and w averaged from their faces to the centres) on the grid of cell corners,
  // in the global index space: this rank's piece covers its cells, and neighbouring pieces
  // share their boundary layer of points, so partitioned files tile without gaps. A uniform
  // grid is an image (.vti); a stretched one a structured grid with the face heights (.vts).
  // VTK's y axis is z.
  io::MeshData mesh;
  mesh.extent = {xs_, xs_ + xm_, zs_, zs_ + zm_, 0, 0};
  if (stretching_ == 0) {
    mesh.kind = io::MeshKind::kImage;
    mesh.origin = {0, 0, 0};
    mesh.spacing = {hx_, lz_ / static_cast<double>(nz_), 1};
  } else {
    mesh.kind = io::MeshKind::kStructured;
    mesh.points = io::HostArray("RB::points", (xm_ + 1) * (zm_ + 1), 3);
    long row = 0;
    for (long k = zs_; k <= zs_ + zm_; ++k)
      for (long i = xs_; i <= xs_ + xm_; ++i, ++row) {
        mesh.points(row, 0) = static_cast<double>(i) * hx_;
        mesh.points(row, 1) = z_faces_[k];
        mesh.points(row, 2) = 0;
      }
  }
  const long n = static_cast<long>(xm_ * zm_);
  auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_);
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w_);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b_);
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p_);
  auto dz = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dz_);
  // The pressure's mean is arbitrary: remove its (area-weighted) mean.
  double mean = 0;
  for (long k = oz_; k < oz_ + zm_; ++k)
    for (long i = ox_; i < ox_ + xm_; ++i) mean += p(k, i) * dz(k);
  mean = global_sum(mean) / static_cast<double>(nx_);
  io::HostArray pa("RB::p", n, 1), ba("RB::b", n, 1), ua("RB::u", n, 1), wa("RB::w", n, 1);
  long row = 0;
  for (long k = oz_; k < oz_ + zm_; ++k)
    for (long i = ox_; i < ox_ + xm_; ++i, ++row) {
      pa(row, 0) = p(k, i) - mean;
      ba(row, 0) = b(k, i);
      ua(row, 0) = 0.5 * (u(k, i) + u(k, i + 1));
      wa(row, 0) = 0.5 * (w(k, i) + w(k + 1, i));
    }
  mesh.cell_data = {{"p", pa}, {"b", ba}, {"u", ua}, {"w", wa}};
  return mesh;
}

void RayleighBenardSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["time"] = time_;
  checkpoint.scalars["step"] = static_cast<double>(step_);
  checkpoint.scalars["dt"] = dt_;
  checkpoint.scalars["averaged_time"] = averaged_time_;
  checkpoint.scalars["last_nu"] = last_nu_;
  checkpoint.scalars["ksp_iterations"] = static_cast<double>(ksp_iterations_);
  checkpoint.scalars["ksp_solves"] = static_cast<double>(ksp_solves_);
  for (const auto& [name, sum] : sums_) checkpoint.scalars["sum_" + name] = sum;
  auto save = [&](const std::string& name, const Field2& f) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    io::HostArray a("RB::" + name, host.size(), 1);
    std::copy(host.data(), host.data() + host.size(), a.data());
    checkpoint.arrays.push_back({name, a});
  };
  save("u", u_), save("w", w_), save("b", b_), save("p", p_);
  for (int s = 0; s < 3; ++s) {
    const PetscScalar* x = nullptr;
    PetscInt n = 0;
    SURROX_PETSC_CHECK(VecGetLocalSize(phi_[s].get(), &n));
    SURROX_PETSC_CHECK(VecGetArrayRead(phi_[s].get(), &x));
    io::HostArray a("RB::phi", n, 1);
    std::copy(x, x + n, a.data());
    SURROX_PETSC_CHECK(VecRestoreArrayRead(phi_[s].get(), &x));
    checkpoint.arrays.push_back({"phi" + std::to_string(s), a});
  }
}

void RayleighBenardSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  time_ = checkpoint.scalar("time");
  step_ = static_cast<long>(checkpoint.scalar("step"));
  dt_ = checkpoint.scalar("dt");
  averaged_time_ = checkpoint.scalar("averaged_time");
  last_nu_ = checkpoint.scalar("last_nu");
  ksp_iterations_ = static_cast<long>(checkpoint.scalar("ksp_iterations"));
  ksp_solves_ = static_cast<long>(checkpoint.scalar("ksp_solves"));
  for (auto& [name, sum] : sums_) sum = checkpoint.scalar("sum_" + name);
  auto load = [&](const std::string& name, Field2 f) {
    const io::NamedArray& a = checkpoint.array(name);
    if (a.tuples() != f.size())
      throw InputError("checkpoint array '" + name +
                       "' does not match this grid and decomposition");
    auto host = Kokkos::create_mirror_view(f);
    std::copy(a.values.data(), a.values.data() + f.size(), host.data());
    Kokkos::deep_copy(f, host);
  };
  load("u", u_), load("w", w_), load("b", b_), load("p", p_);
  for (int s = 0; s < 3; ++s) {
    const io::NamedArray& a = checkpoint.array("phi" + std::to_string(s));
    PetscScalar* x = nullptr;
    PetscInt n = 0;
    SURROX_PETSC_CHECK(VecGetLocalSize(phi_[s].get(), &n));
    if (static_cast<PetscInt>(a.tuples()) != n)
      throw InputError("checkpoint array 'phi' does not match this grid and decomposition");
    SURROX_PETSC_CHECK(VecGetArray(phi_[s].get(), &x));
    std::copy(a.values.data(), a.values.data() + n, x);
    SURROX_PETSC_CHECK(VecRestoreArray(phi_[s].get(), &x));
  }
  series_.clear();
}

void RayleighBenardSolver::finalize(const std::filesystem::path& output_dir,
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

}  // namespace surrox::solvers::rayleigh_benard

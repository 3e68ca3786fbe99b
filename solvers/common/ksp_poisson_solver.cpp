#include "solvers/common/ksp_poisson_solver.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "io/hdf5_checkpoint.hpp"

namespace surrox::solvers {

KspPoissonSolver::KspPoissonSolver(const DmdaGrid& grid, const WallNormalGrid& z, double hx,
                                   double hy, const CaseNode& options, const std::string& prefix,
                                   int slots, PoissonBoundaries sides)
    : grid_(grid), sides_(sides), phi_(static_cast<std::size_t>(slots)) {
  if ((sides_.x == PoissonSide::kPeriodic) != grid_.periodic_x())
    throw Error("KspPoissonSolver: the x sides do not match the grid's");
  SURROX_PETSC_CHECK(DMCreateGlobalVector(grid_.dm(), rhs_.out()));
  for (auto& phi : phi_) {
    SURROX_PETSC_CHECK(DMCreateGlobalVector(grid_.dm(), phi.out()));
    SURROX_PETSC_CHECK(VecSet(phi.get(), 0.0));
  }
  assemble(z, hx, grid_.dim() == 2 ? 1.0 : hy);
  configure(options, prefix);
}

void KspPoissonSolver::assemble(const WallNormalGrid& z, double hx, double hy) {
  // Preallocate only: the box stencil's pattern would otherwise be stored as explicit zeros,
  // which adds fill to factorisations and edges to algebraic multigrid.
  SURROX_PETSC_CHECK(DMSetMatrixPreallocateOnly(grid_.dm(), PETSC_TRUE));
  SURROX_PETSC_CHECK(DMCreateMatrix(grid_.dm(), matrix_.out()));
  const bool three_d = grid_.dim() == 3;
  const long nx = grid_.cells(DmdaGrid::kX), nz = grid_.cells(DmdaGrid::kZ);
  const bool periodic_x = sides_.x == PoissonSide::kPeriodic;
  const bool dirichlet_z = sides_.z == PoissonSide::kDirichlet;
  // A DMDA stencil names (x, z) as (i, j) in 2D and (x, y, z) as (i, j, k) in 3D.
  const auto at = [&](PetscInt i, PetscInt j, PetscInt k) {
    MatStencil s{};
    s.i = i;
    if (three_d)
      s.j = j, s.k = k;
    else
      s.j = k;
    return s;
  };
  const auto first = [&](int axis) { return static_cast<PetscInt>(grid_.start(axis)); };
  const auto last = [&](int axis) {
    return static_cast<PetscInt>(grid_.start(axis) + grid_.owned(axis));
  };
  for (PetscInt k = first(DmdaGrid::kZ); k < last(DmdaGrid::kZ); ++k)
    for (PetscInt j = first(DmdaGrid::kY); j < last(DmdaGrid::kY); ++j)
      for (PetscInt i = first(DmdaGrid::kX); i < last(DmdaGrid::kX); ++i) {
        const double cx = hy * z.dz(k) / hx, cy = hx * z.dz(k) / hy;
        const double cb = hx * hy / z.dzc(k), ct = hx * hy / z.dzc(k + 1);
        const MatStencil row = at(i, j, k);
        MatStencil cols[7];
        PetscScalar vals[7];
        int n = 0;
        const auto add = [&](PetscInt ii, PetscInt jj, PetscInt kk, double value) {
          cols[n] = at(ii, jj, kk), vals[n++] = value;
        };
        double diag = 2 * cx;
        if (periodic_x || i > 0) add(i - 1, j, k, -cx);
        if (periodic_x || i < nx - 1) add(i + 1, j, k, -cx);
        if (three_d) add(i, j - 1, k, -cy), add(i, j + 1, k, -cy), diag += 2 * cy;
        if (k > 0) add(i, j, k - 1, -cb);
        if (k < nz - 1) add(i, j, k + 1, -ct);
        if (k > 0 || dirichlet_z) diag += cb;
        if (k < nz - 1 || dirichlet_z) diag += ct;
        add(i, j, k, diag);
        SURROX_PETSC_CHECK(
            MatSetValuesStencil(matrix_.get(), 1, &row, n, cols, vals, INSERT_VALUES));
      }
  SURROX_PETSC_CHECK(MatAssemblyBegin(matrix_.get(), MAT_FINAL_ASSEMBLY));
  SURROX_PETSC_CHECK(MatAssemblyEnd(matrix_.get(), MAT_FINAL_ASSEMBLY));
  if (!sides_.singular()) return;
  SURROX_PETSC_CHECK(MatNullSpaceCreate(grid_.comm(), PETSC_TRUE, 0, nullptr, null_space_.out()));
  SURROX_PETSC_CHECK(MatSetNullSpace(matrix_.get(), null_space_.get()));
}

void KspPoissonSolver::configure(const CaseNode& options, const std::string& prefix) {
  int ranks = 1;
  MPI_Comm_size(grid_.comm(), &ranks);
  SURROX_PETSC_CHECK(KSPCreate(grid_.comm(), ksp_.out()));
  SURROX_PETSC_CHECK(KSPSetOptionsPrefix(ksp_.get(), prefix.c_str()));
  SURROX_PETSC_CHECK(KSPSetOperators(ksp_.get(), matrix_.get(), matrix_.get()));
  SURROX_PETSC_CHECK(KSPSetDM(ksp_.get(), grid_.dm()));  // geometric MG (pc_type mg) coarsens it
  SURROX_PETSC_CHECK(KSPSetDMActive(ksp_.get(), PETSC_FALSE));
  std::string ksp_type = options.string("ksp_type"), pc_type = options.string("pc_type");
  const bool auto_pc = pc_type == "auto";
  if (ksp_type == "auto") ksp_type = auto_pc ? KSPPREONLY : KSPCG;
  if (auto_pc) pc_type = ranks == 1 ? PCLU : PCREDUNDANT;
  if (KSPSetType(ksp_.get(), ksp_type.c_str()) != 0)
    options.fail("ksp_type", "unknown PETSc KSP type");
  PC pc;
  SURROX_PETSC_CHECK(KSPGetPC(ksp_.get(), &pc));
  if (PCSetType(pc, pc_type.c_str()) != 0)
    options.fail("pc_type", "unknown or unavailable PETSc PC type");
  if (auto_pc && ranks == 1) {
    // The operator is singular (constant null space): a nonzero shift replaces the one zero
    // pivot; the right-hand side is consistent, so only the arbitrary constant is affected.
    SURROX_PETSC_CHECK(PCFactorSetMatOrderingType(pc, MATORDERINGND));
    SURROX_PETSC_CHECK(PCFactorSetShiftType(pc, MAT_SHIFT_NONZERO));
  } else if (auto_pc) {
    // Several ranks: every rank factors the whole (small) operator once and solves it
    // redundantly; measured faster here than MUMPS or SuperLU_DIST (docs/performance_rb.md).
    const std::string p = "-" + prefix;
    SURROX_PETSC_CHECK(PetscOptionsInsertString(
        nullptr, (p + "redundant_pc_type lu " + p + "redundant_pc_factor_mat_ordering_type nd " +
                  p + "redundant_pc_factor_shift_type nonzero")
                     .c_str()));
  }
  rtol_ = options.real("rtol");
  SURROX_PETSC_CHECK(KSPSetTolerances(ksp_.get(), rtol_, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  const std::string extra = options.string("options");
  if (!extra.empty() && PetscOptionsInsertString(nullptr, extra.c_str()) != 0)
    options.fail("options", "PETSc cannot parse these options");
  SURROX_PETSC_CHECK(KSPSetFromOptions(ksp_.get()));
  // Warm starts from the slot's previous solution (not for preonly).
  KSPType type = nullptr;
  SURROX_PETSC_CHECK(KSPGetType(ksp_.get(), &type));
  SURROX_PETSC_CHECK(KSPSetInitialGuessNonzero(
      ksp_.get(), std::string(type) == KSPPREONLY ? PETSC_FALSE : PETSC_TRUE));
  SURROX_PETSC_CHECK(KSPSetUp(ksp_.get()));
}

PoissonReport KspPoissonSolver::solve(const Field3& rhs, const Field3& phi, int slot,
                                      double tolerance) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs);
  PetscScalar* r = nullptr;
  SURROX_PETSC_CHECK(VecGetArray(rhs_.get(), &r));
  std::copy(host.data(), host.data() + host.size(), r);
  SURROX_PETSC_CHECK(VecRestoreArray(rhs_.get(), &r));
  if (null_space_) SURROX_PETSC_CHECK(MatNullSpaceRemove(null_space_.get(), rhs_.get()));
  SURROX_PETSC_CHECK(KSPSetTolerances(ksp_.get(), rtol_, tolerance, PETSC_DEFAULT, 10000));
  Vec solution = phi_.at(static_cast<std::size_t>(slot)).get();
  SURROX_PETSC_CHECK(KSPSolve(ksp_.get(), rhs_.get(), solution));
  KSPConvergedReason reason;
  SURROX_PETSC_CHECK(KSPGetConvergedReason(ksp_.get(), &reason));
  PetscInt its = 0;
  SURROX_PETSC_CHECK(KSPGetIterationNumber(ksp_.get(), &its));
  iterations_ += its;
  ++solves_;
  if (reason < 0) return {false, static_cast<int>(reason), static_cast<long>(its)};
  grid_.global_to_field(solution, phi);
  fill_wall_ghosts(grid_, sides_, phi);
  return {true, static_cast<int>(reason), static_cast<long>(its)};
}

void KspPoissonSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["ksp_iterations"] = static_cast<double>(iterations_);
  checkpoint.scalars["ksp_solves"] = static_cast<double>(solves_);
  for (std::size_t s = 0; s < phi_.size(); ++s) {
    const PetscScalar* x = nullptr;
    PetscInt n = 0;
    SURROX_PETSC_CHECK(VecGetLocalSize(phi_[s].get(), &n));
    SURROX_PETSC_CHECK(VecGetArrayRead(phi_[s].get(), &x));
    io::HostArray a("KspPoissonSolver::phi", n, 1);
    std::copy(x, x + n, a.data());
    SURROX_PETSC_CHECK(VecRestoreArrayRead(phi_[s].get(), &x));
    checkpoint.arrays.push_back({"phi" + std::to_string(s), a});
  }
}

void KspPoissonSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  iterations_ = static_cast<long>(checkpoint.scalar("ksp_iterations"));
  solves_ = static_cast<long>(checkpoint.scalar("ksp_solves"));
  for (std::size_t s = 0; s < phi_.size(); ++s) {
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
}

}  // namespace surrox::solvers

#pragma once
// The Poisson problem of poisson_solver.hpp by PETSc KSP on the DMDA of a DmdaGrid. The matrix is
// −D G scaled by the cell volumes hx hy dz_k (hy = 1 in 2D): the z coupling of cells k and k + 1
// is hx hy/dzc_{k+1} from both sides, so it stays symmetric on a stretched grid. A Dirichlet
// side keeps the coupling to its wall value 0 on the diagonal (the wall node one spacing away).
//
// Options come from a case section with the keys ksp_type, pc_type, rtol and options (bad values
// are InputErrors there) and the PETSc options prefix given. "auto" picks a direct solve: LU
// with nested-dissection ordering on one rank, the same LU redundantly on every rank on several.
#include <array>
#include <string>

#include "core/case_node.hpp"
#include "solvers/common/dmda_grid.hpp"
#include "solvers/common/poisson_solver.hpp"
#include "solvers/common/wall_normal_grid.hpp"

namespace surrox::solvers {

class KspPoissonSolver final : public PoissonSolver {
 public:
  // The grid must outlive the solver; hy is ignored in 2D. slots: solutions kept (see solve).
  KspPoissonSolver(const DmdaGrid& grid, const WallNormalGrid& z, double hx, double hy,
                   const CaseNode& options, const std::string& prefix, int slots,
                   PoissonBoundaries sides = {});

  PoissonReport solve(const Field3& rhs, const Field3& phi, int slot, double tolerance) override;
  long iterations() const override { return iterations_; }
  long solves() const override { return solves_; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;

 private:
  void assemble(const WallNormalGrid& z, double hx, double hy);
  void configure(const CaseNode& options, const std::string& prefix);

  const DmdaGrid& grid_;
  PoissonBoundaries sides_;
  double rtol_ = 1e-12;
  VecHandle rhs_;
  std::vector<VecHandle> phi_;  // kept solutions, one per slot
  MatHandle matrix_;
  NullSpaceHandle null_space_;
  KspHandle ksp_;
  long iterations_ = 0, solves_ = 0;
};

}  // namespace surrox::solvers

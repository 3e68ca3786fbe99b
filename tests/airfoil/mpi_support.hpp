#pragma once
// Shared by the airfoil solver's multi-rank tests: the test communicator, one set of solver
// parameters for Euler and Navier–Stokes, and the field difference they compare with.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"

namespace surrox::solvers::airfoil::testing {

using Fields = std::array<AirfoilSolver::HostMatrix, 4>;

inline MPI_Comm world() { return surrox::testing::runtime().comm(); }

inline AirfoilParameters parameters(Equations equations) {
  AirfoilParameters p = lusgs_test_parameters();
  p.equations = equations;
  p.reynolds = 500;
  p.mach = 0.4;
  p.alpha_deg = 3;
  p.cfl = 1000;
  p.linear_fix = equations == Equations::kEuler ? 0.2 : 0.0;
  return p;
}

// max |a − b| over max |b|, the worst of the four fields.
inline double relative_difference(const Fields& a, const Fields& b) {
  double worst = 0;
  for (int k = 0; k < 4; ++k) {
    double diff = 0, scale = 0;
    for (std::size_t n = 0; n < a[k].size(); ++n) {
      diff = std::max(diff, std::fabs(a[k].data()[n] - b[k].data()[n]));
      scale = std::max(scale, std::fabs(b[k].data()[n]));
    }
    worst = std::max(worst, diff / std::max(scale, 1e-300));
  }
  return worst;
}

}  // namespace surrox::solvers::airfoil::testing

#pragma once
// The path the C++ airfoil tests were measured on and pin: LU-SGS on every level, the one-sided
// wall ghost of the coarse-grid correction and no Anderson acceleration. AirfoilParameters{}
// holds the case files' defaults (line-implicit, mirrored, depth 12: the schema's, checked by
// airfoil_defaults_test); a test that pins this path starts from here and says so.
#include "solvers/airfoil/airfoil_parameters.hpp"

namespace surrox::solvers::airfoil {

inline AirfoilParameters lusgs_test_parameters() {
  AirfoilParameters p;
  p.smoother = "lusgs";
  p.smoother_options.clear();
  p.multigrid_wall = MultigridWall::kOneSided;
  p.acceleration_depth = 0;
  return p;
}

}  // namespace surrox::solvers::airfoil

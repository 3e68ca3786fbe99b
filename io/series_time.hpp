#pragma once
// Which outputs of an earlier segment a restarted run keeps: those before the restart time,
// forgiving the rounding of times computed as step · dt or landed on an output interval. One
// rule for the .pvd and the HDF5 dataset, so that both keep the same steps.
#include <algorithm>
#include <cmath>

namespace surrox::io {

inline bool earlier_than(double t, double restart_time) {
  return t < restart_time - 1e-12 * std::max(1.0, std::fabs(restart_time));
}

}  // namespace surrox::io

#include "solvers/airfoil/lusgs_smoother.hpp"
#include "solvers/airfoil/smoother.hpp"

namespace surrox::solvers::airfoil {

const SmootherRegistry& smoother_registry() {
  static const SmootherRegistry registry = [] {
    SmootherRegistry r("airfoil smoother");
    r.add("lusgs", {[](const FlowLevel& level) { return std::make_unique<LusgsSmoother>(level); },
                    Schema("LU-SGS (Jameson–Yoon) on hyperplanes i + j = const, a wavefront over "
                           "the MPI ranks; its over-relaxation is solver.lusgs_omega."),
                    "lower-upper symmetric Gauss–Seidel with scalar diagonal (default)"});
    return r;
  }();
  return registry;
}

}  // namespace surrox::solvers::airfoil

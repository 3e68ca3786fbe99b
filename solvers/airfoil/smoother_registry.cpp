#include <string>

#include "solvers/airfoil/lusgs_smoother.hpp"
#include "solvers/airfoil/smoother.hpp"

namespace surrox::solvers::airfoil {

const SmootherRegistry& smoother_registry() {
  static const SmootherRegistry registry = [] {
    SmootherRegistry r("airfoil smoother");
    Schema lusgs(
        "LU-SGS (Jameson–Yoon) on hyperplanes i + j = const, a wavefront over the MPI ranks; its "
        "over-relaxation is solver.lusgs_omega.");
    lusgs
        .integer(
            "wall_mirror",
            "the wall row's ghost in the implicit operator: 0 frozen (Jameson–Yoon); n > 0 the "
            "mirror of the wall cell, a 4 × 4 block diagonal per wall cell solved in n passes "
            "(1: the wall face's dissipation only, which stalls the M 0.15 Joukowski case; 2, "
            "the default: also the ghost's flux, a third to a half fewer cycles to 8 orders on "
            "the default cases, docs/validation/airfoil.md)")
        .at_least(0)
        .at_most(8)
        .fallback(std::to_string(kDefaultWallMirror));
    r.add("lusgs", {[](const FlowLevel& level) { return std::make_unique<LusgsSmoother>(level); },
                    lusgs, "lower-upper symmetric Gauss–Seidel with scalar diagonal (default)"});
    return r;
  }();
  return registry;
}

}  // namespace surrox::solvers::airfoil

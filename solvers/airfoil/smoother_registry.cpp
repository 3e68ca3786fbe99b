#include <string>

#include "solvers/airfoil/line_implicit_smoother.hpp"
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
                    lusgs, "lower-upper symmetric Gauss–Seidel with scalar diagonal"});
    Schema line(
        "Line-implicit in the wall-normal direction: a block-tridiagonal solve along every line "
        "i = const with LU-SGS's operator (solver.lusgs_omega) linearised in j and the wall ghost "
        "mirrored, symmetric Gauss–Seidel over the lines (docs/validation/airfoil.md, "
        "\"Line-implicit smoothing\").");
    line.integer("sweeps", "symmetric Gauss–Seidel sweeps over the lines per smoothing step")
        .at_least(1)
        .at_most(8)
        .fallback("1");
    line.integer("refactor_every",
                 "cycles between two factorisations of the line systems (a lagged Jacobian, "
                 "refactored on multiples of it and when the CFL changes): 10 takes the cycles of "
                 "1 on the default cases at a third of the factorisation time; a restart is bit "
                 "for bit the uninterrupted run from a checkpoint of a multiple of it")
        .at_least(1)
        .at_most(100)
        .fallback("10");
    line.integer("roe",
                 "the j-faces' implicit dissipation: 1 the residual's Roe matrix with its Harten "
                 "fixes (first order), 0 LU-SGS's spectral radius, −1 (default) Roe for euler and "
                 "the spectral radius for navier_stokes and rans (with no-slip walls Roe's needs "
                 "solver.multigrid_wall mirror, and stalls at Re 5000)")
        .at_least(-1)
        .at_most(1)
        .fallback("-1");
    line.real("roe_linear_fix",
              "with Roe's matrix: Harten's fix on its entropy and shear waves (δ/ĉ); negative "
              "(default): the residual's solver.linear_wave_fix")
        .fallback("-1");
    line.integer("exact_across_ranks",
                 "lines that cross MPI ranks: 0 (default) cut at the ranks' edges, each rank "
                 "solving its piece with the other rank's edge update of the pass before (no "
                 "waiting; 1–11 % more cycles on 2 ranks, a third less wall time); 1 solved "
                 "whole, the elimination running over the ranks in turn (N ranks give the "
                 "one-rank iterates bit for bit, the ranks wait for each other line by line)")
        .at_least(0)
        .at_most(1)
        .fallback("0");
    r.add(
        "line_implicit",
        {[](const FlowLevel& level) { return std::make_unique<LineImplicitSmoother>(level); }, line,
         "block-tridiagonal lines in the wall-normal direction, Gauss–Seidel in i (default)"});
    return r;
  }();
  return registry;
}

}  // namespace surrox::solvers::airfoil

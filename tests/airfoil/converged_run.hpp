#pragma once
// A run of the airfoil solver to its stop (the convergence criterion or max_iterations) and the
// comparison the convergence tests make of two runs: the faster one in fewer cycles, both to
// the same Cl and Cd within what an 8-order stop leaves (1e-6).
#include <gtest/gtest.h>

#include <cstdio>

#include "solvers/airfoil/airfoil_solver.hpp"

namespace surrox::solvers::airfoil::testing {

struct ConvergedRun {
  long cycles;
  double cl, cd;
  bool converged;
};

inline ConvergedRun finish(AirfoilSolver& solver) {
  while (!solver.finished()) solver.advance();
  const Diagnostics d = solver.diagnostics();
  return {solver.step(), d.at("cl"), d.at("cd"), d.at("converged") == 1.0};
}

inline ConvergedRun converge(const AirfoilParameters& p, const mesh::CurvilinearGrid& grid) {
  AirfoilSolver solver;
  solver.initialize(p, grid);
  return finish(solver);
}

// Both converged, `faster` in under `ratio` of `slower`'s cycles, Cl and Cd within 1e-6.
inline void expect_fewer_cycles_same_solution(const char* slower_name, const ConvergedRun& slower,
                                              const char* faster_name, const ConvergedRun& faster,
                                              double ratio) {
  std::printf("cycles to the stop: %s %ld, %s %ld; Cl %.9f / %.9f, Cd %.9f / %.9f\n", slower_name,
              slower.cycles, faster_name, faster.cycles, slower.cl, faster.cl, slower.cd,
              faster.cd);
  ASSERT_TRUE(slower.converged);
  ASSERT_TRUE(faster.converged);
  EXPECT_LT(faster.cycles, ratio * slower.cycles);
  EXPECT_NEAR(faster.cl, slower.cl, 1e-6);
  EXPECT_NEAR(faster.cd, slower.cd, 1e-6);
}

}  // namespace surrox::solvers::airfoil::testing

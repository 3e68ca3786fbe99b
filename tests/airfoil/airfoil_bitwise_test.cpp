// ctest-labels: unit regression mpi
// ctest-ranks: 2
// ctest-libraries: surrox_solvers
// Pins the airfoil solver's arithmetic bit for bit: short runs of an Euler NACA 0012 case with
// multigrid and a laminar Navier–Stokes case, on one rank and on 2 ranks (the pipelined LU-SGS
// makes 2 ranks take the one-rank path exactly: the same fields and forces), and the
// block-Jacobi coupling on 2 ranks. Compared against tests/golden/airfoil/*.yaml (epsilon 0:
// exactly): the relative density residual of every cycle, the four relative residuals, Cl, Cd
// and Cm of the last cycle, the L2 norms of the final conservative fields and a fingerprint of
// their bit patterns. A refactoring must leave all of them unchanged; a change of the numerics
// regenerates the files on purpose:
//   SURROX_REGENERATE_GOLDEN=1 mpiexec -n 2 build/release/tests/surrox_tests_airfoil
//     --gtest_filter='AirfoilBitwise.*'   (one command line)
// (tests/support/golden_file.hpp), then review and commit the diff.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/golden_file.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"
#include "tests/airfoil/mpi_support.hpp"
#include "tests/airfoil/naca_test_grid.hpp"

namespace surrox::solvers::airfoil {
namespace {

struct Result {
  std::vector<double> density_residuals;  // relative, after each cycle
  std::vector<double> residuals;          // the four relative residuals of the last cycle
  double cl, cd, cm;
  std::vector<double> field_norms;  // L2 norm of each conservative field
  std::uint64_t field_hash;         // FNV-1a over the bits of the conservative fields
};

std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// FNV-1a over the 8 bytes of every value, fields k = 0..3, then i, then j.
std::uint64_t hash_fields(const std::array<AirfoilSolver::HostMatrix, 4>& fields) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const auto& f : fields)
    for (std::size_t i = 0; i < f.extent(0); ++i)
      for (std::size_t j = 0; j < f.extent(1); ++j) {
        const std::uint64_t b = bits_of(f(i, j));
        for (int byte = 0; byte < 8; ++byte) {
          h ^= (b >> (8 * byte)) & 0xff;
          h *= 0x100000001b3ULL;
        }
      }
  return h;
}

using testing::naca0012_grid;

AirfoilParameters euler_case() {
  AirfoilParameters p = lusgs_test_parameters();
  p.mach = 0.5;
  p.alpha_deg = 2;
  p.cfl = 1000;
  p.cfl_ramp = 10;
  p.multigrid_levels = 3;
  p.smoother = "lusgs";                   // the pins are of LU-SGS
  p.smoother_options["wall_mirror"] = 0;  // with the frozen wall ghost
  return p;
}

AirfoilParameters laminar_case() {
  AirfoilParameters p = lusgs_test_parameters();
  p.equations = Equations::kNavierStokes;
  p.reynolds = 2000;
  p.mach = 0.5;
  p.alpha_deg = 1;
  p.cfl = 200;
  p.cfl_ramp = 10;
  p.limiter = Limiter::kNone;
  p.multigrid_levels = 2;
  p.smoother = "lusgs";                   // the pins are of LU-SGS
  p.smoother_options["wall_mirror"] = 0;  // with the frozen wall ghost
  return p;
}

Result run(const AirfoilParameters& p, const mesh::CurvilinearGrid& grid, MPI_Comm comm,
           int cycles) {
  AirfoilSolver solver;
  solver.initialize(p, grid, comm);
  Result out{};
  for (int n = 0; n < cycles; ++n) {
    solver.advance();
    out.density_residuals.push_back(solver.residual());
  }
  solver.compute_residual();  // the forces of the final state
  const Diagnostics m = solver.monitor(), c = solver.coefficients();
  const char* names[4] = {"res_rho", "res_rhou", "res_rhov", "res_rhoe"};
  for (int k = 0; k < 4; ++k) out.residuals.push_back(m.at(names[k]));
  out.cl = c.at("cl");
  out.cd = c.at("cd");
  out.cm = c.at("cm");
  const auto fields = solver.conservative_host();
  for (const auto& f : fields) {
    double sum = 0;
    for (std::size_t i = 0; i < f.extent(0); ++i)
      for (std::size_t j = 0; j < f.extent(1); ++j) sum += f(i, j) * f(i, j);
    out.field_norms.push_back(std::sqrt(sum));
  }
  out.field_hash = hash_fields(fields);
  return out;
}

void expect_golden(const Result& r, const std::string& name) {
  surrox::testing::GoldenFile golden("airfoil/" + name,
                                     "tests/airfoil/airfoil_bitwise_test.cpp, " + name);
  golden.check("density_residuals", r.density_residuals);
  golden.check("residuals", r.residuals);
  golden.check("cl", r.cl);
  golden.check("cd", r.cd);
  golden.check("cm", r.cm);
  golden.check("field_norms", r.field_norms);
  golden.check_fingerprint("field_fingerprint", r.field_hash);
}

constexpr int kEulerCycles = 25, kLaminarCycles = 15;

TEST(AirfoilBitwise, EulerNaca0012WithMultigridOnOneRank) {
  expect_golden(run(euler_case(), naca0012_grid(4e-3), MPI_COMM_SELF, kEulerCycles),
                "euler_one_rank");
}

TEST(AirfoilBitwise, LaminarNaca0012OnOneRank) {
  expect_golden(run(laminar_case(), naca0012_grid(2e-3), MPI_COMM_SELF, kLaminarCycles),
                "laminar_one_rank");
}

// The fields and forces are the one-rank bits; the residual norms differ in their last bits
// (each rank sums its own slab before the sum over ranks), so they have their own table.
TEST(AirfoilBitwise, TwoRanksTakeTheOneRankPath) {
  const Result euler = run(euler_case(), naca0012_grid(4e-3), testing::world(), kEulerCycles);
  const Result laminar = run(laminar_case(), naca0012_grid(2e-3), testing::world(), kLaminarCycles);
  expect_golden(euler, "euler_two_ranks");
  expect_golden(laminar, "laminar_two_ranks");
  // The one-rank path exactly: the same fields and forces as one rank alone.
  const Result euler_one = run(euler_case(), naca0012_grid(4e-3), MPI_COMM_SELF, kEulerCycles);
  const Result laminar_one =
      run(laminar_case(), naca0012_grid(2e-3), MPI_COMM_SELF, kLaminarCycles);
  for (const auto& [one, two] :
       {std::pair{&euler_one, &euler}, std::pair{&laminar_one, &laminar}}) {
    EXPECT_EQ(one->field_hash, two->field_hash);
    EXPECT_EQ(bits_of(one->cl), bits_of(two->cl));
    EXPECT_EQ(bits_of(one->cd), bits_of(two->cd));
  }
}

TEST(AirfoilBitwise, BlockJacobiOnTwoRanks) {
  AirfoilParameters p = euler_case();
  p.lusgs_ranks = RankCoupling::kBlockJacobi;
  expect_golden(run(p, naca0012_grid(4e-3), testing::world(), kEulerCycles),
                "euler_block_jacobi_two_ranks");
}

}  // namespace
}  // namespace surrox::solvers::airfoil

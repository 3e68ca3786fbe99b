// ctest-labels: unit regression mpi
// ctest-ranks: 2
// ctest-libraries: surrox_solvers
// Pins the airfoil solver's arithmetic bit for bit: short runs of an Euler NACA 0012 case with
// multigrid and a laminar Navier–Stokes case, on one rank and on 2 ranks (the pipelined LU-SGS
// makes 2 ranks take the one-rank path exactly: the same fields and forces), and the
// block-Jacobi coupling on 2 ranks. Compared exactly: the relative density residual of every
// cycle, the four relative residuals, Cl, Cd and Cm of the last cycle, and a hash of the bit
// patterns of the final conservative fields. A refactoring must leave all of them unchanged; a
// change of the numerics must update them on purpose.
//
// To regenerate after an intended change of the numerics: run
//   SURROX_PRINT_PINNED=1 mpiexec -n 2 build/release/tests/airfoil_bitwise_test
// and paste the printed initialisers over the kPinned* tables below.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/mpi_support.hpp"
#include "tests/airfoil/naca_test_grid.hpp"

namespace surrox::solvers::airfoil {
namespace {

struct Pinned {
  std::vector<double> density_residuals;  // relative, after each cycle
  double residuals[4];                    // relative, last cycle
  double cl, cd, cm;
  std::uint64_t field_hash;  // FNV-1a over the bits of the conservative fields
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
  AirfoilParameters p;
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
  AirfoilParameters p;
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

Pinned run(const AirfoilParameters& p, const mesh::CurvilinearGrid& grid, MPI_Comm comm,
           int cycles) {
  AirfoilSolver solver;
  solver.initialize(p, grid, comm);
  Pinned out{};
  for (int n = 0; n < cycles; ++n) {
    solver.advance();
    out.density_residuals.push_back(solver.residual());
  }
  solver.compute_residual();  // the forces of the final state
  const Diagnostics m = solver.monitor(), c = solver.coefficients();
  const char* names[4] = {"res_rho", "res_rhou", "res_rhov", "res_rhoe"};
  for (int k = 0; k < 4; ++k) out.residuals[k] = m.at(names[k]);
  out.cl = c.at("cl");
  out.cd = c.at("cd");
  out.cm = c.at("cm");
  out.field_hash = hash_fields(solver.conservative_host());
  return out;
}

void print(const char* name, const Pinned& p) {
  if (surrox::testing::runtime().rank() != 0) return;
  std::printf("const Pinned %s{\n    {", name);
  for (std::size_t n = 0; n < p.density_residuals.size(); ++n)
    std::printf("%s%a", n == 0 ? "" : ", ", p.density_residuals[n]);
  std::printf("},\n    {%a, %a, %a, %a},\n    %a,\n    %a,\n    %a,\n    0x%016" PRIx64 "ULL};\n",
              p.residuals[0], p.residuals[1], p.residuals[2], p.residuals[3], p.cl, p.cd, p.cm,
              p.field_hash);
}

// Exact comparison of the bit patterns (so −0 ≠ +0 and NaNs compare too).
void expect_bitwise(const Pinned& actual, const Pinned& pinned, const char* name) {
  if (std::getenv("SURROX_PRINT_PINNED")) print(name, actual);
  ASSERT_EQ(actual.density_residuals.size(), pinned.density_residuals.size()) << name;
  bool same = true;
  for (std::size_t n = 0; n < pinned.density_residuals.size(); ++n) {
    EXPECT_EQ(bits_of(actual.density_residuals[n]), bits_of(pinned.density_residuals[n]))
        << name << " cycle " << n + 1;
    same = same && bits_of(actual.density_residuals[n]) == bits_of(pinned.density_residuals[n]);
  }
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(bits_of(actual.residuals[k]), bits_of(pinned.residuals[k])) << name << " k " << k;
    same = same && bits_of(actual.residuals[k]) == bits_of(pinned.residuals[k]);
  }
  EXPECT_EQ(bits_of(actual.cl), bits_of(pinned.cl)) << name << " Cl";
  EXPECT_EQ(bits_of(actual.cd), bits_of(pinned.cd)) << name << " Cd";
  EXPECT_EQ(bits_of(actual.cm), bits_of(pinned.cm)) << name << " Cm";
  EXPECT_EQ(actual.field_hash, pinned.field_hash) << name << " conservative fields";
  same = same && bits_of(actual.cl) == bits_of(pinned.cl) &&
         bits_of(actual.cd) == bits_of(pinned.cd) && bits_of(actual.cm) == bits_of(pinned.cm) &&
         actual.field_hash == pinned.field_hash;
  if (!same) print(name, actual);  // what to paste if the change was intended
}

// Recorded from the solver before the split into one file per concept (commit "Pin the airfoil
// solver's results bit for bit"); see the header for how to regenerate.
const Pinned kPinnedEuler{
    {0x1p+0,
     0x1.b543ce6074862p-2,
     0x1.395d047a44c63p-2,
     0x1.4838f0ef9a9c8p-2,
     0x1.742f22fc4aa8fp-4,
     0x1.41fde91da12e1p-4,
     0x1.4bba4b95f54d3p-5,
     0x1.423aa7855f47bp-5,
     0x1.02d087605d707p-5,
     0x1.c2071790e9893p-6,
     0x1.52bad49157d3p-6,
     0x1.1353d9fe0413dp-6,
     0x1.b1db40de8a7e9p-7,
     0x1.e3f5d5236bc2dp-7,
     0x1.05593f1e6b07ap-6,
     0x1.b8d0d3850be3fp-7,
     0x1.42652d3c76032p-7,
     0x1.0fc2b432f5e5fp-7,
     0x1.2bfb522a2c825p-7,
     0x1.36ff57d70c438p-7,
     0x1.08c2ecd83d87cp-7,
     0x1.7090b541e2b7ap-8,
     0x1.4340139be7141p-8,
     0x1.96594b7f51c1p-8,
     0x1.ae5e394bc7dc3p-8},
    {0x1.ae5e394bc7dc3p-8, 0x1.59ce59fcf75c4p-8, 0x1.f298805f18c84p-8, 0x1.93aabdc33681ep-8},
    0x1.edde4ca2298ep-3,
    0x1.a455f462324b3p-8,
    0x1.5617bb40fa681p-13,
    0xab183cea9b5edc3eULL};
const Pinned kPinnedLaminar{
    {0x1p+0, 0x1.4079ffeec582bp-1, 0x1.304e1073b3bb8p-2, 0x1.a5aac9a308eabp-2, 0x1.b5acc0bb1d11dp-3,
     0x1.9f7b9b707a813p-4, 0x1.6afbe8a3f1e01p-4, 0x1.3acb8b68d6537p-4, 0x1.02b20032af2c4p-4,
     0x1.2321e2499e12dp-5, 0x1.e3095faa4b279p-6, 0x1.14a106c923ae7p-5, 0x1.b7aa994b17568p-6,
     0x1.1ab76370c7fd6p-6, 0x1.76e476e4e649bp-6},
    {0x1.76e476e4e649bp-6, 0x1.a2a2e1971465ap-6, 0x1.571be67f22f82p-5, 0x1.761ceeac9e161p-6},
    0x1.d47f83ace9ba9p-5,
    0x1.b6c9f471e82b8p-4,
    0x1.1ace096197e3fp-7,
    0x3fce795c2d845e33ULL};
const Pinned kPinnedEulerTwoRanks{
    {0x1p+0,
     0x1.b543ce6074868p-2,
     0x1.395d047a44c5fp-2,
     0x1.4838f0ef9a9dp-2,
     0x1.742f22fc4aa93p-4,
     0x1.41fde91da12eap-4,
     0x1.4bba4b95f54dcp-5,
     0x1.423aa7855f47p-5,
     0x1.02d087605d704p-5,
     0x1.c2071790e9891p-6,
     0x1.52bad49157d35p-6,
     0x1.1353d9fe0413ep-6,
     0x1.b1db40de8a7e9p-7,
     0x1.e3f5d5236bc2dp-7,
     0x1.05593f1e6b077p-6,
     0x1.b8d0d3850be46p-7,
     0x1.42652d3c76033p-7,
     0x1.0fc2b432f5e5dp-7,
     0x1.2bfb522a2c822p-7,
     0x1.36ff57d70c436p-7,
     0x1.08c2ecd83d87dp-7,
     0x1.7090b541e2b78p-8,
     0x1.4340139be7142p-8,
     0x1.96594b7f51c0dp-8,
     0x1.ae5e394bc7dc3p-8},
    {0x1.ae5e394bc7dc3p-8, 0x1.59ce59fcf75c6p-8, 0x1.f298805f18c8ap-8, 0x1.93aabdc33681cp-8},
    0x1.edde4ca2298ep-3,
    0x1.a455f462324b3p-8,
    0x1.5617bb40fa681p-13,
    0xab183cea9b5edc3eULL};
const Pinned kPinnedLaminarTwoRanks{
    {0x1p+0, 0x1.4079ffeec5832p-1, 0x1.304e1073b3bcdp-2, 0x1.a5aac9a308ecp-2, 0x1.b5acc0bb1d127p-3,
     0x1.9f7b9b707a81p-4, 0x1.6afbe8a3f1dfep-4, 0x1.3acb8b68d6539p-4, 0x1.02b20032af2c6p-4,
     0x1.2321e2499e12bp-5, 0x1.e3095faa4b274p-6, 0x1.14a106c923aeep-5, 0x1.b7aa994b17566p-6,
     0x1.1ab76370c7fd7p-6, 0x1.76e476e4e64a7p-6},
    {0x1.76e476e4e64a7p-6, 0x1.a2a2e1971465ap-6, 0x1.571be67f22f81p-5, 0x1.761ceeac9e163p-6},
    0x1.d47f83ace9ba9p-5,
    0x1.b6c9f471e82b8p-4,
    0x1.1ace096197e3fp-7,
    0x3fce795c2d845e33ULL};
const Pinned kPinnedEulerBlockJacobi{
    {0x1p+0,
     0x1.b543eb8e61f6ep-2,
     0x1.3956715b32202p-2,
     0x1.47cd5ecb25ecp-2,
     0x1.6d92ace908a9p-4,
     0x1.401c3942e5ca3p-4,
     0x1.4295487e3423fp-5,
     0x1.2267f8e449942p-5,
     0x1.aef5212565881p-6,
     0x1.530e5b01fed2cp-6,
     0x1.380680d194813p-6,
     0x1.3d05bd5c9cf78p-6,
     0x1.d7749224efb2dp-7,
     0x1.6dca4d761b5dap-7,
     0x1.b8302bb65e3b9p-7,
     0x1.e2b562579f874p-7,
     0x1.e92ef410ae8bcp-7,
     0x1.8690eff06256ep-7,
     0x1.08b57cebb1c42p-7,
     0x1.cd67c240d1896p-8,
     0x1.1bd62609e1b29p-7,
     0x1.369dbd63b3d91p-7,
     0x1.1e4b42c27d5ep-7,
     0x1.a0ca5c73cd674p-8,
     0x1.0bade2e0cc4ddp-8},
    {0x1.0bade2e0cc4ddp-8, 0x1.f6915d4dc3effp-9, 0x1.389670f0f92aep-8, 0x1.e9e4d4c691458p-9},
    0x1.de46801c3379cp-3,
    0x1.563d2e53c43f3p-7,
    0x1.e94aed441d476p-9,
    0x9e8deeb0d5147fa8ULL};

constexpr int kEulerCycles = 25, kLaminarCycles = 15;

TEST(AirfoilBitwise, EulerNaca0012WithMultigridOnOneRank) {
  expect_bitwise(run(euler_case(), naca0012_grid(4e-3), MPI_COMM_SELF, kEulerCycles), kPinnedEuler,
                 "kPinnedEuler");
}

TEST(AirfoilBitwise, LaminarNaca0012OnOneRank) {
  expect_bitwise(run(laminar_case(), naca0012_grid(2e-3), MPI_COMM_SELF, kLaminarCycles),
                 kPinnedLaminar, "kPinnedLaminar");
}

// The fields and forces are the one-rank bits; the residual norms differ in their last bits
// (each rank sums its own slab before the sum over ranks), so they have their own table.
TEST(AirfoilBitwise, TwoRanksTakeTheOneRankPath) {
  expect_bitwise(run(euler_case(), naca0012_grid(4e-3), testing::world(), kEulerCycles),
                 kPinnedEulerTwoRanks, "kPinnedEulerTwoRanks");
  expect_bitwise(run(laminar_case(), naca0012_grid(2e-3), testing::world(), kLaminarCycles),
                 kPinnedLaminarTwoRanks, "kPinnedLaminarTwoRanks");
  for (const auto& [one, two] : {std::pair{&kPinnedEuler, &kPinnedEulerTwoRanks},
                                 std::pair{&kPinnedLaminar, &kPinnedLaminarTwoRanks}}) {
    EXPECT_EQ(one->field_hash, two->field_hash);
    EXPECT_EQ(bits_of(one->cl), bits_of(two->cl));
    EXPECT_EQ(bits_of(one->cd), bits_of(two->cd));
  }
}

TEST(AirfoilBitwise, BlockJacobiOnTwoRanks) {
  AirfoilParameters p = euler_case();
  p.lusgs_ranks = RankCoupling::kBlockJacobi;
  expect_bitwise(run(p, naca0012_grid(4e-3), testing::world(), kEulerCycles),
                 kPinnedEulerBlockJacobi, "kPinnedEulerBlockJacobi");
}

}  // namespace
}  // namespace surrox::solvers::airfoil

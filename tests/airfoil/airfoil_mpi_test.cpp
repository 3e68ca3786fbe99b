// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_cli
// The airfoil solver distributed over 2 MPI ranks (slabs of rows in j) against the same solver
// on one rank (MPI_COMM_SELF on each rank, so every rank also holds the one-rank reference):
// the residual of one non-trivial state (Euler and Navier–Stokes: halo rows, boundaries and
// metrics at the slab edge), free-stream preservation on a curved grid, a case converged to
// 1e-10 (Cl, Cd and the fields; the pipelined LU-SGS reproduces one rank exactly, block Jacobi
// within the tolerance), a bitwise restart from a 2-rank checkpoint, and the .pvts of the two
// pieces read back as one structured grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <tuple>

#include "io/hdf5_checkpoint.hpp"
#include "io/vtk_reader.hpp"
#include "io/vtk_writer.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/mpi_support.hpp"
#include "tests/airfoil/test_grids.hpp"

namespace surrox::solvers::airfoil {
namespace {

using testing::Fields;
using testing::parameters;
using testing::relative_difference;
using testing::world;

TEST(AirfoilMpi2, SlabsSplitTheRowsAndKeepTheMultigridLevels) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 10);
  AirfoilSolver one, two;
  one.initialize(parameters(Equations::kEuler), jk.grid);
  two.initialize(parameters(Equations::kEuler), jk.grid, world());
  EXPECT_EQ(one.rows(), 32);
  EXPECT_EQ(two.rows(), 16);
  EXPECT_EQ(two.first_row(), surrox::testing::runtime().rank() * 16);
  EXPECT_EQ(two.multigrid_levels(), one.multigrid_levels());
  EXPECT_EQ(one.multigrid_levels(), 4);
}

// The residual of one given state: halo rows, boundaries only at the physical ends, and the
// geometry of the neighbour's cells at the slab edge must make it the one-rank residual.
TEST(AirfoilMpi2, ResidualOfAGivenStateEqualsTheOneRankResidual) {
  // A grid of 12 rows per rank with MUSCL, and one of 4 rows with the first-order fluxes of the
  // coarse multigrid levels.
  for (const auto& [cells_i, cells_j, limiter] :
       {std::tuple{48L, 24L, Limiter::kVanAlbada}, std::tuple{16L, 8L, Limiter::kFirstOrder}})
    for (Equations equations : {Equations::kEuler, Equations::kNavierStokes}) {
      const auto jk = testing::joukowski_grid(cells_i, cells_j, -0.1, 0.05, 10);
      AirfoilParameters p = parameters(equations);
      p.limiter = limiter;
      AirfoilSolver start;
      start.initialize(p, jk.grid);
      for (int n = 0; n < 20; ++n) start.advance();  // a partially converged field
      const Fields w = start.primitive_host();

      AirfoilSolver one, two;
      one.initialize(p, jk.grid);
      two.initialize(p, jk.grid, world());
      ASSERT_LT(two.rows(), two.cells_j());
      one.set_initial_primitive(w[0], w[1], w[2], w[3]);
      two.set_initial_primitive(w[0], w[1], w[2], w[3]);
      one.compute_residual();
      two.compute_residual();
      const double difference = relative_difference(two.residual_host(), one.residual_host());
      std::cout << (equations == Equations::kEuler ? "Euler" : "Navier–Stokes")
                << ": residual on 2 ranks vs 1 rank, max relative difference " << difference
                << "\n";
      EXPECT_LE(difference, 1e-13);
      for (int k = 0; k < 4; ++k)
        EXPECT_NEAR(two.absolute_residuals()[k], one.absolute_residuals()[k],
                    1e-13 * one.absolute_residuals()[k]);
      for (const char* c : {"cl", "cd", "cd_friction", "cm"})
        EXPECT_NEAR(two.coefficients().at(c), one.coefficients().at(c), 1e-13) << c;
      const auto b1 = one.boundary_outflow(), b2 = two.boundary_outflow();
      for (int k = 0; k < 4; ++k) EXPECT_NEAR(b2[k], b1[k], 1e-12 * (1 + std::fabs(b1[k])));
      EXPECT_EQ(relative_difference(two.primitive_host(), one.primitive_host()), 0.0);
    }
}

TEST(AirfoilMpi2, FreeStreamIsPreservedOnACurvedGrid) {
  for (Equations equations : {Equations::kEuler, Equations::kNavierStokes}) {
    AirfoilParameters p = parameters(equations);
    p.reynolds = 1000;
    p.mach = 0.5;
    p.inner = InnerBoundary::kFarField;
    p.far_field = FarField::kFreestream;
    p.cfl = 50;
    AirfoilSolver solver;
    solver.initialize(p, testing::polar_grid(48, 24, 10, 0.08), world());
    ASSERT_EQ(solver.rows(), 12);
    const Fields before = solver.conservative_host();
    for (int n = 0; n < 50; ++n) solver.advance();
    const Fields after = solver.conservative_host();
    double worst = 0;
    for (int k = 0; k < 4; ++k)
      for (std::size_t n = 0; n < before[k].size(); ++n)
        worst = std::max(worst, std::fabs(after[k].data()[n] - before[k].data()[n]) /
                                    std::max(1.0, std::fabs(before[k].data()[n])));
    std::cout << "2 ranks, max |ΔU| (relative) after 50 cycles: " << worst << "\n";
    EXPECT_LT(worst, 1e-12);
  }
}

// The pipelined LU-SGS sweeps make 2 ranks take exactly the one-rank path; block-Jacobi
// sweeps (the neighbour's ΔU taken as zero) take another path to the same discrete solution.
TEST(AirfoilMpi2, ConvergedSolutionEqualsTheOneRankSolution) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 20);
  AirfoilParameters p = parameters(Equations::kEuler);
  p.mach = 0.3;
  p.alpha_deg = 2;
  p.residual_drop = 1e-10;
  p.max_iterations = 3000;
  AirfoilParameters jacobi = p;
  jacobi.lusgs_ranks = RankCoupling::kBlockJacobi;
  AirfoilSolver one, two, two_jacobi;
  one.initialize(p, jk.grid);
  two.initialize(p, jk.grid, world());
  two_jacobi.initialize(jacobi, jk.grid, world());
  while (!one.finished()) one.advance();
  while (!two.finished()) two.advance();
  while (!two_jacobi.finished()) two_jacobi.advance();
  for (AirfoilSolver* s : {&one, &two, &two_jacobi}) s->compute_residual();
  const Diagnostics a = one.diagnostics(), b = two.diagnostics(), c = two_jacobi.diagnostics();
  const double fields = relative_difference(two.primitive_host(), one.primitive_host());
  const double fields_jacobi =
      relative_difference(two_jacobi.primitive_host(), one.primitive_host());
  std::cout << "converged to 1e-10: 1 rank " << one.step() << " cycles, 2 ranks " << two.step()
            << " (pipelined LU-SGS), " << two_jacobi.step() << " (block Jacobi); Cl " << a.at("cl")
            << ", Δ " << b.at("cl") - a.at("cl") << " and " << c.at("cl") - a.at("cl") << "; Cd "
            << a.at("cd") << ", Δ " << b.at("cd") - a.at("cd") << " and " << c.at("cd") - a.at("cd")
            << "; fields max relative difference " << fields << " and " << fields_jacobi << "\n";
  EXPECT_EQ(a.at("converged"), 1.0);
  EXPECT_EQ(b.at("converged"), 1.0);
  EXPECT_EQ(c.at("converged"), 1.0);
  // Pipelined: the same iterates bit for bit (only the norms add up in another order).
  EXPECT_EQ(two.step(), one.step());
  EXPECT_EQ(b.at("cl"), a.at("cl"));
  EXPECT_EQ(fields, 0.0);
  // Block Jacobi: the same solution within the convergence tolerance.
  EXPECT_NEAR(c.at("cl"), a.at("cl"), 1e-7);
  EXPECT_NEAR(c.at("cd"), a.at("cd"), 1e-7);
  EXPECT_LT(fields_jacobi, 1e-6);
}

TEST(AirfoilMpi2, RestartFromA2RankCheckpointIsBitwise) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  for (Equations equations : {Equations::kEuler, Equations::kNavierStokes}) {
    AirfoilParameters p = parameters(equations);
    AirfoilSolver reference;
    reference.initialize(p, jk.grid, world());
    for (int n = 0; n < 30; ++n) reference.advance();

    AirfoilSolver first;
    first.initialize(p, jk.grid, world());
    for (int n = 0; n < 15; ++n) first.advance();
    io::Hdf5Checkpoint saved;
    first.save_state(saved);
    const auto path = surrox::testing::scratch_dir() / "airfoil_checkpoint.h5";
    saved.write(path, world());

    AirfoilSolver resumed;
    resumed.initialize(p, jk.grid, world());
    resumed.load_state(io::Hdf5Checkpoint::read(path, world()));
    EXPECT_EQ(resumed.step(), 15);
    for (int n = 0; n < 15; ++n) resumed.advance();
    EXPECT_EQ(resumed.residual(), reference.residual());
    EXPECT_EQ(relative_difference(resumed.conservative_host(), reference.conservative_host()), 0.0);
  }
}

// A diverging cell on rank 1: both ranks stop at the same check with the same message.
TEST(AirfoilMpi2, DivergenceOnOneRankStopsBothWithTheSameError) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  AirfoilSolver solver;
  solver.initialize(parameters(Equations::kEuler), jk.grid, world());
  const Fields w = solver.primitive_host();
  AirfoilSolver::HostMatrix wild("p", w[3].extent(0), w[3].extent(1));
  Kokkos::deep_copy(wild, w[3]);
  wild(5, 12) = 1e4 * wild(5, 12);  // row 12: rank 1's slab
  solver.set_initial_primitive(w[0], w[1], w[2], wild);
  std::string what;
  try {
    for (int n = 0; n < 50; ++n) solver.advance();
  } catch (const InputError&) {
    FAIL() << "divergence must be a runtime Error, not bad input";
  } catch (const Error& e) {
    what = e.detail();
  }
  ASSERT_NE(what.find("diverged at iteration"), std::string::npos) << what;
  if (surrox::testing::runtime().root()) std::cout << what << "\n";
  // Rank 0's message, compared on every rank.
  int length = static_cast<int>(what.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, world());
  std::string first(static_cast<std::size_t>(length), ' ');
  if (surrox::testing::runtime().root()) first = what;
  MPI_Bcast(first.data(), length, MPI_CHAR, 0, world());
  EXPECT_EQ(what, first);
}

TEST(AirfoilMpi2, PartitionedVtkReadsBackAsOneGrid) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  AirfoilSolver solver;
  solver.initialize(parameters(Equations::kEuler), jk.grid, world());
  for (int n = 0; n < 5; ++n) solver.advance();
  const io::MeshData piece = solver.output_mesh();
  EXPECT_EQ(piece.extent, (std::array<long, 6>{0, 32, solver.first_row(),
                                               solver.first_row() + solver.rows(), 0, 0}));
  const auto path = surrox::testing::scratch_dir() / "airfoil.pvts";
  io::write_vtk_partitioned(piece, path, world());
  const Fields w = solver.primitive_host();
  const io::MeshData mesh = io::read_vtk_single(path);
  EXPECT_EQ(mesh.kind, io::MeshKind::kStructured);
  EXPECT_EQ(mesh.number_of_cells(), 32u * 16u);
  EXPECT_EQ(mesh.number_of_points(), 33u * 17u);
  EXPECT_EQ(mesh.dimensions(), (std::array<long, 3>{33, 17, 1}));
  const io::NamedArray* rho = mesh.find_cell_array("density");
  ASSERT_NE(rho, nullptr);
  ASSERT_EQ(rho->tuples(), 32u * 16u);
  std::size_t differing = 0;
  for (long j = 0; j < 16; ++j)
    for (long i = 0; i < 32; ++i) differing += rho->values(i + 32 * j, 0) != w[0](i, j);
  EXPECT_EQ(differing, 0u);
  // The points are the grid's, in the global index space.
  EXPECT_EQ(mesh.points(33 * 16 + 5, 0), jk.grid.x(5, 16));
  EXPECT_EQ(mesh.points(33 * 16 + 5, 1), jk.grid.y(5, 16));
}

}  // namespace
}  // namespace surrox::solvers::airfoil

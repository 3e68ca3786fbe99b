// ctest-labels: unit
// ctest-libraries: surrox_lammps
// ctest-requires: surrox_lammps
// The pair style's own full neighbour list: every owned atom's neighbours among owned and ghost
// atoms within the cutoff, none beyond, ghosts never centres; against brute force on random
// points, including a sparse cloud (few bins) and points on bin edges.
#include "lammps/ghost_neighbor_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace surrox::lammps {
namespace {

std::vector<long> sorted(std::vector<long> v) {
  std::sort(v.begin(), v.end());
  return v;
}

void expect_brute_force(const std::vector<double>& x, long nlocal, double cutoff) {
  const long nall = static_cast<long>(x.size() / 3);
  const GhostNeighborList list = build_ghost_neighbor_list(x.data(), nlocal, nall, cutoff);
  ASSERT_EQ(static_cast<long>(list.first.size()), nlocal + 1);
  for (long i = 0; i < nlocal; ++i) {
    std::vector<long> expected;
    for (long j = 0; j < nall; ++j) {
      double r2 = 0;
      for (int d = 0; d < 3; ++d)
        r2 += (x[3 * j + d] - x[3 * i + d]) * (x[3 * j + d] - x[3 * i + d]);
      if (j != i && r2 < cutoff * cutoff) expected.push_back(j);
    }
    const std::vector<long> got(list.neighbors.begin() + list.first[i],
                                list.neighbors.begin() + list.first[i + 1]);
    EXPECT_EQ(sorted(got), expected) << "atom " << i;
  }
}

TEST(GhostNeighborList, HandWorkedLine) {
  // Atoms at 0, 1, 2.5, 4 on x; owned: the first two; cutoff 1.6.
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 2.5, 0, 0, 4, 0, 0};
  const GhostNeighborList list = build_ghost_neighbor_list(x.data(), 2, 4, 1.6);
  EXPECT_EQ(list.first, (std::vector<long>{0, 1, 3}));
  EXPECT_EQ(list.neighbors[0], 1);
  EXPECT_EQ(sorted({list.neighbors[1], list.neighbors[2]}), (std::vector<long>{0, 2}));
}

TEST(GhostNeighborList, EqualsBruteForce) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-2.0, 12.0);
  std::vector<double> x(3 * 400);
  for (double& v : x) v = u(rng);
  expect_brute_force(x, 250, 3.0);
  expect_brute_force(x, 400, 7.5);  // fewer bins than the extent needs
  // A sparse cloud: far-apart clusters, so bins are capped by the atom count.
  std::vector<double> sparse;
  for (int c = 0; c < 5; ++c)
    for (int k = 0; k < 6; ++k)
      for (int d = 0; d < 3; ++d) sparse.push_back(1000.0 * c + u(rng) * 0.2);
  expect_brute_force(sparse, 20, 1.0);
  // Points exactly on bin edges of a 1-wide lattice.
  std::vector<double> grid;
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 5; ++c)
        for (double v : {1.0 * a, 1.0 * b, 1.0 * c}) grid.push_back(v);
  expect_brute_force(grid, 60, 1.0001);
}

}  // namespace
}  // namespace surrox::lammps

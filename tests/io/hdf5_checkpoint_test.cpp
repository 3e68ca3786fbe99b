// ctest-libraries: surrox_io_hdf5
// ctest-ranks: 2
// ctest-labels: unit mpi
// Checkpoints: every rank's pieces, scalars and strings round-trip bit for bit; a different
// rank count is refused; a write that fails midway leaves the previous checkpoint intact.
#include "io/hdf5_checkpoint.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "core/error.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

Hdf5Checkpoint make_checkpoint(int rank, double shift) {
  Hdf5Checkpoint checkpoint;
  checkpoint.scalars = {{"step", 1234}, {"time", 0.1 + shift}, {"dt", 1.0 / 3.0}};
  checkpoint.strings = {{"solver", "heat"}, {"note", "restart \"quoted\" text\nsecond line"}};
  NamedArray u{"u", HostArray("u", 5 + rank, 2)};
  for (std::size_t i = 0; i < u.tuples(); ++i) {
    u.values(i, 0) = std::sqrt(2.0 + i) * (rank + 1) + shift;
    u.values(i, 1) = -std::exp(-static_cast<double>(i)) / 3.0;
  }
  u.values(0, 1) = std::numeric_limits<double>::denorm_min();
  u.values(1, 1) = -0.0;
  u.values(2, 1) = std::numeric_limits<double>::infinity();
  u.values(3, 1) = std::numeric_limits<double>::quiet_NaN();
  NamedArray empty{"empty", HostArray("empty", 0, 3)};
  NamedArray only_here{"rank_specific_" + std::to_string(rank), HostArray("x", 1, 1)};
  only_here.values(0, 0) = rank;
  checkpoint.arrays = {u, empty, only_here};
  return checkpoint;
}

bool bitwise_equal(const HostArray& a, const HostArray& b) {
  if (a.extent(0) != b.extent(0) || a.extent(1) != b.extent(1)) return false;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t c = 0; c < a.extent(1); ++c)
      if (std::memcmp(&a(i, c), &b(i, c), sizeof(double)) != 0) return false;
  return true;
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(Hdf5Checkpoint, RoundTripIsBitwise) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm);
  const auto path = surrox::testing::scratch_dir() / "restart.h5";
  const Hdf5Checkpoint written = make_checkpoint(rank, 0);
  written.write(path, comm);
  const Hdf5Checkpoint read = Hdf5Checkpoint::read(path, comm);
  EXPECT_EQ(read.scalar("step"), 1234);
  EXPECT_EQ(std::memcmp(&read.scalars.at("dt"), &written.scalars.at("dt"), sizeof(double)), 0);
  EXPECT_EQ(read.scalars, written.scalars);
  EXPECT_EQ(read.strings, written.strings);
  ASSERT_EQ(read.arrays.size(), 3u);
  for (const auto& array : written.arrays)
    EXPECT_TRUE(bitwise_equal(read.array(array.name).values, array.values)) << array.name;
  EXPECT_EQ(read.arrays[0].name, "u");  // in the order written
  EXPECT_THROW(read.scalar("missing"), InputError);
  EXPECT_THROW(read.array("missing"), InputError);
}

TEST(Hdf5Checkpoint, DifferentRankCountIsRefused) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size < 2) GTEST_SKIP() << "needs 2 ranks (runs under ctest as hdf5_checkpoint_test_np2)";
  const auto dir = surrox::testing::scratch_dir();
  make_checkpoint(rank_of(comm), 0).write(dir / "two.h5", comm);
  // Read back on one rank each: refused, and the message says why.
  try {
    Hdf5Checkpoint::read(dir / "two.h5", MPI_COMM_SELF);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("written by 2 ranks"), std::string::npos) << e.what();
  }
  MPI_Barrier(comm);
  // Written on one rank, read on two.
  if (rank_of(comm) == 0) make_checkpoint(0, 0).write(dir / "one.h5", MPI_COMM_SELF);
  MPI_Barrier(comm);
  EXPECT_THROW(Hdf5Checkpoint::read(dir / "one.h5", comm), InputError);
}

TEST(Hdf5Checkpoint, FailedOverwriteKeepsThePreviousCheckpoint) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm);
  const auto dir = surrox::testing::scratch_dir();
  const auto path = dir / "restart.h5";
  make_checkpoint(rank, 0).write(path, comm);
  MPI_Barrier(comm);
  const std::string before = file_bytes(path);
  // The second write fails after the file and several datasets exist: the last rank holds
  // two arrays named "u", so creating /rank_<last>/u a second time fails in HDF5.
  Hdf5Checkpoint broken = make_checkpoint(rank, 1);
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (rank == size - 1) broken.arrays.push_back(broken.arrays[0]);
  EXPECT_THROW(broken.write(path, comm), Error);
  MPI_Barrier(comm);
  EXPECT_EQ(file_bytes(path), before);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);  // no temporary left
  const Hdf5Checkpoint read = Hdf5Checkpoint::read(path, comm);
  EXPECT_EQ(read.scalar("time"), 0.1);
  EXPECT_TRUE(bitwise_equal(read.array("u").values, make_checkpoint(rank, 0).arrays[0].values));
}

TEST(Hdf5Checkpoint, DamagedFilesAreInputErrors) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const auto dir = surrox::testing::scratch_dir();
  make_checkpoint(rank_of(comm), 0).write(dir / "good.h5", comm);
  MPI_Barrier(comm);
  if (rank_of(comm) == 0) {
    const std::string bytes = file_bytes(dir / "good.h5");
    std::ofstream(dir / "half.h5", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    std::ofstream(dir / "text.h5", std::ios::binary) << "not hdf5 at all";
  }
  MPI_Barrier(comm);
  EXPECT_THROW(Hdf5Checkpoint::read(dir / "half.h5", comm), InputError);
  EXPECT_THROW(Hdf5Checkpoint::read(dir / "text.h5", comm), InputError);
  EXPECT_THROW(Hdf5Checkpoint::read(dir / "missing.h5", comm), InputError);
}

}  // namespace
}  // namespace surrox::io

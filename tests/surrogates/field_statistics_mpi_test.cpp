// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_surrogates
// ctest-pch: torch
// summary.json's field statistics cover every rank's piece of a decomposed field, not rank 0's:
// rank r holds 3 × 2 values r·10 + n, so the whole field is {0..5, 10..15}.
#include <gtest/gtest.h>

#include <cmath>

#include "core/runtime.hpp"
#include "support/test_paths.hpp"
#include "surrogates/field_statistics.hpp"

namespace surrox::surrogates {
namespace {

TEST(FieldStatistics, ReduceOverEveryRanksPiece) {
  const MPI_Comm comm = surrox::testing::runtime().comm();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ASSERT_EQ(size, 2);
  Field3 piece("piece", 1, 3, 2);
  auto host = Kokkos::create_mirror_view(piece);
  for (int n = 0; n < 6; ++n) host.data()[n] = 10.0 * rank + n;
  Kokkos::deep_copy(piece, host);
  FieldSet fields;
  fields.add("u", piece, "m/s");

  const nlohmann::json s = field_statistics(fields, comm)["u"];
  EXPECT_EQ(s["values"].get<long long>(), 12);
  EXPECT_DOUBLE_EQ(s["min"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(s["max"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(s["mean"].get<double>(), 7.5);
  double squares = 0;
  for (int r = 0; r < 2; ++r)
    for (int n = 0; n < 6; ++n) squares += (10.0 * r + n) * (10.0 * r + n);
  EXPECT_NEAR(s["rms"].get<double>(), std::sqrt(squares / 12), 1e-12);
  EXPECT_EQ(s["shape"].get<std::vector<long>>(),
            (std::vector<long>{1, 3, 2}));  // this rank's piece
  EXPECT_EQ(s["unit"].get<std::string>(), "m/s");

  // On one rank's own communicator: that piece alone.
  const nlohmann::json own = field_statistics(fields)["u"];
  EXPECT_EQ(own["values"].get<long long>(), 6);
  EXPECT_DOUBLE_EQ(own["mean"].get<double>(), 10.0 * rank + 2.5);
}

}  // namespace
}  // namespace surrox::surrogates

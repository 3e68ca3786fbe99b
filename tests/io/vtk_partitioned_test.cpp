// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_io_vtk
// write_vtk_partitioned at 2 ranks: every rank writes its piece, rank 0 reads the summary
// back with read_vtk and checks that it is the union of the pieces.
#include <gtest/gtest.h>
#include <mpi.h>

#include "core/error.hpp"
#include "io/vtk_reader.hpp"
#include "io/vtk_writer.hpp"
#include "support/test_paths.hpp"
#include "vtk_test_meshes.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;
using namespace surrox::io::testing;
using surrox::testing::scratch_dir;

int rank_of() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
int ranks_of() {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

// Rank r owns points i = 4r .. 4r+4 of a global image (the planes between ranks are shared).
MeshData image_piece(int rank) {
  MeshData piece = image_mesh({4L * rank, 4L * rank + 4, 0, 3, 0, 2});
  HostArray field("field", piece.number_of_points(), 1);
  std::size_t p = 0;
  for (long k = piece.extent[4]; k <= piece.extent[5]; ++k)
    for (long j = piece.extent[2]; j <= piece.extent[3]; ++j)
      for (long i = piece.extent[0]; i <= piece.extent[1]; ++i)
        field(p++, 0) = image_field(i, j, k);
  piece.point_data.push_back({"field", field});
  piece.cell_data.push_back({"owner", HostArray("owner", piece.number_of_cells(), 1)});
  Kokkos::deep_copy(piece.cell_data[0].values, rank);
  return piece;
}

TEST(VtkPartitioned, ImagePiecesMakeTheWholeImage) {
  const int rank = rank_of(), ranks = ranks_of();
  const fs::path summary = scratch_dir() / "field.pvti";
  write_vtk_partitioned(image_piece(rank), summary, MPI_COMM_WORLD);
  EXPECT_TRUE(fs::exists(vtk_piece_path(summary, MeshKind::kImage, rank)));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) return;

  const MeshData whole = read_vtk_single(summary);
  ASSERT_EQ(whole.kind, MeshKind::kImage);
  EXPECT_EQ(whole.extent, (std::array<long, 6>{0, 4L * ranks, 0, 3, 0, 2}));
  EXPECT_EQ(whole.origin, image_mesh().origin);
  EXPECT_EQ(whole.spacing, image_mesh().spacing);
  EXPECT_EQ(whole.number_of_points(), (4u * ranks + 1) * 4 * 3);
  const NamedArray* field = whole.find_point_array("field");
  ASSERT_NE(field, nullptr);
  std::size_t p = 0;
  for (long k = 0; k <= 2; ++k)
    for (long j = 0; j <= 3; ++j)
      for (long i = 0; i <= 4L * ranks; ++i, ++p)
        ASSERT_EQ(field->values(p, 0), image_field(i, j, k)) << i << j << k;
  const NamedArray* owner = whole.find_cell_array("owner");
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(owner->values(0, 0), 0.0);
  EXPECT_EQ(owner->values(whole.number_of_cells() - 1, 0), ranks - 1.0);
}

TEST(VtkPartitioned, UnstructuredPiecesAreAppended) {
  const int rank = rank_of(), ranks = ranks_of();
  const fs::path summary = scratch_dir() / "grid.pvtu";
  MeshData piece = unstructured_mesh(2.0 * rank);
  add_arrays(piece, rank);
  write_vtk_partitioned(piece, summary, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) return;

  const MeshData whole = read_vtk_single(summary);
  ASSERT_EQ(whole.kind, MeshKind::kUnstructured);
  EXPECT_EQ(whole.number_of_points(), 13u * ranks);
  EXPECT_EQ(whole.number_of_cells(), 3u * ranks);
  const NamedArray* velocity = whole.find_point_array("velocity");
  ASSERT_NE(velocity, nullptr);
  ASSERT_EQ(velocity->components(), 3u);
  for (int r = 0; r < ranks; ++r) {
    MeshData expected = unstructured_mesh(2.0 * r);
    add_arrays(expected, r);
    for (std::size_t p = 0; p < 13; ++p) {
      EXPECT_EQ(whole.points(13 * r + p, 0), expected.points(p, 0));
      for (std::size_t c = 0; c < 3; ++c)
        EXPECT_EQ(velocity->values(13 * r + p, c), expected.point_data[1].values(p, c));
    }
    EXPECT_EQ(whole.find_cell_array("stress2")->values(3 * r + 2, 1),
              expected.cell_data[1].values(2, 1));
    EXPECT_EQ(whole.connectivity[whole.cell_offsets[3 * r]], 13 * r)
        << "piece " << r << " point ids are offset";
  }
}

TEST(VtkPartitioned, MismatchedArraysFailOnEveryRank) {
  const int rank = rank_of();
  MeshData piece = unstructured_mesh();
  if (rank == 0) add_arrays(piece);
  const fs::path folder = scratch_dir();
  if (ranks_of() > 1) {
    EXPECT_THROW(write_vtk_partitioned(piece, folder / "bad.pvtu", MPI_COMM_WORLD), Error);
    EXPECT_FALSE(fs::exists(folder / "bad.pvtu"));
  }
  MeshData image = image_mesh();
  EXPECT_THROW(write_vtk_partitioned(image, folder / "wrong.pvtu", MPI_COMM_WORLD), Error);
}

}  // namespace
}  // namespace surrox::io

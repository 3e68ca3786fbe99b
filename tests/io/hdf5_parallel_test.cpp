// ctest-libraries: surrox_io_hdf5
// ctest-ranks: 2
// ctest-labels: unit mpi
// Collective HDF5 dataset writes: each rank contributes its piece of an image (split in j,
// neighbouring pieces sharing a layer of points) and of an unstructured mesh (concatenated in
// rank order); every rank reads the file back and compares with the serial expectation.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

int parallel_rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

double point_value(long i, long j, long k, std::size_t c, double t) {
  return i + 10.0 * j + 100.0 * k + 1000.0 * c + t;
}
double cell_value(long i, long j, long k, std::size_t c, double t) {
  return -(i + 7.0 * j + 49.0 * k) - 0.5 * c + t;
}

MeshData image_piece(std::array<long, 6> e) {
  MeshData mesh;
  mesh.kind = MeshKind::kImage;
  mesh.extent = e;
  mesh.origin = {1, 2, 3};
  mesh.spacing = {0.5, 0.25, 2};
  return mesh;
}

NamedArray image_points(const MeshData& m, std::size_t components, double t) {
  const auto& e = m.extent;
  NamedArray a{"T", HostArray("T", m.number_of_points(), components)};
  std::size_t n = 0;
  for (long k = e[4]; k <= e[5]; ++k)
    for (long j = e[2]; j <= e[3]; ++j)
      for (long i = e[0]; i <= e[1]; ++i, ++n)
        for (std::size_t c = 0; c < components; ++c) a.values(n, c) = point_value(i, j, k, c, t);
  if (components > 1) a.name = "u";
  return a;
}

NamedArray image_cells(const MeshData& m, double t) {
  const auto& e = m.extent;
  NamedArray a{"q", HostArray("q", m.number_of_cells(), 3)};
  std::size_t n = 0;
  for (long k = e[4]; k < e[5]; ++k)
    for (long j = e[2]; j < e[3]; ++j)
      for (long i = e[0]; i < e[1]; ++i, ++n)
        for (std::size_t c = 0; c < 3; ++c) a.values(n, c) = cell_value(i, j, k, c, t);
  return a;
}

// Piece r of an unstructured mesh: a 3 x 2 patch shifted by 10 r in x; odd ranks lack the vertex.
MeshData unstructured_piece(int r) {
  MeshData mesh;
  mesh.kind = MeshKind::kUnstructured;
  mesh.points = HostArray("points", 6, 3);
  for (int j = 0, n = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i, ++n) {
      mesh.points(n, 0) = i + 10.0 * r;
      mesh.points(n, 1) = j;
      mesh.points(n, 2) = 0.5 * r;
    }
  mesh.cell_types = {9, 5, 5, 1};
  mesh.connectivity = {0, 1, 4, 3, 1, 2, 5, 1, 5, 4, 0};
  mesh.cell_offsets = {0, 4, 7, 10, 11};
  if (r % 2 == 1) {
    mesh.cell_types.pop_back();
    mesh.connectivity.pop_back();
    mesh.cell_offsets.pop_back();
  }
  return mesh;
}

std::size_t cells_before(int r) {
  std::size_t n = 0;
  for (int q = 0; q < r; ++q) n += unstructured_piece(q).cell_types.size();
  return n;
}

std::vector<NamedArray> unstructured_fields(int r, double t) {
  const MeshData mesh = unstructured_piece(r);
  NamedArray p{"p", HostArray("p", 6, 1)}, id{"id", HostArray("id", mesh.cell_types.size(), 2)};
  for (std::size_t n = 0; n < 6; ++n)
    p.values(n, 0) = mesh.points(n, 0) + 100 * mesh.points(n, 1) + t;
  for (std::size_t c = 0; c < mesh.cell_types.size(); ++c) {
    id.values(c, 0) = static_cast<double>(cells_before(r) + c);
    id.values(c, 1) = t;
  }
  return {p, id};
}

bool chunked_and_deflated(const std::filesystem::path& path, const char* dataset_name) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t dataset = H5Dopen2(file, dataset_name, H5P_DEFAULT);
  hid_t dcpl = H5Dget_create_plist(dataset);
  bool deflate = false;
  for (int f = 0; f < H5Pget_nfilters(dcpl); ++f) {
    unsigned flags = 0, values[8], config = 0;
    size_t n = 8;
    char name[64];
    if (H5Pget_filter2(dcpl, f, &flags, &n, values, sizeof name, name, &config) ==
        H5Z_FILTER_DEFLATE)
      deflate = true;
  }
  const bool chunked = H5Pget_layout(dcpl) == H5D_CHUNKED;
  H5Pclose(dcpl);
  H5Dclose(dataset);
  H5Fclose(file);
  return chunked && deflate;
}

void expect_same_array(const HostArray& a, const HostArray& b, const std::string& what) {
  ASSERT_EQ(a.extent(0), b.extent(0)) << what;
  ASSERT_EQ(a.extent(1), b.extent(1)) << what;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t c = 0; c < a.extent(1); ++c)
      ASSERT_EQ(a(i, c), b(i, c)) << what << " at " << i << "," << c;
}

TEST(Hdf5Parallel, ImageSplitInJ) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = parallel_rank_of(comm), size = size_of(comm);
  const auto dir = surrox::testing::scratch_dir();  // (each call empties the folder)
  const auto path = dir / "image.h5";
  const long nj = 4 * size + 1;  // points 0..nj-1 along j
  const std::array<long, 6> global{0, 6, 0, nj - 1, 0, 2};
  // Rank r owns j in [4r, 4r + 4]: neighbours share one layer of points.
  const MeshData piece = image_piece({0, 6, 4 * rank, 4 * rank + 4, 0, 2});
  const std::vector<FieldSpec> fields{{"T", FieldSpec::On::kPoints, 1, "K", ""},
                                      {"u", FieldSpec::On::kPoints, 3, "m/s", ""},
                                      {"q", FieldSpec::On::kCells, 3, "", ""}};
  const std::vector<double> times{0, 0.5, 1.25};
  {
    Hdf5DatasetWriter writer(path, comm, piece, fields, "case: 1\n", "hdf5_parallel_test");
    writer.set_attribute("ranks", static_cast<double>(size));
    for (double t : times)
      writer.append(t,
                    {image_points(piece, 1, t), image_points(piece, 3, t), image_cells(piece, t)});
    writer.close();
  }
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::exists(dir / "image.xdmf"));
  Hdf5DatasetReader reader(path);
  EXPECT_EQ(reader.times(), times);
  const MeshData mesh = reader.mesh();
  EXPECT_EQ(mesh.extent, global);
  EXPECT_EQ(mesh.origin, piece.origin);
  const MeshData whole = image_piece(global);
  for (std::size_t step = 0; step < times.size(); ++step) {
    expect_same_array(reader.read("T", step), image_points(whole, 1, times[step]).values, "T");
    expect_same_array(reader.read("u", step), image_points(whole, 3, times[step]).values, "u");
    expect_same_array(reader.read("q", step), image_cells(whole, times[step]).values, "q");
  }
  EXPECT_EQ(reader.attributes().at("ranks"), std::to_string(size));
  EXPECT_TRUE(chunked_and_deflated(path, "/fields/T"));
  EXPECT_TRUE(chunked_and_deflated(path, "/fields/q"));
}

TEST(Hdf5Parallel, UnstructuredConcatenated) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = parallel_rank_of(comm), size = size_of(comm);
  const auto path = surrox::testing::scratch_dir() / "mesh.h5";
  const std::vector<FieldSpec> fields{{"p", FieldSpec::On::kPoints, 1, "Pa", ""},
                                      {"id", FieldSpec::On::kCells, 2, "", ""}};
  {
    Hdf5DatasetWriter writer(path, comm, unstructured_piece(rank), fields, "",
                             "hdf5_parallel_test");
    writer.append(0.0, unstructured_fields(rank, 0.0));
    writer.append(2.0, unstructured_fields(rank, 2.0));
    writer.close();
  }
  // The serial expectation: pieces concatenated in rank order.
  MeshData expected;
  expected.kind = MeshKind::kUnstructured;
  expected.points = HostArray("points", 6 * size, 3);
  expected.cell_offsets = {0};
  std::vector<HostArray> p_expected(2), id_expected(2);
  for (int r = 0; r < size; ++r) {
    const MeshData piece = unstructured_piece(r);
    for (std::size_t n = 0; n < 6; ++n)
      for (int c = 0; c < 3; ++c) expected.points(6 * r + n, c) = piece.points(n, c);
    const auto base = static_cast<std::int64_t>(expected.connectivity.size());
    for (auto id : piece.connectivity) expected.connectivity.push_back(id + 6 * r);
    for (std::size_t c = 0; c < piece.cell_types.size(); ++c) {
      expected.cell_types.push_back(piece.cell_types[c]);
      expected.cell_offsets.push_back(base + piece.cell_offsets[c + 1]);
    }
  }
  Hdf5DatasetReader reader(path);
  const MeshData mesh = reader.mesh();
  expect_same_array(mesh.points, expected.points, "points");
  EXPECT_EQ(mesh.cell_types, expected.cell_types);
  EXPECT_EQ(mesh.cell_offsets, expected.cell_offsets);
  EXPECT_EQ(mesh.connectivity, expected.connectivity);
  for (std::size_t step = 0; step < 2; ++step) {
    const double t = step * 2.0;
    const HostArray p = reader.read("p", step), id = reader.read("id", step);
    std::size_t point = 0, cell = 0;
    for (int r = 0; r < size; ++r) {
      const auto local = unstructured_fields(r, t);
      for (std::size_t n = 0; n < local[0].tuples(); ++n, ++point)
        ASSERT_EQ(p(point, 0), local[0].values(n, 0));
      for (std::size_t c = 0; c < local[1].tuples(); ++c, ++cell) {
        ASSERT_EQ(id(cell, 0), local[1].values(c, 0));
        ASSERT_EQ(id(cell, 1), local[1].values(c, 1));
      }
    }
    EXPECT_EQ(point, p.extent(0));
    EXPECT_EQ(cell, id.extent(0));
  }
  EXPECT_TRUE(chunked_and_deflated(path, "/fields/p"));
}

TEST(Hdf5Parallel, BadPieceOnOneRankFailsEverywhere) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = parallel_rank_of(comm), size = size_of(comm);
  const auto dir = surrox::testing::scratch_dir();
  MeshData piece = unstructured_piece(rank);
  if (rank == size - 1) piece.connectivity[0] = 99;  // out of range on the last rank only
  EXPECT_THROW(Hdf5DatasetWriter(dir / "bad.h5", comm, piece, {}, "", "t"), InputError);
  // A missing field on one rank: every rank throws, nothing is left behind.
  {
    Hdf5DatasetWriter writer(dir / "partial.h5", comm, unstructured_piece(rank),
                             {{"p", FieldSpec::On::kPoints, 1, "", ""}}, "", "t");
    auto arrays = unstructured_fields(rank, 0);
    if (rank == 0) arrays.erase(arrays.begin());
    EXPECT_THROW(writer.append(0, arrays), InputError);
  }
  MPI_Barrier(comm);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0);
}

}  // namespace
}  // namespace surrox::io

// ctest-libraries: surrox_io_hdf5
// ctest-labels: unit
// Serial HDF5 datasets: round trips of image (3-D and 2-D), structured, unstructured and
// polydata meshes with point and cell fields over several steps; attributes and case text;
// the .xdmf sidecar; atomic writes; corrupt and foreign files raise InputError.
#include "io/hdf5_dataset.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "core/error.hpp"
#include "io/xdmf_writer.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

HostArray make_array(std::size_t n, std::size_t c) { return HostArray("a", n, c); }

MeshData make_image(std::array<long, 6> extent) {
  MeshData mesh;
  mesh.kind = MeshKind::kImage;
  mesh.extent = extent;
  mesh.origin = {0.5, -1.0, 2.0};
  mesh.spacing = {0.1, 0.2, 0.3};
  return mesh;
}

// A point field of an image/structured piece with known values at global indices.
NamedArray structured_points(const std::string& name, const MeshData& mesh, std::size_t components,
                             double t) {
  const auto& e = mesh.extent;
  NamedArray array{name, make_array(mesh.number_of_points(), components)};
  std::size_t n = 0;
  for (long k = e[4]; k <= e[5]; ++k)
    for (long j = e[2]; j <= e[3]; ++j)
      for (long i = e[0]; i <= e[1]; ++i, ++n)
        for (std::size_t c = 0; c < components; ++c)
          array.values(n, c) = i + 10.0 * j + 100.0 * k + 1000.0 * c + t / 3;
  return array;
}

NamedArray structured_cells(const std::string& name, const MeshData& mesh, std::size_t components,
                            double t) {
  const auto& e = mesh.extent;
  auto hi = [](long lo, long h) { return h > lo ? h - 1 : h; };
  NamedArray array{name, make_array(mesh.number_of_cells(), components)};
  std::size_t n = 0;
  for (long k = e[4]; k <= hi(e[4], e[5]); ++k)
    for (long j = e[2]; j <= hi(e[2], e[3]); ++j)
      for (long i = e[0]; i <= hi(e[0], e[1]); ++i, ++n)
        for (std::size_t c = 0; c < components; ++c)
          array.values(n, c) = -(i + 7.0 * j + 49.0 * k) - c * 0.5 + t;
  return array;
}

MeshData make_structured() {
  MeshData mesh;
  mesh.kind = MeshKind::kStructured;
  mesh.extent = {0, 3, 0, 2, 0, 1};
  mesh.points = make_array(4 * 3 * 2, 3);
  std::size_t n = 0;
  for (long k = 0; k <= 1; ++k)
    for (long j = 0; j <= 2; ++j)
      for (long i = 0; i <= 3; ++i, ++n) {
        mesh.points(n, 0) = i + 0.1 * j;
        mesh.points(n, 1) = 0.5 * j * j;
        mesh.points(n, 2) = k * 1.5;
      }
  return mesh;
}

MeshData make_unstructured(MeshKind kind = MeshKind::kUnstructured) {
  // 3 x 2 points; a quad, two triangles and a vertex.
  MeshData mesh;
  mesh.kind = kind;
  mesh.points = make_array(6, 3);
  for (int j = 0, n = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i, ++n) {
      mesh.points(n, 0) = i;
      mesh.points(n, 1) = j;
      mesh.points(n, 2) = 0.25 * i * j;
    }
  mesh.cell_types = {9, 5, 5, 1};
  mesh.connectivity = {0, 1, 4, 3, 1, 2, 5, 1, 5, 4, 0};
  mesh.cell_offsets = {0, 4, 7, 10, 11};
  return mesh;
}

NamedArray indexed(const std::string& name, std::size_t n, std::size_t components, double t) {
  NamedArray array{name, make_array(n, components)};
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < components; ++c)
      array.values(i, c) = 1.0 / (i + 1) + c * 10 + t * 100;
  return array;
}

void expect_equal(const HostArray& a, const HostArray& b, const std::string& what) {
  ASSERT_EQ(a.extent(0), b.extent(0)) << what;
  ASSERT_EQ(a.extent(1), b.extent(1)) << what;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t c = 0; c < a.extent(1); ++c)
      ASSERT_EQ(a(i, c), b(i, c)) << what << " at " << i << "," << c;
}

std::vector<FieldSpec> standard_fields() {
  return {{"T", FieldSpec::On::kPoints, 1, "K", "temperature"},
          {"u", FieldSpec::On::kPoints, 3, "m/s", "velocity"},
          {"p", FieldSpec::On::kCells, 1, "Pa", "pressure"},
          {"g", FieldSpec::On::kCells, 3, "1/m", "gradient"}};
}

// Writes 3 steps of the standard fields on `mesh` with `make` producing each field, reads back.
template <class Make>
void round_trip(const MeshData& mesh, const std::filesystem::path& path, Make make) {
  const std::vector<double> times{0.0, 0.125, 1e-3};
  {
    Hdf5DatasetWriter writer(path, MPI_COMM_SELF, mesh, standard_fields(),
                             "solver:\n  type: heat\n", "test");
    writer.set_attribute("Ra", 1.5e5);
    writer.set_attribute("label", "run one");
    for (double t : times) writer.append(t, make(t));
    writer.close();
  }
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::exists(xdmf_path_for(path)));
  Hdf5DatasetReader reader(path);
  EXPECT_EQ(reader.times(), times);
  EXPECT_EQ(reader.case_yaml(), "solver:\n  type: heat\n");
  const auto fields = reader.fields();
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields[0].name, "T");
  EXPECT_EQ(fields[1].name, "u");
  EXPECT_EQ(fields[1].components, 3u);
  EXPECT_EQ(fields[1].units, "m/s");
  EXPECT_EQ(fields[2].on, FieldSpec::On::kCells);
  EXPECT_EQ(fields[3].description, "gradient");
  const auto attributes = reader.attributes();
  EXPECT_EQ(attributes.at("format"), "surrox-dataset");
  EXPECT_EQ(attributes.at("format_version"), "1");
  EXPECT_EQ(attributes.at("producer"), "test");
  EXPECT_EQ(attributes.at("Ra"), "150000");
  EXPECT_EQ(attributes.at("label"), "run one");
  EXPECT_FALSE(attributes.at("surrox_version").empty());
  EXPECT_EQ(attributes.at("created").size(), 20u);
  for (std::size_t step = 0; step < times.size(); ++step) {
    const auto expected = make(times[step]);
    for (const auto& array : expected)
      expect_equal(reader.read(array.name, step), array.values, array.name);
  }
  EXPECT_THROW(reader.read("T", 3), InputError);
  EXPECT_THROW(reader.read("nope", 0), InputError);

  const MeshData back = reader.mesh();
  EXPECT_EQ(back.kind, mesh.kind);
  EXPECT_EQ(back.number_of_points(), mesh.number_of_points());
  EXPECT_EQ(back.number_of_cells(), mesh.number_of_cells());
  if (mesh.kind == MeshKind::kImage) {
    EXPECT_EQ(back.extent, mesh.extent);
    EXPECT_EQ(back.origin, mesh.origin);
    EXPECT_EQ(back.spacing, mesh.spacing);
  } else {
    expect_equal(back.points, mesh.points, "points");
    EXPECT_EQ(back.cell_types, mesh.cell_types);
    EXPECT_EQ(back.cell_offsets, mesh.cell_offsets);
    EXPECT_EQ(back.connectivity, mesh.connectivity);
  }

  const MeshCollection collection = read_hdf5_dataset(path);
  EXPECT_EQ(collection.kind, MeshCollection::Kind::kTimeSeries);
  ASSERT_EQ(collection.entries.size(), times.size());
  EXPECT_EQ(collection.entries[1].time, times[1]);
  ASSERT_NE(collection.entries[2].mesh.find_cell_array("g"), nullptr);
  expect_equal(collection.entries[2].mesh.find_cell_array("g")->values, make(times[2])[3].values,
               "collection g");
}

TEST(Hdf5Dataset, ImageRoundTrip) {
  const MeshData mesh = make_image({2, 6, 0, 3, 1, 3});
  round_trip(mesh, surrox::testing::scratch_dir() / "image.h5", [&](double t) {
    return std::vector<NamedArray>{
        structured_points("T", mesh, 1, t), structured_points("u", mesh, 3, t),
        structured_cells("p", mesh, 1, t), structured_cells("g", mesh, 3, t)};
  });
}

TEST(Hdf5Dataset, Image2DRoundTrip) {
  const MeshData mesh = make_image({0, 4, 0, 2, 0, 0});
  const auto path = surrox::testing::scratch_dir() / "flat.h5";
  round_trip(mesh, path, [&](double t) {
    return std::vector<NamedArray>{
        structured_points("T", mesh, 1, t), structured_points("u", mesh, 3, t),
        structured_cells("p", mesh, 1, t), structured_cells("g", mesh, 3, t)};
  });
  // Layout: [T, nk, nj, ni] and cells [T, 1, nj-1, ni-1, C].
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  auto dims_of = [&](const char* name) {
    hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(dataset);
    std::vector<hsize_t> dims(H5Sget_simple_extent_ndims(space));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(dataset);
    return dims;
  };
  EXPECT_EQ(dims_of("/fields/T"), (std::vector<hsize_t>{3, 1, 3, 5}));
  EXPECT_EQ(dims_of("/fields/g"), (std::vector<hsize_t>{3, 1, 2, 4, 3}));
  H5Fclose(file);
  const std::string xml = xdmf_document([&] {
    XdmfDescription d;
    d.h5_reference = "flat.h5";
    d.point_dims = {5, 3, 1};
    d.times = {0};
    d.fields = {{"T", false, 1}};
    return d;
  }());
  // One layer of points is a 2D mesh to XDMF (ParaView drops cell arrays of a flat 3D one),
  // and the field slab drops the k axis with it.
  EXPECT_NE(xml.find("TopologyType=\"2DCoRectMesh\" Dimensions=\"3 5\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("GeometryType=\"ORIGIN_DXDY\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("ItemType=\"HyperSlab\" Dimensions=\"3 5\""), std::string::npos) << xml;
}

TEST(Hdf5Dataset, StructuredRoundTrip) {
  const MeshData mesh = make_structured();
  round_trip(mesh, surrox::testing::scratch_dir() / "structured.h5", [&](double t) {
    return std::vector<NamedArray>{
        structured_points("T", mesh, 1, t), structured_points("u", mesh, 3, t),
        structured_cells("p", mesh, 1, t), structured_cells("g", mesh, 3, t)};
  });
}

TEST(Hdf5Dataset, UnstructuredRoundTrip) {
  const MeshData mesh = make_unstructured();
  const auto path = surrox::testing::scratch_dir() / "mesh.h5";
  round_trip(mesh, path, [&](double t) {
    return std::vector<NamedArray>{indexed("T", 6, 1, t), indexed("u", 6, 3, t),
                                   indexed("p", 4, 1, -t), indexed("g", 4, 3, t + 1)};
  });
  std::ifstream in(xdmf_path_for(path));
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("TopologyType=\"Mixed\" NumberOfElements=\"4\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("mesh.h5:/fields/g"), std::string::npos);
  EXPECT_NE(xml.find("<Time Value=\"0.125\"/>"), std::string::npos);
  // Mixed connectivity: quad (5) 0 1 4 3, triangle (4) ..., vertex as polyvertex (1, count 1).
  const auto objects = describe_hdf5(path);
  bool found = false;
  for (const auto& o : objects)
    if (o.path == "/mesh/xdmf_topology") {
      found = true;
      EXPECT_EQ(o.shape, (std::vector<std::uint64_t>{5 + 4 + 4 + 3}));
    }
  EXPECT_TRUE(found);
}

TEST(Hdf5Dataset, PolyDataRoundTrip) {
  const MeshData mesh = make_unstructured(MeshKind::kPolyData);
  round_trip(mesh, surrox::testing::scratch_dir() / "poly.h5", [&](double t) {
    return std::vector<NamedArray>{indexed("T", 6, 1, t), indexed("u", 6, 3, t),
                                   indexed("p", 4, 1, -t), indexed("g", 4, 3, t + 1)};
  });
}

TEST(Hdf5Dataset, FieldsAreChunkedAndCompressed) {
  const MeshData mesh = make_image({0, 40, 0, 30, 0, 20});
  const auto path = surrox::testing::scratch_dir() / "big.h5";
  {
    Hdf5DatasetWriter writer(path, MPI_COMM_SELF, mesh, {{"T", FieldSpec::On::kPoints, 1, "K", ""}},
                             "", "test");
    writer.append(0, {structured_points("T", mesh, 1, 0)});
    writer.close();
  }
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t dataset = H5Dopen2(file, "/fields/T", H5P_DEFAULT);
  hid_t dcpl = H5Dget_create_plist(dataset);
  EXPECT_EQ(H5Pget_layout(dcpl), H5D_CHUNKED);
  bool deflate = false;
  for (int f = 0; f < H5Pget_nfilters(dcpl); ++f) {
    unsigned flags = 0, values[8];
    size_t n = 8;
    char name[64];
    unsigned config = 0;
    if (H5Pget_filter2(dcpl, f, &flags, &n, values, sizeof name, name, &config) ==
        H5Z_FILTER_DEFLATE)
      deflate = true;
  }
  EXPECT_TRUE(deflate);
  EXPECT_LT(H5Dget_storage_size(dataset), 41u * 31 * 21 * 8);  // smooth data compresses
  H5Pclose(dcpl);
  H5Dclose(dataset);
  H5Fclose(file);
}

TEST(Hdf5Dataset, DescribeListsEverything) {
  const MeshData mesh = make_image({0, 3, 0, 2, 0, 1});
  const auto path = surrox::testing::scratch_dir() / "d.h5";
  {
    Hdf5DatasetWriter writer(path, MPI_COMM_SELF, mesh,
                             {{"T", FieldSpec::On::kPoints, 1, "K", "t"}}, "a: 1", "test");
    writer.append(0, {structured_points("T", mesh, 1, 0)});
    writer.append(3, {structured_points("T", mesh, 1, 3)});
    writer.close();
  }
  const auto objects = describe_hdf5(path);
  std::map<std::string, Hdf5ObjectInfo> by_path;
  for (const auto& o : objects) by_path[o.path] = o;
  ASSERT_TRUE(by_path.count("/fields/T"));
  const auto& t = by_path["/fields/T"];
  EXPECT_TRUE(t.is_dataset);
  EXPECT_EQ(t.dtype, "float64");
  EXPECT_EQ(t.shape, (std::vector<std::uint64_t>{2, 2, 3, 4}));
  EXPECT_TRUE(t.has_range);
  EXPECT_EQ(t.min, 0.0);
  EXPECT_EQ(t.max, 3 + 20 + 100 + 1.0);
  EXPECT_EQ(t.attributes.at("units"), "K");
  EXPECT_EQ(by_path["/case"].dtype, "string");
  EXPECT_EQ(by_path["/"].attributes.at("format"), "surrox-dataset");
  EXPECT_FALSE(by_path["/mesh"].is_dataset);
  EXPECT_EQ(by_path["/time"].max, 3.0);
}

TEST(Hdf5Dataset, WriterWithoutCloseLeavesNothing) {
  const auto dir = surrox::testing::scratch_dir();
  const MeshData mesh = make_image({0, 3, 0, 2, 0, 0});
  {
    Hdf5DatasetWriter writer(dir / "x.h5", MPI_COMM_SELF, mesh,
                             {{"T", FieldSpec::On::kPoints, 1, "", ""}}, "", "t");
    writer.append(0, {structured_points("T", mesh, 1, 0)});
    // A temporary file exists while writing, but nothing under the final name.
    EXPECT_FALSE(std::filesystem::exists(dir / "x.h5"));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0);
}

TEST(Hdf5Dataset, BadStepsRaiseInputErrorOnEveryField) {
  const MeshData mesh = make_image({0, 3, 0, 2, 0, 0});
  const auto dir = surrox::testing::scratch_dir();
  Hdf5DatasetWriter writer(dir / "x.h5", MPI_COMM_SELF, mesh,
                           {{"T", FieldSpec::On::kPoints, 1, "", ""}}, "", "t");
  EXPECT_THROW(writer.append(0, {}), InputError);
  EXPECT_THROW(writer.append(0, {indexed("T", 5, 1, 0)}), InputError);
  EXPECT_THROW(writer.append(0, {structured_points("T", mesh, 3, 0)}), InputError);
  EXPECT_THROW(writer.set_attribute("format", "x"), InputError);
  writer.append(0, {structured_points("T", mesh, 1, 0)});
  writer.close();
  EXPECT_EQ(Hdf5DatasetReader(dir / "x.h5").steps(), 1u);
  EXPECT_THROW(Hdf5DatasetWriter(dir / "y.h5", MPI_COMM_SELF, mesh,
                                 {{"a/b", FieldSpec::On::kPoints, 1, "", ""}}, "", "t"),
               InputError);
}

TEST(Hdf5Dataset, ARestartTakesOverTheEarlierStepsBeforeItsTime) {
  // The earlier segment wrote t = 0, 1, 2 (its last off the grid); the restart at t = 2 takes
  // over 0 and 1, values bit for bit, then appends its own.
  const auto dir = surrox::testing::scratch_dir();
  const MeshData mesh = make_image({0, 3, 0, 2, 0, 1});
  const std::vector<FieldSpec> specs = {{"T", FieldSpec::On::kPoints, 1, "", ""},
                                        {"g", FieldSpec::On::kCells, 3, "", ""}};
  auto fields = [&](double t) {
    return std::vector<NamedArray>{structured_points("T", mesh, 1, t),
                                   structured_cells("g", mesh, 3, t)};
  };
  {
    Hdf5DatasetWriter earlier(dir / "fields.h5", MPI_COMM_SELF, mesh, specs, "", "t");
    for (double t : {0.0, 1.0, 2.0}) earlier.append(t, fields(t));
    earlier.close();
  }
  Hdf5DatasetWriter writer(dir / "fields.h5", MPI_COMM_SELF, mesh, specs, "", "t");
  EXPECT_EQ(writer.append_earlier(dir / "fields.h5", 2.0), 2u);
  for (double t : {2.0, 3.0}) writer.append(t, fields(t));
  writer.close();
  const Hdf5DatasetReader r(dir / "fields.h5");
  EXPECT_EQ(r.times(), (std::vector<double>{0, 1, 2, 3}));
  for (std::size_t step = 0; step < 4; ++step) {
    const HostArray g = r.read("g", step);
    const NamedArray expected = structured_cells("g", mesh, 3, static_cast<double>(step));
    EXPECT_TRUE(std::equal(g.data(), g.data() + g.size(), expected.values.data())) << step;
  }
}

TEST(Hdf5Dataset, ARestartRefusesADamagedOrForeignEarlierDataset) {
  const auto dir = surrox::testing::scratch_dir();
  const MeshData mesh = make_image({0, 3, 0, 2, 0, 0});
  const std::vector<FieldSpec> specs = {{"T", FieldSpec::On::kPoints, 1, "", ""}};
  std::ofstream(dir / "damaged.h5") << "not an HDF5 file";
  {
    // Another grid: 5 × 3 points instead of 4 × 3.
    const MeshData other = make_image({0, 4, 0, 2, 0, 0});
    Hdf5DatasetWriter w(dir / "other.h5", MPI_COMM_SELF, other, specs, "", "t");
    w.append(0, {structured_points("T", other, 1, 0)});
    w.close();
  }
  Hdf5DatasetWriter writer(dir / "new.h5", MPI_COMM_SELF, mesh, specs, "", "t");
  for (const char* earlier : {"damaged.h5", "other.h5"}) {
    try {
      writer.append_earlier(dir / earlier, 1.0);
      ADD_FAILURE() << earlier << " was taken over";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(earlier), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(writer.steps(), 0u);
}

TEST(Hdf5Dataset, ConvertCollectionRoundTrip) {
  const auto dir = surrox::testing::scratch_dir();
  MeshCollection series;
  series.kind = MeshCollection::Kind::kTimeSeries;
  for (int step = 0; step < 2; ++step) {
    MeshEntry entry;
    entry.time = step * 0.5;
    entry.name = "s" + std::to_string(step);
    entry.mesh = make_unstructured();
    entry.mesh.point_data.push_back(indexed("T", 6, 1, step));
    entry.mesh.cell_data.push_back(indexed("id", 4, 1, step));
    series.entries.push_back(entry);
  }
  write_hdf5_dataset(series, dir / "c.h5");
  const auto back = read_hdf5_dataset(dir / "c.h5");
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[1].time, 0.5);
  expect_equal(back.entries[1].mesh.find_point_array("T")->values,
               series.entries[1].mesh.point_data[0].values, "T");
  expect_equal(back.entries[0].mesh.find_cell_array("id")->values,
               series.entries[0].mesh.cell_data[0].values, "id");

  // Time steps with different meshes are refused (blocks of a multiblock are not: they go to
  // a surrox-multiblock file, tests/io/hdf5_multiblock_test.cpp).
  MeshCollection moving = series;
  moving.entries[1].mesh = make_unstructured();
  moving.entries[1].mesh.points(0, 0) = 42;
  moving.entries[1].mesh.point_data = series.entries[1].mesh.point_data;
  moving.entries[1].mesh.cell_data = series.entries[1].mesh.cell_data;
  try {
    write_hdf5_dataset(moving, dir / "b.h5");
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not supported"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "b.h5"));
  EXPECT_TRUE(is_hdf5_file("a/b.H5"));
  EXPECT_TRUE(is_hdf5_file("x.hdf5"));
  EXPECT_FALSE(is_hdf5_file("x.vtu"));
}

void expect_input_error(const std::filesystem::path& path, const std::string& reason_part) {
  try {
    Hdf5DatasetReader reader(path);
    ADD_FAILURE() << "no InputError for " << path;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path.filename().string()), std::string::npos) << message;
    EXPECT_NE(message.find(reason_part), std::string::npos) << message;
  }
  EXPECT_THROW(read_hdf5_dataset(path), InputError);
}

TEST(Hdf5Dataset, CorruptInputsRaiseInputError) {
  const auto dir = surrox::testing::scratch_dir();
  const MeshData mesh = make_image({0, 20, 0, 20, 0, 5});
  {
    Hdf5DatasetWriter writer(dir / "good.h5", MPI_COMM_SELF, mesh,
                             {{"T", FieldSpec::On::kPoints, 1, "", ""}}, "", "t");
    for (int step = 0; step < 3; ++step)
      writer.append(step, {structured_points("T", mesh, 1, step)});
    writer.close();
  }
  std::ifstream in(dir / "good.h5", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 4096u);
  auto write = [&](const std::string& name, const std::string& content) {
    std::ofstream out(dir / name, std::ios::binary);
    out << content;
  };
  write("half.h5", bytes.substr(0, bytes.size() / 2));
  write("kib.h5", bytes.substr(0, 1024));
  std::mt19937 random(7);
  std::string noise(5000, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  write("noise.h5", noise);
  write("empty.h5", "");
  expect_input_error(dir / "half.h5", "truncated");
  expect_input_error(dir / "kib.h5", "truncated");
  expect_input_error(dir / "noise.h5", "not an HDF5 file");
  expect_input_error(dir / "empty.h5", "empty");
  expect_input_error(dir / "missing.h5", "not found");
  EXPECT_THROW(describe_hdf5(dir / "half.h5"), InputError);
  EXPECT_THROW(describe_hdf5(dir / "noise.h5"), InputError);

  // A valid HDF5 file that is not a surrox dataset.
  {
    hid_t file = H5Fcreate((dir / "foreign.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t dims[2] = {4, 5};
    hid_t space = H5Screate_simple(2, dims, nullptr);
    hid_t dataset =
        H5Dcreate2(file, "data", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    std::vector<int> values(20);
    for (int i = 0; i < 20; ++i) values[i] = i - 3;
    H5Dwrite(dataset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(dataset);
    H5Sclose(space);
    H5Fclose(file);
  }
  expect_input_error(dir / "foreign.h5", "not a surrox dataset");
  const auto objects = describe_hdf5(dir / "foreign.h5");
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(objects[1].path, "/data");
  EXPECT_EQ(objects[1].dtype, "int32");
  EXPECT_EQ(objects[1].min, -3);
  EXPECT_EQ(objects[1].max, 16);
  // The original still reads.
  EXPECT_EQ(Hdf5DatasetReader(dir / "good.h5").steps(), 3u);
}

}  // namespace
}  // namespace surrox::io

namespace surrox::io {
namespace {
TEST(Hdf5Dataset, RefusedPieceThenWriteAgain) {
  MeshData bad;
  bad.kind = MeshKind::kStructured;
  bad.extent = {0, 3, 0, 2, 0, 1};
  bad.points = make_array(0, 3);  // no points for a 4 x 3 x 2 extent
  const auto dir = surrox::testing::scratch_dir();
  EXPECT_THROW(Hdf5DatasetWriter(dir / "bad.h5", MPI_COMM_SELF, bad, {}, "", "t"), InputError);
  const MeshData mesh = make_unstructured();
  round_trip(mesh, dir / "ok.h5", [&](double t) {
    return std::vector<NamedArray>{indexed("T", 6, 1, t), indexed("u", 6, 3, t),
                                   indexed("p", 4, 1, -t), indexed("g", 4, 3, t + 1)};
  });
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 2);  // ok.h5, ok.xdmf
}
}  // namespace
}  // namespace surrox::io

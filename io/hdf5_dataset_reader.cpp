// Hdf5DatasetReader: opening a dataset (or one multiblock block) and reading its mesh and fields.
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_dataset_detail.hpp"
#include "io/hdf5_handle.hpp"

namespace surrox::io {

using h5::Hid;
using h5::own;
using h5::product;
using h5::Where;

struct Hdf5DatasetReader::Impl {
  std::filesystem::path path;
  Where where;
  Hid file, root;  // root: the file itself, or the group of one block of a multiblock file
  MeshKind kind = MeshKind::kImage;
  std::array<long, 6> extent{};
  std::size_t points = 0, cells = 0;
  std::vector<FieldSpec> fields;

  std::size_t tuples(const FieldSpec& field) const {
    return field.on == FieldSpec::On::kCells ? cells : points;
  }
};

namespace {

MeshKind parse_kind(const std::string& text, const Where& where) {
  for (MeshKind kind :
       {MeshKind::kImage, MeshKind::kStructured, MeshKind::kUnstructured, MeshKind::kPolyData})
    if (to_string(kind) == text) return kind;
  h5::fail(where, "unknown mesh kind '" + text + "' in /mesh");
}

template <class T>
std::vector<T> read_all(hid_t parent, const std::string& name, hid_t memory_type,
                        std::size_t expected, const Where& where) {
  Hid dataset = h5::open_dataset(parent, name, where);
  const auto dims = h5::dataset_dims(dataset, where);
  if (product(dims) != expected)
    h5::fail(where, "/mesh/" + name + " holds " + std::to_string(product(dims)) +
                        " values, expected " + std::to_string(expected));
  std::vector<T> values(expected);
  if (expected > 0)
    h5::check_status(H5Dread(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                     where, "cannot read /mesh/" + name);
  return values;
}

HostArray read_points(hid_t mesh, std::size_t n, const Where& where) {
  HostArray points(Kokkos::ViewAllocateWithoutInitializing("points"), n, 3);
  Hid dataset = h5::open_dataset(mesh, "points", where);
  const auto dims = h5::dataset_dims(dataset, where);
  if (dims.empty() || dims.back() != 3 || product(dims) != n * 3)
    h5::fail(where, "/mesh/points has the wrong shape");
  if (n > 0)
    h5::check_status(
        H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, points.data()), where,
        "cannot read /mesh/points");
  return points;
}

}  // namespace

Hdf5DatasetReader::Hdf5DatasetReader(const std::filesystem::path& path)
    : Hdf5DatasetReader(path, "") {}

Hdf5DatasetReader::Hdf5DatasetReader(const std::filesystem::path& path, const std::string& group)
    : impl_(std::make_unique<Impl>()) {
  h5::quiet();
  Impl& d = *impl_;
  d.path = path;
  d.where = Where{group.empty() ? path.string() : path.string() + ":" + group, true};
  d.file = h5::open_for_reading(path, d.where);
  d.root = group.empty() ? h5::own(H5Gopen2(d.file, "/", H5P_DEFAULT), H5Gclose, d.where,
                                   "cannot open the root group")
                         : h5::open_group(d.file, group, d.where);
  if (!h5::has_attribute(d.root, "format"))
    h5::fail(d.where, "not a surrox dataset (no root attribute 'format')");
  const std::string format = h5::read_string_attribute(d.root, "format", d.where);
  if (format != kDatasetFormat)
    h5::fail(d.where, "not a surrox dataset (format is '" + format + "')");
  const auto version = h5::read_int_attribute(d.root, "format_version", d.where);
  if (version.size() != 1 || version[0] < 1 || version[0] > kDatasetFormatVersion)
    h5::fail(d.where, "unsupported format_version (this surrox reads " +
                          std::to_string(kDatasetFormatVersion) + ")");

  Hid mesh = h5::open_group(d.root, "mesh", d.where);
  d.kind = parse_kind(h5::read_string_attribute(mesh, "kind", d.where), d.where);
  const auto points = h5::read_int_attribute(mesh, "number_of_points", d.where);
  const auto cells = h5::read_int_attribute(mesh, "number_of_cells", d.where);
  if (points.size() != 1 || cells.size() != 1 || points[0] < 0 || cells[0] < 0)
    h5::fail(d.where, "bad number_of_points / number_of_cells in /mesh");
  d.points = static_cast<std::size_t>(points[0]);
  d.cells = static_cast<std::size_t>(cells[0]);
  if (is_structured(d.kind)) {
    const auto extent = h5::read_int_attribute(mesh, "extent", d.where);
    if (extent.size() != 6) h5::fail(d.where, "/mesh extent must hold 6 values");
    std::copy(extent.begin(), extent.end(), d.extent.begin());
  }

  Hid fields = h5::open_group(d.root, "fields", d.where);
  for (const auto& name : h5::link_names(fields, d.where)) {
    Hid dataset = h5::open_dataset(fields, name, d.where);
    FieldSpec field;
    field.name = name;
    const std::string association = h5::read_string_attribute(dataset, "association", d.where);
    if (association != "point" && association != "cell")
      h5::fail(d.where, "/fields/" + name + ": association must be point or cell");
    field.on = association == "cell" ? FieldSpec::On::kCells : FieldSpec::On::kPoints;
    const auto components = h5::read_int_attribute(dataset, "components", d.where);
    if (components.size() != 1 || components[0] < 1)
      h5::fail(d.where, "/fields/" + name + ": bad components");
    field.components = static_cast<std::size_t>(components[0]);
    if (h5::has_attribute(dataset, "units"))
      field.units = h5::read_string_attribute(dataset, "units", d.where);
    if (h5::has_attribute(dataset, "description"))
      field.description = h5::read_string_attribute(dataset, "description", d.where);
    d.fields.push_back(std::move(field));
  }
}

Hdf5DatasetReader::~Hdf5DatasetReader() = default;
Hdf5DatasetReader::Hdf5DatasetReader(Hdf5DatasetReader&&) noexcept = default;
Hdf5DatasetReader& Hdf5DatasetReader::operator=(Hdf5DatasetReader&&) noexcept = default;

const std::filesystem::path& Hdf5DatasetReader::path() const { return impl_->path; }

std::vector<double> Hdf5DatasetReader::times() const {
  h5::quiet();
  Hid dataset = h5::open_dataset(impl_->root, "time", impl_->where);
  const auto dims = h5::dataset_dims(dataset, impl_->where);
  if (dims.size() != 1) h5::fail(impl_->where, "/time must be one-dimensional");
  std::vector<double> values(dims[0]);
  if (!values.empty())
    h5::check_status(
        H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
        impl_->where, "cannot read /time");
  return values;
}

std::size_t Hdf5DatasetReader::steps() const {
  h5::quiet();
  Hid dataset = h5::open_dataset(impl_->root, "time", impl_->where);
  const auto dims = h5::dataset_dims(dataset, impl_->where);
  return dims.empty() ? 0 : dims[0];
}

std::vector<FieldSpec> Hdf5DatasetReader::fields() const { return impl_->fields; }

MeshData Hdf5DatasetReader::mesh() const {
  h5::quiet();
  const Impl& d = *impl_;
  MeshData mesh;
  mesh.kind = d.kind;
  Hid group = h5::open_group(d.root, "mesh", d.where);
  if (is_structured(d.kind)) {
    mesh.extent = d.extent;
    const auto dims = mesh.dimensions();
    if (dims[0] < 1 || dims[1] < 1 || dims[2] < 1 ||
        static_cast<std::size_t>(dims[0] * dims[1] * dims[2]) != d.points)
      h5::fail(d.where, "/mesh extent disagrees with number_of_points");
    if (d.kind == MeshKind::kImage) {
      const auto origin = h5::read_double_attribute(group, "origin", d.where);
      const auto spacing = h5::read_double_attribute(group, "spacing", d.where);
      if (origin.size() != 3 || spacing.size() != 3)
        h5::fail(d.where, "/mesh origin and spacing must hold 3 values");
      std::copy(origin.begin(), origin.end(), mesh.origin.begin());
      std::copy(spacing.begin(), spacing.end(), mesh.spacing.begin());
    } else {
      mesh.points = read_points(group, d.points, d.where);
    }
    return mesh;
  }
  mesh.points = read_points(group, d.points, d.where);
  mesh.cell_types = read_all<std::uint8_t>(group, "cell_types", H5T_NATIVE_UINT8, d.cells, d.where);
  mesh.cell_offsets =
      read_all<std::int64_t>(group, "cell_offsets", H5T_NATIVE_INT64, d.cells + 1, d.where);
  Hid connectivity = h5::open_dataset(group, "connectivity", d.where);
  const auto length = product(h5::dataset_dims(connectivity, d.where));
  connectivity.reset();
  mesh.connectivity =
      read_all<std::int64_t>(group, "connectivity", H5T_NATIVE_INT64, length, d.where);
  // Validate what later code indexes with.
  if (mesh.cell_offsets.front() != 0 ||
      mesh.cell_offsets.back() != static_cast<std::int64_t>(length) ||
      !std::is_sorted(mesh.cell_offsets.begin(), mesh.cell_offsets.end()))
    h5::fail(d.where, "/mesh/cell_offsets is inconsistent with /mesh/connectivity");
  for (auto id : mesh.connectivity)
    if (id < 0 || static_cast<std::size_t>(id) >= d.points)
      h5::fail(d.where, "/mesh/connectivity out of range");
  return mesh;
}

HostArray Hdf5DatasetReader::read(const std::string& name, std::size_t step) const {
  h5::quiet();
  const Impl& d = *impl_;
  const FieldSpec* field = nullptr;
  for (const auto& f : d.fields)
    if (f.name == name) field = &f;
  if (!field) {
    std::string known;
    for (const auto& f : d.fields) known += (known.empty() ? "" : ", ") + f.name;
    h5::fail(d.where, "no field '" + name + "' (fields: " + known + ")");
  }
  Hid dataset = h5::open_dataset(d.root, "fields/" + name, d.where);
  auto dims = h5::dataset_dims(dataset, d.where);
  if (dims.size() < 2) h5::fail(d.where, "/fields/" + name + " has too few dimensions");
  if (step >= dims[0])
    h5::fail(d.where, "step " + std::to_string(step) + " out of range: /fields/" + name +
                          " holds " + std::to_string(dims[0]) + " steps");
  const std::size_t tuples = d.tuples(*field);
  if (product(dims, 1) != tuples * field->components)
    h5::fail(d.where, "/fields/" + name + " holds " + std::to_string(product(dims, 1)) +
                          " values per step, expected " + std::to_string(tuples) + " x " +
                          std::to_string(field->components));
  std::vector<hsize_t> start(dims.size(), 0), count = dims;
  start[0] = step;
  count[0] = 1;
  Hid file_space = own(H5Dget_space(dataset), H5Sclose, d.where, "cannot get dataspace");
  h5::check_status(
      H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
      d.where, "cannot select step");
  HostArray values(Kokkos::ViewAllocateWithoutInitializing(name), tuples, field->components);
  const hsize_t total = tuples * field->components;
  Hid memory_space =
      own(H5Screate_simple(1, &total, nullptr), H5Sclose, d.where, "cannot create dataspace");
  if (total > 0)
    h5::check_status(
        H5Dread(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space, H5P_DEFAULT, values.data()),
        d.where, "cannot read /fields/" + name + " step " + std::to_string(step));
  return values;
}

std::string Hdf5DatasetReader::case_yaml() const {
  h5::quiet();
  if (!h5::has_link(impl_->root, "case")) return "";
  return h5::read_string_dataset(impl_->root, "case", impl_->where);
}

std::map<std::string, std::string> Hdf5DatasetReader::attributes() const {
  h5::quiet();
  std::map<std::string, std::string> result;
  for (const auto& name : h5::attribute_names(impl_->root, impl_->where))
    result[name] = h5::attribute_as_text(impl_->root, name, impl_->where);
  return result;
}

}  // namespace surrox::io

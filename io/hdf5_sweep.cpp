#include "io/hdf5_sweep.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <system_error>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_handle.hpp"

namespace surrox::io {

using h5::Hid;
using h5::own;
using h5::Where;

namespace {

constexpr const char* kSweepFormat = "surrox-sweep";
constexpr std::int64_t kSweepFormatVersion = 1;

// A number's whole text, but not one with a leading zero before a digit ("0012", "-01"): that
// is a name (NACA digits), which the number would lose.
bool parses_as_number(const std::string& text, double* value) {
  if (text.empty()) return false;
  const std::size_t sign = text[0] == '-' || text[0] == '+' ? 1 : 0;
  if (text.size() > sign + 1 && text[sign] == '0' &&
      std::isdigit(static_cast<unsigned char>(text[sign + 1])))
    return false;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  if (value) *value = parsed;
  return true;
}

// A 1-D array of fixed-length strings (h5py reads it as bytes objects).
void write_string_array(hid_t parent, const std::string& name,
                        const std::vector<std::string>& values, const Where& where) {
  std::size_t width = 1;
  for (const auto& v : values) width = std::max(width, v.size() + 1);
  std::vector<char> packed(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    std::copy(values[i].begin(), values[i].end(), &packed[i * width]);
  Hid type = h5::string_type(width, where);
  const hsize_t n = values.size();
  Hid space =
      own(H5Screate_simple(1, &n, nullptr), H5Sclose, where, "cannot create dataspace for " + name);
  Hid dataset =
      own(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
          H5Dclose, where, "cannot create dataset " + name);
  if (n > 0)
    h5::check_status(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()), where,
                     "cannot write " + name);
}

std::vector<std::string> read_string_array(hid_t parent, const std::string& name,
                                           std::size_t expected, const Where& where) {
  Hid dataset = h5::open_dataset(parent, name, where);
  Hid type = own(H5Dget_type(dataset), H5Tclose, where, "cannot read type of " + name);
  if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) != 0)
    h5::fail(where, name + " is not an array of fixed-length strings");
  const auto dims = h5::dataset_dims(dataset, where);
  if (dims.size() != 1 || dims[0] != expected)
    h5::fail(where, name + " holds " + std::to_string(h5::product(dims)) + " strings, expected " +
                        std::to_string(expected));
  const std::size_t width = H5Tget_size(type);
  std::vector<char> packed(expected * width + 1, '\0');
  if (expected > 0)
    h5::check_status(H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()), where,
                     "cannot read " + name);
  std::vector<std::string> values(expected);
  for (std::size_t i = 0; i < expected; ++i) {
    const char* begin = &packed[i * width];
    values[i].assign(begin, std::find(begin, begin + width, '\0'));
  }
  return values;
}

void write_doubles(hid_t parent, const std::string& name, const std::vector<double>& values,
                   const Where& where) {
  Hid dataset =
      h5::create_dataset(parent, name, H5T_IEEE_F64LE, {values.size()}, {}, {}, false, where);
  if (!values.empty())
    h5::check_status(
        H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), where,
        "cannot write " + name);
}

std::vector<double> read_doubles(hid_t parent, const std::string& name, std::size_t expected,
                                 const Where& where) {
  Hid dataset = h5::open_dataset(parent, name, where);
  const auto dims = h5::dataset_dims(dataset, where);
  if (h5::product(dims) != expected)
    h5::fail(where, name + " holds " + std::to_string(h5::product(dims)) + " values, expected " +
                        std::to_string(expected));
  std::vector<double> values(expected);
  if (expected > 0)
    h5::check_status(
        H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), where,
        "cannot read " + name);
  return values;
}

}  // namespace

// Outside the anonymous namespace: SweepDatasetWriter::Impl (external linkage) holds a vector of
// them (GCC's -Wsubobject-linkage).
struct SweepArrayLayout {
  std::string name;
  bool on_cells = false;
  std::size_t tuples = 0, components = 0;
};

// ---------------------------------------------------------------------------------------------
// Writer

struct SweepDatasetWriter::Impl {
  std::filesystem::path final_path, temporary_path;
  Where where;
  std::size_t cases = 0;
  Hid file, fields_group;
  std::vector<bool> written;
  // Fixed by the first case.
  bool laid_out = false;
  MeshKind kind = MeshKind::kStructured;
  std::array<long, 6> extent{};
  std::size_t points = 0;
  std::vector<SweepArrayLayout> arrays;
  std::vector<Hid> array_datasets;
  std::optional<Hid> points_dataset;
  std::vector<std::string> parameter_names, result_names;
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> parameter_values;  // [parameter][case]
  std::vector<std::vector<double>> result_values;          // [result][case]
  bool closed = false;

  void lay_out(const SweepCase& first);
  void check_matches(const SweepCase& c) const;
};

void SweepDatasetWriter::Impl::lay_out(const SweepCase& first) {
  const MeshData& mesh = first.mesh;
  kind = mesh.kind;
  extent = mesh.extent;
  points = mesh.number_of_points();
  Hid mesh_group = own(H5Gcreate2(file, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                       where, "cannot create /mesh");
  h5::write_attribute(mesh_group, "kind", to_string(kind), where);
  h5::write_attribute(mesh_group, "extent", std::vector<std::int64_t>(extent.begin(), extent.end()),
                      where);
  h5::write_attribute(mesh_group, "number_of_points", static_cast<std::int64_t>(points), where);
  if (kind == MeshKind::kImage) {
    h5::write_attribute(mesh_group, "origin",
                        std::vector<double>(mesh.origin.begin(), mesh.origin.end()), where);
    h5::write_attribute(mesh_group, "spacing",
                        std::vector<double>(mesh.spacing.begin(), mesh.spacing.end()), where);
  } else if (kind == MeshKind::kStructured) {
    points_dataset = h5::create_dataset(mesh_group, "points", H5T_IEEE_F64LE, {cases, points, 3},
                                        {}, {1, points, 3}, true, where);
  } else {
    throw InputError("sweep datasets hold structured or image meshes; case '" + first.name +
                     "' has a " + to_string(kind) + " mesh");
  }
  fields_group = h5::create_ordered_group(file, "fields", where);
  auto add = [&](const NamedArray& array, bool on_cells) {
    SweepArrayLayout layout{array.name, on_cells, array.tuples(), array.components()};
    Hid dataset = h5::create_dataset(fields_group, array.name, H5T_IEEE_F64LE,
                                     {cases, layout.tuples, layout.components}, {},
                                     {1, layout.tuples, layout.components}, true, where);
    h5::write_attribute(dataset, "association", std::string(on_cells ? "cell" : "point"), where);
    h5::write_attribute(dataset, "components", static_cast<std::int64_t>(layout.components), where);
    arrays.push_back(layout);
    array_datasets.push_back(std::move(dataset));
  };
  for (const auto& array : mesh.point_data) add(array, false);
  for (const auto& array : mesh.cell_data) add(array, true);
  for (const auto& [name, value] : first.parameters) parameter_names.push_back(name);
  for (const auto& [name, value] : first.results) result_names.push_back(name);
  parameter_values.assign(parameter_names.size(), std::vector<std::string>(cases));
  result_values.assign(result_names.size(), std::vector<double>(cases, 0.0));
  laid_out = true;
}

void SweepDatasetWriter::Impl::check_matches(const SweepCase& c) const {
  const auto differs = [&](const std::string& what) {
    throw InputError("sweep case '" + c.name + "' cannot join " + final_path.string() + ": " +
                     what + " differs from the first case's");
  };
  if (c.mesh.kind != kind || c.mesh.number_of_points() != points) differs("the mesh kind or size");
  if ((kind == MeshKind::kStructured || kind == MeshKind::kImage) && c.mesh.extent != extent)
    differs("the grid extent");
  if (c.parameters.size() != parameter_names.size()) differs("the parameter list");
  for (const auto& name : parameter_names)
    if (!c.parameters.count(name)) differs("the parameter list");
  for (const auto& name : result_names)
    if (!c.results.count(name)) differs("the list of results");
}

SweepDatasetWriter::SweepDatasetWriter(std::filesystem::path path, std::size_t cases,
                                       const std::string& sweep_yaml, const std::string& producer)
    : impl_(std::make_unique<Impl>()) {
  h5::quiet();
  Impl& d = *impl_;
  d.final_path = std::move(path);
  d.temporary_path = d.final_path;
  d.temporary_path += ".tmp-" + std::to_string(::getpid());
  d.where = Where{d.final_path.string(), false};
  d.cases = cases;
  d.written.assign(cases, false);
  d.names.resize(cases);
  if (cases == 0)
    throw InputError("a sweep dataset needs at least one case: " + d.final_path.string());
  if (d.final_path.has_parent_path())
    std::filesystem::create_directories(d.final_path.parent_path());
  Hid fcpl = own(H5Pcreate(H5P_FILE_CREATE), H5Pclose, d.where, "cannot create property list");
  h5::check_status(H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
                   d.where, "cannot track creation order");
  d.file = own(H5Fcreate(d.temporary_path.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT), H5Fclose,
               d.where, "cannot create " + d.temporary_path.string());
  h5::write_attribute(d.file, "format", std::string(kSweepFormat), d.where);
  h5::write_attribute(d.file, "format_version", kSweepFormatVersion, d.where);
  h5::write_attribute(d.file, "surrox_version", std::string(kVersion), d.where);
  h5::write_attribute(d.file, "producer", producer, d.where);
  h5::write_attribute(d.file, "created", utc_timestamp(), d.where);
  h5::write_attribute(d.file, "cases", static_cast<std::int64_t>(cases), d.where);
  write_string_array(d.file, "sweep", {sweep_yaml}, d.where);
}

SweepDatasetWriter::~SweepDatasetWriter() {
  if (impl_ && !impl_->closed) {
    impl_->array_datasets.clear();
    impl_->points_dataset.reset();
    impl_->fields_group.reset();
    impl_->file.reset();
    std::error_code ignored;
    std::filesystem::remove(impl_->temporary_path, ignored);
  }
}
SweepDatasetWriter::SweepDatasetWriter(SweepDatasetWriter&&) noexcept = default;
SweepDatasetWriter& SweepDatasetWriter::operator=(SweepDatasetWriter&&) noexcept = default;

void SweepDatasetWriter::write(std::size_t index, const SweepCase& sweep_case) {
  h5::quiet();
  Impl& d = *impl_;
  if (index >= d.cases || d.written[index])
    throw Error("sweep dataset " + d.final_path.string() + ": case index " + std::to_string(index) +
                " is out of range or written twice");
  if (!d.laid_out) d.lay_out(sweep_case);
  d.check_matches(sweep_case);
  const MeshData& mesh = sweep_case.mesh;
  if (d.points_dataset)
    h5::write_box(*d.points_dataset, H5T_NATIVE_DOUBLE, mesh.points.data(), {index, 0, 0},
                  {1, d.points, 3}, H5P_DEFAULT, d.where, "/mesh/points");
  for (std::size_t a = 0; a < d.arrays.size(); ++a) {
    const SweepArrayLayout& layout = d.arrays[a];
    const NamedArray* array =
        layout.on_cells ? mesh.find_cell_array(layout.name) : mesh.find_point_array(layout.name);
    if (!array || array->tuples() != layout.tuples || array->components() != layout.components)
      throw InputError("sweep case '" + sweep_case.name + "' lacks array '" + layout.name +
                       "' with the first case's shape");
    h5::write_box(d.array_datasets[a], H5T_NATIVE_DOUBLE, array->values.data(), {index, 0, 0},
                  {1, layout.tuples, layout.components}, H5P_DEFAULT, d.where,
                  "/fields/" + layout.name);
  }
  for (std::size_t p = 0; p < d.parameter_names.size(); ++p)
    d.parameter_values[p][index] = sweep_case.parameters.at(d.parameter_names[p]);
  for (std::size_t r = 0; r < d.result_names.size(); ++r)
    d.result_values[r][index] = sweep_case.results.at(d.result_names[r]);
  d.names[index] = sweep_case.name;
  d.written[index] = true;
}

void SweepDatasetWriter::close() {
  h5::quiet();
  Impl& d = *impl_;
  if (d.closed) return;
  const auto missing = std::find(d.written.begin(), d.written.end(), false);
  if (missing != d.written.end())
    throw Error("sweep dataset " + d.final_path.string() + ": case " +
                std::to_string(missing - d.written.begin()) + " was never written");
  write_string_array(d.file, "case_names", d.names, d.where);
  // Parameters: numbers when every value is one, text otherwise (airfoil names, file paths).
  Hid parameters = h5::create_ordered_group(d.file, "parameters", d.where);
  for (std::size_t p = 0; p < d.parameter_names.size(); ++p) {
    std::vector<double> numbers(d.cases);
    bool numeric = true;
    for (std::size_t c = 0; c < d.cases && numeric; ++c)
      numeric = parses_as_number(d.parameter_values[p][c], &numbers[c]);
    if (numeric)
      write_doubles(parameters, d.parameter_names[p], numbers, d.where);
    else
      write_string_array(parameters, d.parameter_names[p], d.parameter_values[p], d.where);
  }
  Hid results = h5::create_ordered_group(d.file, "results", d.where);
  for (std::size_t r = 0; r < d.result_names.size(); ++r)
    write_doubles(results, d.result_names[r], d.result_values[r], d.where);
  parameters.reset();
  results.reset();
  d.array_datasets.clear();
  d.points_dataset.reset();
  d.fields_group.reset();
  if (!d.file.reset())
    throw Error("cannot close " + d.temporary_path.string() + " (" + h5::error_stack() + ")");
  d.closed = true;
  std::error_code error;
  std::filesystem::rename(d.temporary_path, d.final_path, error);
  if (error) {
    std::filesystem::remove(d.temporary_path, error);
    throw Error("cannot move the sweep dataset to " + d.final_path.string());
  }
}

// ---------------------------------------------------------------------------------------------
// Reader

struct SweepDatasetReader::Impl {
  std::filesystem::path path;
  Where where;
  Hid file;
  std::size_t cases = 0;
  MeshKind kind = MeshKind::kStructured;
  std::array<long, 6> extent{};
  std::size_t points = 0;
  std::vector<FieldSpec> fields;
  std::vector<std::size_t> tuples;
};

SweepDatasetReader::SweepDatasetReader(const std::filesystem::path& path)
    : impl_(std::make_unique<Impl>()) {
  // The reads are lazy, so the probe reads everything the reader can be asked for.
  probe_in_child(
      [&] {
        SweepDatasetReader whole(path, Uncontained{});
        whole.sweep_yaml();
        for (const auto& name : whole.parameter_names()) whole.parameter_text(name);
        for (const auto& name : whole.result_names()) whole.result(name);
        for (std::size_t index = 0; index < whole.cases(); ++index) {
          whole.points(index);
          for (const auto& field : whole.fields()) whole.read(field.name, index);
        }
      },
      path.string(), "HDF5");
  open(path);
}

SweepDatasetReader::SweepDatasetReader(const std::filesystem::path& path, Uncontained)
    : impl_(std::make_unique<Impl>()) {
  open(path);
}

void SweepDatasetReader::open(const std::filesystem::path& path) {
  h5::quiet();
  Impl& d = *impl_;
  d.path = path;
  d.where = Where{path.string(), true};
  d.file = h5::open_for_reading(path, d.where);
  if (!h5::has_attribute(d.file, "format") ||
      h5::read_string_attribute(d.file, "format", d.where) != kSweepFormat)
    h5::fail(d.where, "not a surrox sweep dataset (no format = \"surrox-sweep\" attribute)");
  const auto version = h5::read_int_attribute(d.file, "format_version", d.where);
  if (version.size() != 1 || version[0] > kSweepFormatVersion)
    h5::fail(d.where, "format_version is newer than this surrox reads (" +
                          std::to_string(kSweepFormatVersion) + ")");
  const auto cases = h5::read_int_attribute(d.file, "cases", d.where);
  if (cases.size() != 1 || cases[0] < 1) h5::fail(d.where, "bad 'cases' attribute");
  d.cases = static_cast<std::size_t>(cases[0]);
  if (!h5::has_link(d.file, "case_names"))
    h5::fail(d.where, "incomplete: no /case_names (the writer never closed)");
  Hid mesh = h5::open_group(d.file, "mesh", d.where);
  const std::string kind = h5::read_string_attribute(mesh, "kind", d.where);
  if (kind == to_string(MeshKind::kImage))
    d.kind = MeshKind::kImage;
  else if (kind == to_string(MeshKind::kStructured))
    d.kind = MeshKind::kStructured;
  else
    h5::fail(d.where, "/mesh kind '" + kind + "' is not a structured or image mesh");
  const auto extent = h5::read_int_attribute(mesh, "extent", d.where);
  if (extent.size() != 6) h5::fail(d.where, "/mesh extent must hold 6 values");
  std::copy(extent.begin(), extent.end(), d.extent.begin());
  const auto points = h5::read_int_attribute(mesh, "number_of_points", d.where);
  if (points.size() != 1 || points[0] < 1) h5::fail(d.where, "bad /mesh number_of_points");
  d.points = static_cast<std::size_t>(points[0]);
  Hid fields = h5::open_group(d.file, "fields", d.where);
  for (const auto& name : h5::link_names(fields, d.where)) {
    Hid dataset = h5::open_dataset(fields, name, d.where);
    const auto dims = h5::dataset_dims(dataset, d.where);
    if (dims.size() != 3 || dims[0] != d.cases)
      h5::fail(d.where, "/fields/" + name + " is not [case, tuples, components]");
    FieldSpec spec;
    spec.name = name;
    spec.on = h5::read_string_attribute(dataset, "association", d.where) == "cell"
                  ? FieldSpec::On::kCells
                  : FieldSpec::On::kPoints;
    spec.components = dims[2];
    d.fields.push_back(spec);
    d.tuples.push_back(dims[1]);
  }
}

SweepDatasetReader::~SweepDatasetReader() = default;
SweepDatasetReader::SweepDatasetReader(SweepDatasetReader&&) noexcept = default;
SweepDatasetReader& SweepDatasetReader::operator=(SweepDatasetReader&&) noexcept = default;

std::size_t SweepDatasetReader::cases() const { return impl_->cases; }

std::vector<std::string> SweepDatasetReader::case_names() const {
  h5::quiet();
  return read_string_array(impl_->file, "case_names", impl_->cases, impl_->where);
}

MeshKind SweepDatasetReader::kind() const { return impl_->kind; }

std::array<long, 3> SweepDatasetReader::dimensions() const {
  const auto& e = impl_->extent;
  return {e[1] - e[0] + 1, e[3] - e[2] + 1, e[5] - e[4] + 1};
}

std::vector<FieldSpec> SweepDatasetReader::fields() const { return impl_->fields; }

namespace {

HostArray read_case_slab(hid_t dataset, std::size_t index, std::size_t cases, std::size_t tuples,
                         std::size_t components, const Where& where, const std::string& what) {
  if (index >= cases)
    throw InputError(where.file + ": case " + std::to_string(index) + " out of range (" +
                     std::to_string(cases) + " cases)");
  HostArray values(Kokkos::ViewAllocateWithoutInitializing(what), tuples, components);
  Hid file_space = own(H5Dget_space(dataset), H5Sclose, where, "cannot get dataspace of " + what);
  const std::vector<hsize_t> start{index, 0, 0}, count{1, tuples, components};
  h5::check_status(
      H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
      where, "cannot select in " + what);
  Hid memory_space =
      own(H5Screate_simple(3, count.data(), nullptr), H5Sclose, where, "cannot create dataspace");
  h5::check_status(
      H5Dread(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space, H5P_DEFAULT, values.data()),
      where, "cannot read " + what);
  return values;
}

}  // namespace

HostArray SweepDatasetReader::points(std::size_t index) const {
  h5::quiet();
  const Impl& d = *impl_;
  if (d.kind == MeshKind::kImage) return HostArray("points", 0, 3);
  Hid mesh = h5::open_group(d.file, "mesh", d.where);
  Hid dataset = h5::open_dataset(mesh, "points", d.where);
  const auto dims = h5::dataset_dims(dataset, d.where);
  if (dims.size() != 3 || dims[0] != d.cases || dims[1] != d.points || dims[2] != 3)
    h5::fail(d.where, "/mesh/points is not [case, points, 3]");
  return read_case_slab(dataset, index, d.cases, d.points, 3, d.where, "/mesh/points");
}

HostArray SweepDatasetReader::read(const std::string& field, std::size_t index) const {
  h5::quiet();
  const Impl& d = *impl_;
  for (std::size_t f = 0; f < d.fields.size(); ++f) {
    if (d.fields[f].name != field) continue;
    Hid group = h5::open_group(d.file, "fields", d.where);
    Hid dataset = h5::open_dataset(group, field, d.where);
    return read_case_slab(dataset, index, d.cases, d.tuples[f], d.fields[f].components, d.where,
                          "/fields/" + field);
  }
  std::vector<std::string> names;
  for (const auto& f : d.fields) names.push_back(f.name);
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  throw InputError(d.path.string() + " has no field '" + field + "'; it has: " + known);
}

std::vector<std::string> SweepDatasetReader::parameter_names() const {
  h5::quiet();
  Hid group = h5::open_group(impl_->file, "parameters", impl_->where);
  return h5::link_names(group, impl_->where);
}

std::vector<double> SweepDatasetReader::parameter(const std::string& name) const {
  h5::quiet();
  Hid group = h5::open_group(impl_->file, "parameters", impl_->where);
  if (!h5::has_link(group, name))
    throw InputError(impl_->path.string() + " has no parameter '" + name + "'");
  Hid dataset = h5::open_dataset(group, name, impl_->where);
  Hid type = own(H5Dget_type(dataset), H5Tclose, impl_->where, "cannot read type of " + name);
  if (H5Tget_class(type) == H5T_STRING)
    throw InputError(impl_->path.string() + ": parameter '" + name + "' holds text, not numbers");
  return read_doubles(group, name, impl_->cases, impl_->where);
}

std::vector<std::string> SweepDatasetReader::parameter_text(const std::string& name) const {
  h5::quiet();
  Hid group = h5::open_group(impl_->file, "parameters", impl_->where);
  if (!h5::has_link(group, name))
    throw InputError(impl_->path.string() + " has no parameter '" + name + "'");
  Hid dataset = h5::open_dataset(group, name, impl_->where);
  Hid type = own(H5Dget_type(dataset), H5Tclose, impl_->where, "cannot read type of " + name);
  if (H5Tget_class(type) == H5T_STRING)
    return read_string_array(group, name, impl_->cases, impl_->where);
  std::vector<std::string> text;
  for (double v : read_doubles(group, name, impl_->cases, impl_->where))
    text.push_back(h5::format_double(v));
  return text;
}

std::vector<std::string> SweepDatasetReader::result_names() const {
  h5::quiet();
  Hid group = h5::open_group(impl_->file, "results", impl_->where);
  return h5::link_names(group, impl_->where);
}

std::vector<double> SweepDatasetReader::result(const std::string& name) const {
  h5::quiet();
  Hid group = h5::open_group(impl_->file, "results", impl_->where);
  if (!h5::has_link(group, name))
    throw InputError(impl_->path.string() + " has no result '" + name + "'");
  return read_doubles(group, name, impl_->cases, impl_->where);
}

std::string SweepDatasetReader::sweep_yaml() const {
  h5::quiet();
  return read_string_array(impl_->file, "sweep", 1, impl_->where).front();
}

}  // namespace surrox::io

#include "io/hdf5_dataset.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>
#include <numeric>
#include <set>
#include <system_error>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_handle.hpp"
#include "io/hdf5_mpi.hpp"
#include "io/hdf5_multiblock.hpp"
#include "io/xdmf_writer.hpp"

namespace surrox::io {

using h5::create_dataset;
using h5::Hid;
using h5::own;
using h5::product;
using h5::Where;
using h5::write_box;

namespace {

constexpr const char* kDatasetFormat = "surrox-dataset";
constexpr std::int64_t kDatasetFormatVersion = 1;
constexpr hsize_t kChunkValues = 1 << 17;  // about 1 MiB of doubles per chunk

const std::set<std::string>& reserved_attributes() {
  static const std::set<std::string> names{
      "format", "format_version", "surrox_version", "surrox_git_describe", "producer", "created"};
  return names;
}

bool is_structured(MeshKind kind) {
  return kind == MeshKind::kImage || kind == MeshKind::kStructured;
}

// Chunk shape for a field dataset [T, spatial..., (C)]: one step, at most ~kChunkValues
// values, cutting the slowest spatial axes first.
std::vector<hsize_t> field_chunk(const std::vector<hsize_t>& dims) {
  std::vector<hsize_t> chunk = dims;
  chunk[0] = 1;
  for (std::size_t axis = 1; axis < chunk.size(); ++axis) {
    chunk[axis] = std::max<hsize_t>(chunk[axis], 1);
    const hsize_t rest = std::max<hsize_t>(product(chunk, axis + 1), 1);
    if (chunk[axis] * rest > kChunkValues) chunk[axis] = std::max<hsize_t>(1, kChunkValues / rest);
  }
  return chunk;
}

void check_field_name(const std::string& name) {
  if (name.empty() || name == "." || name.find('/') != std::string::npos)
    throw InputError("invalid field name '" + name +
                     "': names must be non-empty and contain no '/'");
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Writer

struct Hdf5DatasetWriter::Impl {
  std::filesystem::path final_path, temporary_path;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  MeshKind kind = MeshKind::kImage;
  std::vector<FieldSpec> fields;
  Where where;

  // kImage/kStructured: global point dims (i, j, k), this piece's offset and point dims.
  std::array<long, 6> global_extent{};
  std::array<long, 3> global_dims{1, 1, 1}, local_offset{0, 0, 0}, local_dims{1, 1, 1};
  std::array<double, 3> origin{0, 0, 0}, spacing{1, 1, 1};
  // kUnstructured/kPolyData: global counts and this piece's offsets.
  hsize_t points_total = 0, cells_total = 0, points_local = 0, cells_local = 0;
  hsize_t point_offset = 0, cell_offset = 0;
  std::size_t mixed_length = 0;

  Hid file, dxpl;
  Hid time_dataset;
  std::vector<Hid> field_datasets;
  std::vector<double> times;
  bool closed = false;

  // Spatial box (slowest axis first) of this rank's points or cells in the global dataset.
  void spatial_box(bool on_cells, std::vector<hsize_t>* start, std::vector<hsize_t>* count,
                   std::vector<hsize_t>* global) const {
    start->clear();
    count->clear();
    global->clear();
    if (is_structured(kind)) {
      for (int axis = 2; axis >= 0; --axis) {
        const long n = global_dims[axis];
        if (!on_cells) {
          start->push_back(static_cast<hsize_t>(local_offset[axis]));
          count->push_back(static_cast<hsize_t>(local_dims[axis]));
          global->push_back(static_cast<hsize_t>(n));
        } else if (n > 1) {
          start->push_back(static_cast<hsize_t>(local_offset[axis]));
          count->push_back(static_cast<hsize_t>(std::max(0L, local_dims[axis] - 1)));
          global->push_back(static_cast<hsize_t>(n - 1));
        } else {
          start->push_back(0);
          count->push_back(1);
          global->push_back(1);
        }
      }
    } else {
      start->push_back(on_cells ? cell_offset : point_offset);
      count->push_back(on_cells ? cells_local : points_local);
      global->push_back(on_cells ? cells_total : points_total);
    }
  }

  void setup_geometry(const MeshData& local);
  void write_mesh(const MeshData& local);
  void create_fields();
  void close_handles() {
    field_datasets.clear();
    time_dataset.reset();
    dxpl.reset();
    file.reset();
  }
};

void Hdf5DatasetWriter::Impl::setup_geometry(const MeshData& local) {
  // Same kind everywhere.
  int kind_min = static_cast<int>(local.kind), kind_max = kind_min;
  MPI_Allreduce(MPI_IN_PLACE, &kind_min, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &kind_max, 1, MPI_INT, MPI_MAX, comm);
  mpi::agree(comm, kind_min == kind_max, "mesh pieces of different kinds on different ranks", true);
  kind = local.kind;

  if (is_structured(kind)) {
    const auto& e = local.extent;
    bool ok = e[1] >= e[0] && e[3] >= e[2] && e[5] >= e[4];
    if (kind == MeshKind::kStructured)
      ok = ok && local.points.extent(0) == local.number_of_points() && local.points.extent(1) == 3;
    mpi::agree(
        comm, ok,
        "invalid " + to_string(kind) + " piece: empty extent or points not (number of points) x 3",
        true);
    long lows[3] = {e[0], e[2], e[4]}, highs[3] = {e[1], e[3], e[5]};
    MPI_Allreduce(MPI_IN_PLACE, lows, 3, MPI_LONG, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, highs, 3, MPI_LONG, MPI_MAX, comm);
    for (int axis = 0; axis < 3; ++axis) {
      global_extent[2 * axis] = lows[axis];
      global_extent[2 * axis + 1] = highs[axis];
      global_dims[axis] = highs[axis] - lows[axis] + 1;
      local_offset[axis] = e[2 * axis] - lows[axis];
      local_dims[axis] = e[2 * axis + 1] - e[2 * axis] + 1;
    }
    origin = local.origin;
    spacing = local.spacing;
    MPI_Bcast(origin.data(), 3, MPI_DOUBLE, 0, comm);
    MPI_Bcast(spacing.data(), 3, MPI_DOUBLE, 0, comm);
    mpi::agree(comm,
               kind != MeshKind::kImage || (origin == local.origin && spacing == local.spacing),
               "image pieces with different origin or spacing", true);
    // Every piece must hold as many cells as its box in the global cell index space.
    std::vector<hsize_t> start, count, global;
    spatial_box(true, &start, &count, &global);
    mpi::agree(
        comm, product(count) == local.number_of_cells(),
        "a " + to_string(kind) +
            " piece must be at least 2 points thick along every axis the global extent spans",
        true);
    std::vector<hsize_t> point_count;
    spatial_box(false, &start, &point_count, &global);
    points_total = product(global);
    spatial_box(true, &start, &count, &global);
    cells_total = product(global);
    return;
  }

  // Unstructured / polydata: sanity of this piece, then prefix sums.
  const std::size_t n_points = local.points.extent(0), n_cells = local.cell_types.size();
  bool ok = local.points.extent(1) == 3 || n_points == 0;
  std::string reason = "points must be n x 3";
  if (ok && !(local.cell_offsets.size() == n_cells + 1 ||
              (n_cells == 0 && local.cell_offsets.size() <= 1))) {
    ok = false;
    reason = "cell_offsets must hold number of cells + 1 entries";
  }
  if (ok && n_cells > 0) {
    ok = local.cell_offsets.front() == 0 &&
         local.cell_offsets.back() == static_cast<std::int64_t>(local.connectivity.size()) &&
         std::is_sorted(local.cell_offsets.begin(), local.cell_offsets.end());
    if (!ok) reason = "cell_offsets must rise from 0 to the connectivity length";
  }
  if (ok) {
    for (auto id : local.connectivity)
      if (id < 0 || static_cast<std::size_t>(id) >= n_points) {
        ok = false;
        reason = "connectivity refers to point " + std::to_string(id) + " of " +
                 std::to_string(n_points);
        break;
      }
  }
  mpi::agree(comm, ok, "invalid " + to_string(kind) + " piece: " + reason, true);
  points_local = n_points;
  cells_local = n_cells;
  const auto point_prefix = mpi::exclusive_prefix(comm, points_local, &points_total);
  const auto cell_prefix = mpi::exclusive_prefix(comm, cells_local, &cells_total);
  point_offset = point_prefix;
  cell_offset = cell_prefix;
}

void Hdf5DatasetWriter::Impl::write_mesh(const MeshData& local) {
  Hid mesh = own(H5Gcreate2(file, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, where,
                 "cannot create group /mesh");
  h5::write_attribute(mesh, "kind", to_string(kind), where);
  h5::write_attribute(mesh, "number_of_points", static_cast<std::int64_t>(points_total), where);
  h5::write_attribute(mesh, "number_of_cells", static_cast<std::int64_t>(cells_total), where);
  if (is_structured(kind)) {
    h5::write_attribute(mesh, "extent",
                        std::vector<std::int64_t>(global_extent.begin(), global_extent.end()),
                        where);
    if (kind == MeshKind::kImage) {
      h5::write_attribute(mesh, "origin", std::vector<double>(origin.begin(), origin.end()), where);
      h5::write_attribute(mesh, "spacing", std::vector<double>(spacing.begin(), spacing.end()),
                          where);
      return;
    }
    std::vector<hsize_t> start, count, global;
    spatial_box(false, &start, &count, &global);
    start.push_back(0);
    count.push_back(3);
    global.push_back(3);
    Hid points = create_dataset(mesh, "points", H5T_IEEE_F64LE, global, {}, {}, false, where);
    write_box(points, H5T_NATIVE_DOUBLE, local.points.data(), start, count, dxpl, where,
              "/mesh/points");
    return;
  }

  // Points [N, 3].
  Hid points =
      create_dataset(mesh, "points", H5T_IEEE_F64LE, {points_total, 3}, {}, {}, false, where);
  write_box(points, H5T_NATIVE_DOUBLE, local.points.data(), {point_offset, 0}, {points_local, 3},
            dxpl, where, "/mesh/points");
  // Cell types [C].
  Hid types = create_dataset(mesh, "cell_types", H5T_STD_U8LE, {cells_total}, {}, {}, false, where);
  write_box(types, H5T_NATIVE_UINT8, local.cell_types.data(), {cell_offset}, {cells_local}, dxpl,
            where, "/mesh/cell_types");
  // Connectivity [L], shifted by the points of lower ranks.
  hsize_t connectivity_total = 0;
  const hsize_t connectivity_local = local.connectivity.size();
  const hsize_t connectivity_offset =
      mpi::exclusive_prefix(comm, connectivity_local, &connectivity_total);
  std::vector<std::int64_t> shifted(local.connectivity);
  for (auto& id : shifted) id += static_cast<std::int64_t>(point_offset);
  Hid connectivity = create_dataset(mesh, "connectivity", H5T_STD_I64LE, {connectivity_total}, {},
                                    {}, false, where);
  write_box(connectivity, H5T_NATIVE_INT64, shifted.data(), {connectivity_offset},
            {connectivity_local}, dxpl, where, "/mesh/connectivity");
  // Offsets [C + 1]: each rank its first C entries, the last rank also the closing one.
  std::vector<std::int64_t> offsets;
  for (std::size_t c = 0; c < cells_local; ++c)
    offsets.push_back(local.cell_offsets[c] + static_cast<std::int64_t>(connectivity_offset));
  hsize_t offsets_count = cells_local;
  if (rank == size - 1) {
    offsets.push_back(static_cast<std::int64_t>(connectivity_total));
    ++offsets_count;
  }
  Hid offsets_dataset =
      create_dataset(mesh, "cell_offsets", H5T_STD_I64LE, {cells_total + 1}, {}, {}, false, where);
  write_box(offsets_dataset, H5T_NATIVE_INT64, offsets.data(), {cell_offset}, {offsets_count}, dxpl,
            where, "/mesh/cell_offsets");

  // XDMF Mixed topology, when every cell type has an XDMF equivalent.
  std::vector<std::int64_t> mixed;
  bool mappable = true;
  static const int pixel_order[4] = {0, 1, 3, 2}, voxel_order[8] = {0, 1, 3, 2, 4, 5, 7, 6};
  for (std::size_t c = 0; c < cells_local && mappable; ++c) {
    bool needs_count = false;
    const int vtk_type = local.cell_types[c];
    const int xdmf_type = xdmf_cell_type(vtk_type, &needs_count);
    if (xdmf_type < 0) {
      mappable = false;
      break;
    }
    const auto begin = local.cell_offsets[c], end = local.cell_offsets[c + 1];
    mixed.push_back(xdmf_type);
    if (needs_count) mixed.push_back(end - begin);
    for (auto k = begin; k < end; ++k) {
      auto index = k;
      if (vtk_type == 8 && end - begin == 4) index = begin + pixel_order[k - begin];
      if (vtk_type == 11 && end - begin == 8) index = begin + voxel_order[k - begin];
      mixed.push_back(local.connectivity[index] + static_cast<std::int64_t>(point_offset));
    }
  }
  int all_mappable = mappable && cells_total > 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_mappable, 1, MPI_INT, MPI_MIN, comm);
  if (!all_mappable) return;
  hsize_t mixed_total = 0;
  const hsize_t mixed_offset = mpi::exclusive_prefix<hsize_t>(comm, mixed.size(), &mixed_total);
  Hid topology =
      create_dataset(mesh, "xdmf_topology", H5T_STD_I64LE, {mixed_total}, {}, {}, false, where);
  write_box(topology, H5T_NATIVE_INT64, mixed.data(), {mixed_offset}, {mixed.size()}, dxpl, where,
            "/mesh/xdmf_topology");
  mixed_length = mixed_total;
}

void Hdf5DatasetWriter::Impl::create_fields() {
  Hid group = h5::create_ordered_group(file, "fields", where);
  for (const auto& field : fields) {
    const bool on_cells = field.on == FieldSpec::On::kCells;
    std::vector<hsize_t> start, count, global;
    spatial_box(on_cells, &start, &count, &global);
    std::vector<hsize_t> dims{0};
    dims.insert(dims.end(), global.begin(), global.end());
    if (field.components > 1) dims.push_back(field.components);
    std::vector<hsize_t> max_dims = dims;
    max_dims[0] = H5S_UNLIMITED;
    std::vector<hsize_t> chunk_dims = dims;
    chunk_dims[0] = 1;
    Hid dataset = create_dataset(group, field.name, H5T_IEEE_F64LE, dims, max_dims,
                                 field_chunk(chunk_dims), true, where);
    h5::write_attribute(dataset, "units", field.units, where);
    h5::write_attribute(dataset, "description", field.description, where);
    h5::write_attribute(dataset, "association", std::string(on_cells ? "cell" : "point"), where);
    h5::write_attribute(dataset, "components", static_cast<std::int64_t>(field.components), where);
    field_datasets.push_back(std::move(dataset));
  }
}

Hdf5DatasetWriter::Hdf5DatasetWriter(std::filesystem::path path, MPI_Comm comm,
                                     const MeshData& local, std::vector<FieldSpec> fields,
                                     const std::string& case_yaml, const std::string& producer)
    : impl_(std::make_unique<Impl>()) {
  h5::quiet();
  Impl& d = *impl_;
  d.final_path = std::move(path);
  d.comm = comm;
  MPI_Comm_rank(comm, &d.rank);
  MPI_Comm_size(comm, &d.size);
  d.fields = std::move(fields);
  std::set<std::string> names;
  for (const auto& field : d.fields) {
    check_field_name(field.name);
    if (!names.insert(field.name).second)
      throw InputError("field '" + field.name + "' declared twice");
    if (field.components == 0) throw InputError("field '" + field.name + "' has no components");
  }
  d.setup_geometry(local);
  mpi::agree(d.comm, d.points_total > 0, "cannot write a dataset of an empty mesh", true);

  // The temporary name carries rank 0's pid so that every rank opens the same file.
  long pid = static_cast<long>(::getpid());
  MPI_Bcast(&pid, 1, MPI_LONG, 0, comm);
  d.temporary_path = d.final_path;
  d.temporary_path += ".tmp-" + std::to_string(pid);
  d.where = Where{d.final_path.string(), false};
  if (d.rank == 0 && d.final_path.has_parent_path()) {
    std::error_code ignored;
    std::filesystem::create_directories(d.final_path.parent_path(), ignored);
  }
  MPI_Barrier(comm);

  Hid fapl = own(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, d.where, "cannot create property list");
  h5::check_status(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), d.where,
                   "cannot select the MPI-IO driver");
  hid_t file = H5Fcreate(d.temporary_path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  int opened = file >= 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &opened, 1, MPI_INT, MPI_MIN, comm);
  if (!opened) {
    if (file >= 0) H5Fclose(file);
    h5::fail(d.where, "cannot create " + d.temporary_path.string());
  }
  d.file = Hid(file, H5Fclose);
  d.dxpl = own(H5Pcreate(H5P_DATASET_XFER), H5Pclose, d.where, "cannot create property list");
  h5::check_status(H5Pset_dxpl_mpio(d.dxpl, H5FD_MPIO_COLLECTIVE), d.where,
                   "cannot select collective transfers");

  // Root attributes and the case; `created` comes from rank 0 so all ranks write the same.
  std::string created = d.rank == 0 ? utc_timestamp() : std::string();
  mpi::broadcast(comm, &created);
  h5::write_attribute(d.file, "format", std::string(kDatasetFormat), d.where);
  h5::write_attribute(d.file, "format_version", kDatasetFormatVersion, d.where);
  h5::write_attribute(d.file, "surrox_version", std::string(kVersion), d.where);
  h5::write_attribute(d.file, "surrox_git_describe", std::string(kGitDescribe), d.where);
  h5::write_attribute(d.file, "producer", producer, d.where);
  h5::write_attribute(d.file, "created", created, d.where);
  {
    std::string text = case_yaml;
    mpi::broadcast(comm, &text);
    Hid type = own(H5Tcopy(H5T_C_S1), H5Tclose, d.where, "cannot create string type");
    h5::check_status(H5Tset_size(type, std::max<std::size_t>(text.size(), 1)), d.where,
                     "cannot size string type");
    h5::check_status(H5Tset_cset(type, H5T_CSET_UTF8), d.where, "cannot set character set");
    Hid space = own(H5Screate(H5S_SCALAR), H5Sclose, d.where, "cannot create dataspace");
    Hid dataset =
        own(H5Dcreate2(d.file, "case", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
            H5Dclose, d.where, "cannot create dataset /case");
    text.resize(std::max<std::size_t>(text.size(), 1), '\0');
    Hid file_space = own(H5Dget_space(dataset), H5Sclose, d.where, "cannot get dataspace");
    Hid memory_space = own(H5Screate(H5S_SCALAR), H5Sclose, d.where, "cannot create dataspace");
    if (d.rank != 0) {
      H5Sselect_none(file_space);
      H5Sselect_none(memory_space);
    }
    h5::check_status(H5Dwrite(dataset, type, memory_space, file_space, d.dxpl, text.data()),
                     d.where, "cannot write /case");
  }
  d.write_mesh(local);
  {
    const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = 1024;
    d.time_dataset = create_dataset(d.file, "time", H5T_IEEE_F64LE, {zero}, {unlimited}, {chunk},
                                    false, d.where);
  }
  d.create_fields();
}

Hdf5DatasetWriter::~Hdf5DatasetWriter() {
  if (!impl_ || impl_->closed) return;
  // Collective like every other member: all ranks drop the file, rank 0 removes it.
  impl_->close_handles();
  MPI_Barrier(impl_->comm);
  if (impl_->rank == 0) {
    std::error_code ignored;
    std::filesystem::remove(impl_->temporary_path, ignored);
  }
}

Hdf5DatasetWriter::Hdf5DatasetWriter(Hdf5DatasetWriter&&) noexcept = default;
Hdf5DatasetWriter& Hdf5DatasetWriter::operator=(Hdf5DatasetWriter&&) noexcept = default;

std::size_t Hdf5DatasetWriter::steps() const { return impl_->times.size(); }
const std::filesystem::path& Hdf5DatasetWriter::path() const { return impl_->final_path; }

void Hdf5DatasetWriter::append(double time, const std::vector<NamedArray>& local_fields) {
  h5::quiet();
  Impl& d = *impl_;
  if (d.closed) throw Error("append to a closed dataset " + d.final_path.string());
  // Check every declared field on every rank before anyone writes.
  std::vector<const NamedArray*> arrays;
  std::string problem;
  for (const auto& field : d.fields) {
    const NamedArray* found = nullptr;
    for (const auto& array : local_fields)
      if (array.name == field.name) found = &array;
    std::vector<hsize_t> start, count, global;
    d.spatial_box(field.on == FieldSpec::On::kCells, &start, &count, &global);
    if (!found) {
      problem = "field '" + field.name + "' missing from the step";
    } else if (found->tuples() != product(count) || found->components() != field.components) {
      problem = "field '" + field.name + "' has " + std::to_string(found->tuples()) + " x " +
                std::to_string(found->components()) + " values on rank " + std::to_string(d.rank) +
                ", expected " + std::to_string(product(count)) + " x " +
                std::to_string(field.components);
    }
    if (!problem.empty()) break;
    arrays.push_back(found);
  }
  mpi::agree(d.comm, problem.empty(), problem, true);
  MPI_Bcast(&time, 1, MPI_DOUBLE, 0, d.comm);

  const hsize_t step = d.times.size();
  {
    const hsize_t new_size = step + 1;
    h5::check_status(H5Dset_extent(d.time_dataset, &new_size), d.where, "cannot extend /time");
    const hsize_t count = d.rank == 0 ? 1 : 0;
    write_box(d.time_dataset, H5T_NATIVE_DOUBLE, &time, {step}, {count}, d.dxpl, d.where, "/time");
  }
  for (std::size_t f = 0; f < d.fields.size(); ++f) {
    const auto& field = d.fields[f];
    std::vector<hsize_t> start, count, global;
    d.spatial_box(field.on == FieldSpec::On::kCells, &start, &count, &global);
    std::vector<hsize_t> dims{step + 1}, file_start{step}, file_count{1};
    dims.insert(dims.end(), global.begin(), global.end());
    file_start.insert(file_start.end(), start.begin(), start.end());
    file_count.insert(file_count.end(), count.begin(), count.end());
    if (field.components > 1) {
      dims.push_back(field.components);
      file_start.push_back(0);
      file_count.push_back(field.components);
    }
    h5::check_status(H5Dset_extent(d.field_datasets[f], dims.data()), d.where,
                     "cannot extend /fields/" + field.name);
    // The View may be strided (a subview); HDF5 needs contiguous LayoutRight data.
    const HostArray& values = arrays[f]->values;
    const double* data = values.data();
    std::vector<double> packed;
    if (!values.span_is_contiguous() || values.stride(0) != values.extent(1)) {
      packed.resize(values.extent(0) * values.extent(1));
      for (std::size_t i = 0; i < values.extent(0); ++i)
        for (std::size_t c = 0; c < values.extent(1); ++c)
          packed[i * values.extent(1) + c] = values(i, c);
      data = packed.data();
    }
    write_box(d.field_datasets[f], H5T_NATIVE_DOUBLE, data, file_start, file_count, d.dxpl, d.where,
              "/fields/" + field.name);
  }
  d.times.push_back(time);
}

void Hdf5DatasetWriter::set_attribute(const std::string& name, double value) {
  h5::quiet();
  Impl& d = *impl_;
  if (d.closed) throw Error("set_attribute on a closed dataset " + d.final_path.string());
  if (name.empty() || reserved_attributes().count(name))
    throw InputError("attribute name '" + name + "' is reserved");
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, d.comm);
  h5::write_attribute(d.file, name, value, d.where);
}

void Hdf5DatasetWriter::set_attribute(const std::string& name, const std::string& value) {
  h5::quiet();
  Impl& d = *impl_;
  if (d.closed) throw Error("set_attribute on a closed dataset " + d.final_path.string());
  if (name.empty() || reserved_attributes().count(name))
    throw InputError("attribute name '" + name + "' is reserved");
  std::string text = value;
  mpi::broadcast(d.comm, &text);
  h5::write_attribute(d.file, name, text, d.where);
}

void Hdf5DatasetWriter::close() {
  h5::quiet();
  Impl& d = *impl_;
  if (d.closed) return;
  d.closed = true;
  d.field_datasets.clear();
  d.time_dataset.reset();
  d.dxpl.reset();
  const bool flushed = d.file.reset();
  std::string problem;
  if (!flushed)
    problem = "cannot close " + d.temporary_path.string() + " (" + h5::error_stack() + ")";
  mpi::agree(d.comm, problem.empty(), problem, false, [&] {
    if (d.rank == 0) {
      std::error_code ignored;
      std::filesystem::remove(d.temporary_path, ignored);
    }
  });
  if (d.rank == 0) {
    std::error_code error;
    std::filesystem::rename(d.temporary_path, d.final_path, error);
    if (error) {
      problem = "cannot move " + d.temporary_path.string() + " to " + d.final_path.string() + ": " +
                error.message();
      std::filesystem::remove(d.temporary_path, error);
    } else {
      XdmfDescription description;
      description.h5_reference = d.final_path.filename().string();
      description.kind = d.kind;
      description.point_dims = d.global_dims;
      description.origin = d.origin;
      description.spacing = d.spacing;
      description.number_of_points = d.points_total;
      description.number_of_cells = d.cells_total;
      description.mixed_topology_length = d.mixed_length;
      description.times = d.times;
      for (const auto& field : d.fields)
        description.fields.push_back(
            {field.name, field.on == FieldSpec::On::kCells, field.components});
      try {
        write_xdmf(xdmf_path_for(d.final_path), description);
      } catch (const std::exception& e) {
        problem = e.what();
      }
    }
  }
  mpi::broadcast(d.comm, &problem);
  if (!problem.empty()) throw Error(problem, ErrorContext{d.final_path.string()});
}

// ---------------------------------------------------------------------------------------
// Reader

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

namespace {

MeshCollection read_hdf5_dataset_uncontained(const std::filesystem::path& path) {
  if (hdf5_format(path) == "surrox-multiblock") return read_hdf5_multiblock(path);
  Hdf5DatasetReader reader(path);
  const auto times = reader.times();
  const MeshData mesh = reader.mesh();
  const auto fields = reader.fields();
  MeshCollection collection;
  collection.kind =
      times.size() == 1 ? MeshCollection::Kind::kSingle : MeshCollection::Kind::kTimeSeries;
  for (std::size_t step = 0; step < times.size(); ++step) {
    MeshEntry entry;
    entry.time = times[step];
    entry.name = "step_" + std::to_string(step);
    entry.mesh = mesh;  // entries share the geometry Views
    for (const auto& field : fields) {
      NamedArray array{field.name, reader.read(field.name, step)};
      (field.on == FieldSpec::On::kCells ? entry.mesh.cell_data : entry.mesh.point_data)
          .push_back(std::move(array));
    }
    collection.entries.push_back(std::move(entry));
  }
  return collection;
}

}  // namespace

MeshCollection read_hdf5_dataset(const std::filesystem::path& path) {
  return read_contained(path.string(), "HDF5", [&] { return read_hdf5_dataset_uncontained(path); });
}

namespace {

bool same_values(const HostArray& a, const HostArray& b) {
  if (a.extent(0) != b.extent(0) || a.extent(1) != b.extent(1)) return false;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t c = 0; c < a.extent(1); ++c)
      if (std::memcmp(&a(i, c), &b(i, c), sizeof(double)) != 0) return false;
  return true;
}

bool same_mesh(const MeshData& a, const MeshData& b) {
  if (a.kind != b.kind) return false;
  if (is_structured(a.kind) && a.extent != b.extent) return false;
  if (a.kind == MeshKind::kImage) return a.origin == b.origin && a.spacing == b.spacing;
  if (!same_values(a.points, b.points)) return false;
  return a.cell_types == b.cell_types && a.cell_offsets == b.cell_offsets &&
         a.connectivity == b.connectivity;
}

}  // namespace

void write_hdf5_dataset(const MeshCollection& series, const std::filesystem::path& path,
                        const std::string& producer) {
  if (series.entries.empty())
    throw InputError("nothing to write to " + path.string() + ": no datasets");
  if (series.kind == MeshCollection::Kind::kMultiBlock && series.entries.size() > 1)
    return write_hdf5_multiblock(series, path, producer);
  const MeshData& first = series.entries.front().mesh;
  std::vector<FieldSpec> fields;
  std::set<std::string> names;
  for (const auto& array : first.point_data) {
    fields.push_back({array.name, FieldSpec::On::kPoints, array.components(), "", ""});
    names.insert(array.name);
  }
  // ParaView's OpenFOAM reader gives point and cell arrays of one name (p, U): the cell one is
  // stored as "<name>_cell", since one /fields group holds both.
  std::vector<std::string> source_names;  // the VTK array of each field
  for (const auto& field : fields) source_names.push_back(field.name);
  for (const auto& array : first.cell_data) {
    std::string stored = array.name;
    if (names.count(stored)) stored += "_cell";
    if (!names.insert(stored).second)
      throw InputError("cell array '" + array.name +
                           "' clashes with a point array of that name and '" + stored +
                           "' is taken too: an HDF5 dataset needs unique names",
                       ErrorContext{path.string()});
    source_names.push_back(array.name);
    fields.push_back({stored, FieldSpec::On::kCells, array.components(), "",
                      stored == array.name ? "" : "VTK cell array '" + array.name + "'"});
  }
  for (const auto& entry : series.entries) {
    if (!same_mesh(entry.mesh, first)) {
      throw InputError(std::string("time steps with different meshes are not supported") +
                           " by the HDF5 dataset format (entry '" + entry.name +
                           "' differs from '" + series.entries.front().name +
                           "'); write one file per step",
                       ErrorContext{path.string()});
    }
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const auto& field = fields[f];
      const NamedArray* array = field.on == FieldSpec::On::kCells
                                    ? entry.mesh.find_cell_array(source_names[f])
                                    : entry.mesh.find_point_array(source_names[f]);
      if (!array || array->components() != field.components)
        throw InputError("entry '" + entry.name + "' lacks array '" + source_names[f] +
                             "' (or its component count differs)",
                         ErrorContext{path.string()});
    }
  }
  MeshData geometry = first;
  geometry.point_data.clear();
  geometry.cell_data.clear();
  Hdf5DatasetWriter writer(path, MPI_COMM_SELF, geometry, fields, "", producer);
  for (const auto& entry : series.entries) {
    std::vector<NamedArray> arrays;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const bool on_cells = fields[f].on == FieldSpec::On::kCells;
      const NamedArray* array = on_cells ? entry.mesh.find_cell_array(source_names[f])
                                         : entry.mesh.find_point_array(source_names[f]);
      arrays.push_back({fields[f].name, array->values});
    }
    writer.append(entry.time, arrays);
  }
  writer.close();
}

bool is_hdf5_file(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension == ".h5" || extension == ".hdf5";
}

}  // namespace surrox::io

// Hdf5DatasetWriter: creating the file, appending time steps, attributes, and the final rename.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_dataset_detail.hpp"
#include "io/hdf5_handle.hpp"
#include "io/hdf5_mpi.hpp"
#include "io/series_time.hpp"
#include "io/xdmf_writer.hpp"

namespace surrox::io {

using h5::create_dataset;
using h5::Hid;
using h5::own;
using h5::product;
using h5::Where;
using h5::write_box;

namespace {

constexpr hsize_t kChunkValues = 1 << 17;  // about 1 MiB of doubles per chunk

const std::set<std::string>& reserved_attributes() {
  static const std::set<std::string> names{
      "format", "format_version", "surrox_version", "surrox_git_describe", "producer", "created"};
  return names;
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

std::size_t Hdf5DatasetWriter::append_earlier(const std::filesystem::path& earlier, double before) {
  h5::quiet();
  Impl& d = *impl_;
  const Where where{earlier.string(), false};
  std::string problem;
  std::vector<double> times;
  std::vector<std::vector<NamedArray>> steps;  // this rank's pieces of the steps taken over
  try {
    Hid file = h5::open_for_reading(earlier, where);
    Hid time_dataset = h5::open_dataset(file, "time", where);
    times.resize(h5::dataset_dims(time_dataset, where).at(0));
    if (!times.empty())
      h5::check_status(
          H5Dread(time_dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, times.data()),
          where, "cannot read /time");
    std::size_t keep = 0;
    while (keep < times.size() && earlier_than(times[keep], before)) ++keep;
    times.resize(keep);
    steps.resize(keep);
    for (const auto& field : d.fields) {
      std::vector<hsize_t> start, count, global;
      d.spatial_box(field.on == FieldSpec::On::kCells, &start, &count, &global);
      Hid dataset = h5::open_dataset(file, "fields/" + field.name, where);
      std::vector<hsize_t> dims = h5::dataset_dims(dataset, where), expected{dims.at(0)};
      expected.insert(expected.end(), global.begin(), global.end());
      if (field.components > 1) expected.push_back(field.components);
      if (dims != expected)
        throw InputError("/fields/" + field.name + " has another shape than this run's grid",
                         {earlier.string()});
      for (std::size_t step = 0; step < keep; ++step) {
        std::vector<hsize_t> file_start{step}, file_count{1};
        file_start.insert(file_start.end(), start.begin(), start.end());
        file_count.insert(file_count.end(), count.begin(), count.end());
        if (field.components > 1) {
          file_start.push_back(0);
          file_count.push_back(field.components);
        }
        HostArray values(Kokkos::ViewAllocateWithoutInitializing(field.name), product(count),
                         field.components);
        const hsize_t total = values.size();
        Hid file_space = own(H5Dget_space(dataset), H5Sclose, where, "cannot get dataspace");
        h5::check_status(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, file_start.data(), nullptr,
                                             file_count.data(), nullptr),
                         where, "cannot select a step");
        Hid memory_space =
            own(H5Screate_simple(1, &total, nullptr), H5Sclose, where, "cannot create dataspace");
        if (total > 0)
          h5::check_status(H5Dread(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space,
                                   H5P_DEFAULT, values.data()),
                           where, "cannot read /fields/" + field.name);
        steps[step].push_back({field.name, values});
      }
    }
  } catch (const std::exception& e) {
    problem = e.what();
  }
  mpi::agree(d.comm, problem.empty(), problem, true);
  for (std::size_t step = 0; step < times.size(); ++step) append(times[step], steps[step]);
  return times.size();
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

}  // namespace surrox::io

#include "io/hdf5_checkpoint.hpp"

#include <unistd.h>

#include <cstring>
#include <set>
#include <sstream>
#include <system_error>

#include "core/error.hpp"
#include "core/version.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_handle.hpp"
#include "io/hdf5_mpi.hpp"

namespace surrox::io {

using h5::Hid;
using h5::own;
using h5::Where;

namespace {

constexpr const char* kFormat = "surrox-checkpoint";
constexpr std::int64_t kFormatVersion = 1;

struct ArrayShape {
  std::string name;
  std::size_t rows = 0, columns = 0;
};

// Every rank's array names and shapes, gathered to all ranks (collective).
std::vector<std::vector<ArrayShape>> gather_shapes(MPI_Comm comm,
                                                   const std::vector<NamedArray>& arrays) {
  std::ostringstream out;
  for (const auto& array : arrays)
    out << array.name << '\n' << array.tuples() << ' ' << array.components() << '\n';
  const std::string local = out.str();
  int size = 1;
  MPI_Comm_size(comm, &size);
  int length = static_cast<int>(local.size());
  std::vector<int> lengths(size), displacements(size, 0);
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  for (int r = 1; r < size; ++r) displacements[r] = displacements[r - 1] + lengths[r - 1];
  std::string all(static_cast<std::size_t>(displacements[size - 1] + lengths[size - 1]), '\0');
  MPI_Allgatherv(local.data(), length, MPI_CHAR, all.data(), lengths.data(), displacements.data(),
                 MPI_CHAR, comm);
  std::vector<std::vector<ArrayShape>> shapes(size);
  for (int r = 0; r < size; ++r) {
    std::istringstream in(all.substr(displacements[r], lengths[r]));
    ArrayShape shape;
    while (std::getline(in, shape.name) && in >> shape.rows >> shape.columns) {
      in.ignore(1);
      shapes[r].push_back(shape);
    }
  }
  return shapes;
}

void pack(const HostArray& values, std::vector<double>* out) {
  out->resize(values.extent(0) * values.extent(1));
  for (std::size_t i = 0; i < values.extent(0); ++i)
    for (std::size_t c = 0; c < values.extent(1); ++c)
      (*out)[i * values.extent(1) + c] = values(i, c);
}

}  // namespace

double Hdf5Checkpoint::scalar(const std::string& name) const {
  const auto it = scalars.find(name);
  if (it == scalars.end()) throw InputError("checkpoint has no scalar '" + name + "'");
  return it->second;
}

const std::string& Hdf5Checkpoint::string(const std::string& name) const {
  const auto it = strings.find(name);
  if (it == strings.end()) throw InputError("checkpoint has no string '" + name + "'");
  return it->second;
}

const NamedArray& Hdf5Checkpoint::array(const std::string& name) const {
  if (const NamedArray* a = find_array(name)) return *a;
  throw InputError("checkpoint has no array '" + name + "'");
}

double Hdf5Checkpoint::scalar_or(const std::string& name, double fallback) const {
  const auto it = scalars.find(name);
  return it == scalars.end() ? fallback : it->second;
}

const NamedArray* Hdf5Checkpoint::find_array(const std::string& name) const {
  for (const auto& a : arrays)
    if (a.name == name) return &a;
  return nullptr;
}

namespace {

// Agreed on by every rank: each rank's array names must be usable as dataset names.
void check_checkpoint_array_names(MPI_Comm comm, const std::vector<NamedArray>& arrays) {
  std::string bad;
  for (const auto& a : arrays)
    if (a.name.empty() || a.name.find_first_of("/\n") != std::string::npos) bad = a.name;
  mpi::agree(comm, bad.empty(), "invalid checkpoint array name '" + bad + "'", true);
}

// Scalars as text ("<name length> <name><bits>\n", the double's bits exactly), rank 0's
// broadcast to every rank.
std::string broadcast_checkpoint_scalars(MPI_Comm comm,
                                         const std::map<std::string, double>& scalars) {
  std::ostringstream encoded;
  for (const auto& [name, value] : scalars) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    encoded << name.size() << ' ' << name << bits << '\n';
  }
  std::string scalar_text = encoded.str();
  mpi::broadcast(comm, &scalar_text);
  return scalar_text;
}

// The broadcast scalars as attributes of /scalars (collective).
void write_checkpoint_scalars(hid_t scalar_group, const std::string& scalar_text,
                              const Where& where) {
  std::istringstream in(scalar_text);
  std::size_t length;
  while (in >> length) {
    in.ignore(1);
    std::string name(length, '\0');
    in.read(name.data(), static_cast<std::streamsize>(length));
    std::uint64_t bits;
    in >> bits;
    double value;
    std::memcpy(&value, &bits, sizeof value);
    h5::write_attribute(scalar_group, name, value, where);
  }
}

// Rank 0's strings, one by one broadcast, as attributes of /strings (collective).
void write_checkpoint_strings(MPI_Comm comm, int rank,
                              const std::map<std::string, std::string>& strings, hid_t string_group,
                              const Where& where) {
  long count = static_cast<long>(strings.size());
  MPI_Bcast(&count, 1, MPI_LONG, 0, comm);
  auto it = strings.begin();
  for (long i = 0; i < count; ++i) {
    std::string name = rank == 0 ? it->first : std::string(),
                value = rank == 0 ? it->second : std::string();
    if (rank == 0) ++it;
    mpi::broadcast(comm, &name);
    mpi::broadcast(comm, &value);
    h5::write_attribute(string_group, name, value, where);
  }
}

// Every rank creates every dataset /rank_<r>/<name> (creation is collective); returns this
// rank's, in the order of its arrays.
std::vector<Hid> create_checkpoint_datasets(hid_t file,
                                            const std::vector<std::vector<ArrayShape>>& shapes,
                                            int size, int rank, hid_t gcpl, hid_t dcpl,
                                            const Where& where) {
  std::vector<Hid> mine;
  for (int r = 0; r < size; ++r) {
    const std::string group_name = "rank_" + std::to_string(r);
    Hid group = own(H5Gcreate2(file, group_name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT), H5Gclose,
                    where, "cannot create /" + group_name);
    for (const auto& shape : shapes[r]) {
      const hsize_t dims[2] = {shape.rows, shape.columns};
      Hid space =
          own(H5Screate_simple(2, dims, nullptr), H5Sclose, where, "cannot create dataspace");
      Hid dataset = own(H5Dcreate2(group, shape.name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT,
                                   dcpl, H5P_DEFAULT),
                        H5Dclose, where, "cannot create /" + group_name + "/" + shape.name);
      if (r == rank) mine.push_back(std::move(dataset));
    }
  }
  return mine;
}

// This rank's arrays into its datasets (independent transfers; empty arrays are skipped).
void write_checkpoint_arrays(const std::vector<NamedArray>& arrays, const std::vector<Hid>& mine,
                             hid_t dxpl, const Where& where) {
  std::vector<double> packed;
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    if (arrays[a].tuples() * arrays[a].components() == 0) continue;
    pack(arrays[a].values, &packed);
    h5::check_status(H5Dwrite(mine[a], H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, packed.data()),
                     where, "cannot write array " + arrays[a].name);
  }
}

// Once every rank wrote without a problem, rank 0 renames the temporary file to path; any
// problem (this rank's or the rename's) is thrown on every rank, the temporary file removed.
void commit_checkpoint(MPI_Comm comm, int rank, const std::filesystem::path& temporary,
                       const std::filesystem::path& path, std::string problem) {
  const auto remove_temporary = [&] {
    if (rank == 0) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
    }
  };
  mpi::agree(comm, problem.empty(), problem, false, remove_temporary);
  if (rank == 0) {
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
      problem =
          "cannot move " + temporary.string() + " to " + path.string() + ": " + error.message();
      remove_temporary();
    }
  }
  mpi::broadcast(comm, &problem);
  if (!problem.empty()) throw Error(problem, ErrorContext{path.string()});
}

}  // namespace

void Hdf5Checkpoint::write(const std::filesystem::path& path, MPI_Comm comm) const {
  h5::quiet();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  check_checkpoint_array_names(comm, arrays);

  long pid = static_cast<long>(::getpid());
  MPI_Bcast(&pid, 1, MPI_LONG, 0, comm);
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(pid);
  const Where where{path.string(), false};
  if (rank == 0 && path.has_parent_path()) {
    std::error_code ignored;
    std::filesystem::create_directories(path.parent_path(), ignored);
  }
  const auto shapes = gather_shapes(comm, arrays);

  std::string problem;
  try {
    Hid fapl = own(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, where, "cannot create property list");
    h5::check_status(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), where,
                     "cannot select the MPI-IO driver");
    Hid file = own(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, where,
                   "cannot create " + temporary.string());
    h5::write_attribute(file, "format", std::string(kFormat), where);
    h5::write_attribute(file, "format_version", kFormatVersion, where);
    h5::write_attribute(file, "ranks", static_cast<std::int64_t>(size), where);
    h5::write_attribute(file, "surrox_version", std::string(kVersion), where);
    h5::write_attribute(file, "surrox_git_describe", std::string(kGitDescribe), where);

    // Scalars and strings: rank 0's, as attributes of /scalars and /strings.
    const std::string scalar_text = broadcast_checkpoint_scalars(comm, scalars);
    Hid scalar_group = own(H5Gcreate2(file, "scalars", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                           H5Gclose, where, "cannot create /scalars");
    write_checkpoint_scalars(scalar_group, scalar_text, where);
    Hid string_group = own(H5Gcreate2(file, "strings", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                           H5Gclose, where, "cannot create /strings");
    write_checkpoint_strings(comm, rank, strings, string_group, where);

    // Every rank creates every dataset (creation is collective), then writes its own.
    Hid gcpl = own(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, where, "cannot create property list");
    h5::check_status(
        H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), where,
        "cannot track creation order");
    Hid dcpl = own(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, where, "cannot create property list");
    h5::check_status(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), where, "cannot set fill time");
    std::vector<Hid> mine = create_checkpoint_datasets(file, shapes, size, rank, gcpl, dcpl, where);
    Hid dxpl = own(H5Pcreate(H5P_DATASET_XFER), H5Pclose, where, "cannot create property list");
    h5::check_status(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_INDEPENDENT), where,
                     "cannot select independent transfers");
    write_checkpoint_arrays(arrays, mine, dxpl, where);
    mine.clear();
    string_group.reset();
    scalar_group.reset();
    if (!file.reset()) h5::fail(where, "cannot close " + temporary.string());
  } catch (const std::exception& e) {
    problem = e.what();
    if (problem.empty()) problem = "checkpoint write failed";
  }
  commit_checkpoint(comm, rank, temporary, path, problem);
}

namespace {

herr_t collect_link(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

Hdf5Checkpoint read_piece(const std::filesystem::path& path, int rank, int size) {
  const Where where{path.string(), true};
  Hid file = h5::open_for_reading(path, where);
  if (!h5::has_attribute(file, "format") ||
      h5::read_string_attribute(file, "format", where) != kFormat)
    h5::fail(where, "not a surrox checkpoint");
  const auto version = h5::read_int_attribute(file, "format_version", where);
  if (version.size() != 1 || version[0] < 1 || version[0] > kFormatVersion)
    h5::fail(where, "unsupported checkpoint format_version");
  const auto ranks = h5::read_int_attribute(file, "ranks", where);
  if (ranks.size() != 1 || ranks[0] != size)
    h5::fail(where, "checkpoint written by " +
                        (ranks.empty() ? std::string("?") : std::to_string(ranks[0])) +
                        " ranks cannot be read by " + std::to_string(size) +
                        " ranks; restart on the same rank count");
  Hdf5Checkpoint checkpoint;
  Hid scalars = h5::open_group(file, "scalars", where);
  for (const auto& name : h5::attribute_names(scalars, where)) {
    const auto value = h5::read_double_attribute(scalars, name, where);
    if (value.size() != 1) h5::fail(where, "scalar " + name + " is not a single value");
    checkpoint.scalars[name] = value[0];
  }
  Hid strings = h5::open_group(file, "strings", where);
  for (const auto& name : h5::attribute_names(strings, where))
    checkpoint.strings[name] = h5::read_string_attribute(strings, name, where);
  const std::string group_name = "rank_" + std::to_string(rank);
  Hid group = h5::open_group(file, group_name, where);
  std::vector<std::string> names;
  hsize_t index = 0;
  h5::check_status(H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &index, collect_link, &names),
                   where, "cannot list /" + group_name);
  for (const auto& name : names) {
    Hid dataset = h5::open_dataset(group, name, where);
    const auto dims = h5::dataset_dims(dataset, where);
    if (dims.size() != 2)
      h5::fail(where, "/" + group_name + "/" + name + " is not two-dimensional");
    HostArray values(Kokkos::ViewAllocateWithoutInitializing(name), dims[0], dims[1]);
    if (dims[0] * dims[1] > 0)
      h5::check_status(
          H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), where,
          "cannot read /" + group_name + "/" + name);
    checkpoint.arrays.push_back({name, values});
  }
  return checkpoint;
}

}  // namespace

Hdf5Checkpoint Hdf5Checkpoint::read(const std::filesystem::path& path, MPI_Comm comm) {
  h5::quiet();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Hdf5Checkpoint checkpoint;
  std::string problem;
  try {
    if (size == 1) probe_in_child([&] { read_piece(path, rank, size); }, path.string(), "HDF5");
    checkpoint = read_piece(path, rank, size);
  } catch (const Error& e) {
    problem = e.what();
  }
  mpi::agree(comm, problem.empty(), problem, true);
  return checkpoint;
}

}  // namespace surrox::io

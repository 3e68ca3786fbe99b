#pragma once
// surrox HDF5 datasets: one file holding a mesh and a time series of named point and cell
// fields, written collectively by MPI ranks (chunked, deflate-compressed), with an .xdmf
// sidecar for ParaView. The exact layout is specified in docs/formats.md.
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::io {

// One field of a dataset: `components` values per point or per cell, in `units` (SI, free
// text such as "K" or "m/s"; "" when dimensionless or unknown).
struct FieldSpec {
  enum class On { kPoints, kCells };
  std::string name;
  On on = On::kPoints;
  std::size_t components = 1;
  std::string units;
  std::string description;
};

// Writes a dataset; every member function is collective over `comm` (all ranks call it, with
// the same field list, attribute values and time values).
//
// `local` is this rank's piece of the mesh (geometry only; its point_data/cell_data are
// ignored). kImage/kStructured: the piece's extent lives in the global index space, pieces
// tile the global extent (neighbouring pieces may share their boundary layer of points, whose
// values must then agree) and the global extent is their union. kUnstructured/kPolyData:
// pieces are concatenated in rank order (points and cells offset by the prefix sums of the
// lower ranks, connectivity shifted accordingly; shared points are stored once per piece).
//
// The file is written under "<path>.tmp-<pid of rank 0>" and renamed to `path` by close(),
// which also writes the sidecar "<path without extension>.xdmf". A writer destroyed without
// close() removes its temporary file and leaves nothing under `path`.
class Hdf5DatasetWriter {
 public:
  Hdf5DatasetWriter(std::filesystem::path path, MPI_Comm comm, const MeshData& local,
                    std::vector<FieldSpec> fields, const std::string& case_yaml,
                    const std::string& producer);
  ~Hdf5DatasetWriter();
  Hdf5DatasetWriter(Hdf5DatasetWriter&&) noexcept;
  Hdf5DatasetWriter& operator=(Hdf5DatasetWriter&&) noexcept;

  // One time step: every declared field, each `local` tuples (this rank's points or cells,
  // VTK order) × its components. Extra arrays not declared are ignored.
  void append(double time, const std::vector<NamedArray>& local_fields);
  // A restarted run (collective): appends the steps of `earlier` (a dataset this writer's mesh
  // and fields wrote before, e.g. the previous segment's fields.h5) whose time is before
  // `before`, each rank reading its own piece. InputError naming the file when it is damaged
  // or holds other fields or another grid. Returns the number of steps taken over.
  std::size_t append_earlier(const std::filesystem::path& earlier, double before);
  // Run-level metadata stored as root attributes (Ra, Mach, ...). The reserved names
  // (format, format_version, surrox_version, producer, created) are refused.
  void set_attribute(const std::string& name, double value);
  void set_attribute(const std::string& name, const std::string& value);
  void set_attribute(const std::string& name, const char* value) {
    set_attribute(name, std::string(value));
  }

  std::size_t steps() const;
  const std::filesystem::path& path() const;
  // Flushes, writes the .xdmf sidecar (rank 0) and renames the file to its final name.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads a dataset on one rank (any rank may open it on its own; no MPI calls). Any problem
// with the file — missing, not HDF5, truncated, not a surrox dataset, a newer format_version,
// damaged contents — raises InputError naming the file and the reason.
class Hdf5DatasetReader {
 public:
  explicit Hdf5DatasetReader(const std::filesystem::path& path);
  // One block of a surrox-multiblock file: `group` is "/blocks/<name>" (io/hdf5_multiblock.hpp).
  Hdf5DatasetReader(const std::filesystem::path& path, const std::string& group);
  ~Hdf5DatasetReader();
  Hdf5DatasetReader(Hdf5DatasetReader&&) noexcept;
  Hdf5DatasetReader& operator=(Hdf5DatasetReader&&) noexcept;

  const std::filesystem::path& path() const;
  std::vector<double> times() const;
  std::size_t steps() const;
  std::vector<FieldSpec> fields() const;  // in the order they were declared
  MeshData mesh() const;                  // geometry and topology only, no arrays
  // One field at one step: tuples (points or cells, VTK order) × components.
  HostArray read(const std::string& field, std::size_t step) const;
  std::string case_yaml() const;
  // Every root attribute as text (numbers with 17 significant digits).
  std::map<std::string, std::string> attributes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The whole dataset as a collection: one entry per time step ("step_<n>") with every field
// attached (kSingle for a single step, kTimeSeries otherwise); for converting to VTK. A
// surrox-multiblock file gives read_hdf5_multiblock's collection.
MeshCollection read_hdf5_dataset(const std::filesystem::path& path);

// The opposite conversion, on one process (MPI_COMM_SELF): every entry must share one mesh
// and the same arrays; entry times become /time; steps whose meshes differ, or point and cell
// arrays sharing a name, raise InputError. A multiblock of several blocks (each its own mesh
// kind) becomes a surrox-multiblock file instead (write_hdf5_multiblock).
void write_hdf5_dataset(const MeshCollection& series, const std::filesystem::path& path,
                        const std::string& producer = "surrox convert");

// True for the extensions .h5 and .hdf5 (any case).
bool is_hdf5_file(const std::filesystem::path& path);

// One object of any HDF5 file, as `surrox info` lists it.
struct Hdf5ObjectInfo {
  std::string path;                  // "/fields/T"
  bool is_dataset = false;           // false: a group
  std::vector<std::uint64_t> shape;  // datasets; empty for scalars
  std::string dtype;                 // "float64", "int32", "uint8", "string", "compound", ...
  bool has_range = false;            // numeric datasets with at least one finite value
  double min = 0, max = 0;           // over the finite values read
  bool range_partial = false;        // true when the dataset exceeded the scan cap and only
                                     // its first kDescribeScanLimit values were read
  std::map<std::string, std::string> attributes;  // as text
};
inline constexpr std::uint64_t kDescribeScanLimit = 1u << 26;  // values per dataset

// Every group and dataset of any HDF5 file (InputError if it cannot be opened).
std::vector<Hdf5ObjectInfo> describe_hdf5(const std::filesystem::path& path);

}  // namespace surrox::io

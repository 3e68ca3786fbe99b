#pragma once
// Solver restart files in HDF5: scalars (step, time, dt, ...), strings, and named arrays that
// each rank owns a piece of. Doubles round-trip bit for bit. The layout is in docs/formats.md.
#include <mpi.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::io {

// One checkpoint as held in memory on one rank. `scalars` and `strings` are global (rank 0's
// values are written); `arrays` are this rank's pieces (rows × components, any row count,
// names unique per rank, without '/').
class Hdf5Checkpoint {
 public:
  std::map<std::string, double> scalars;
  std::map<std::string, std::string> strings;
  std::vector<NamedArray> arrays;

  // Lookups; InputError naming the checkpoint entry when missing.
  double scalar(const std::string& name) const;
  const std::string& string(const std::string& name) const;
  const NamedArray& array(const std::string& name) const;
  // Optional entries: the scalar, or `fallback` where there is none; the array, or nullptr.
  double scalar_or(const std::string& name, double fallback) const;
  const NamedArray* find_array(const std::string& name) const;

  // Collective over `comm`. Writes "<path>.tmp-<pid of rank 0>" and renames it to `path` only
  // when complete: a failed write throws Error on every rank, removes the temporary file and
  // leaves a previous checkpoint under `path` untouched.
  void write(const std::filesystem::path& path, MPI_Comm comm) const;
  // Collective over `comm`: each rank reads back its own piece. InputError on every rank when
  // the file is missing or damaged, not a surrox checkpoint, or written by a different number
  // of ranks.
  static Hdf5Checkpoint read(const std::filesystem::path& path, MPI_Comm comm);
};

}  // namespace surrox::io

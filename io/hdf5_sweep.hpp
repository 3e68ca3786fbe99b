#pragma once
// Sweep datasets: the converged state of every case of a parameter sweep in one HDF5 file,
// stacked along a leading case axis: [case, tuples, components] per field, the mesh points
// per case (each airfoil has its own grid; all cases share the grid's shape), the varied
// parameters and the solver's figures (Cl, Cd, iterations, ...). Training datasets read it.
// The layout ("surrox-sweep", version 1) is specified in docs/formats.md.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/hdf5_dataset.hpp"
#include "io/mesh_data.hpp"

namespace surrox::io {

// One finished case: its varied parameters (key path → the value as YAML text), the solver's
// figures and its mesh with every point and cell array.
struct SweepCase {
  std::string name;
  std::map<std::string, std::string> parameters;
  std::map<std::string, double> results;
  MeshData mesh;
};

// Writes a sweep dataset on one process. The first case fixes the mesh kind and shape, the
// arrays and the parameter names; a later case that differs is an InputError naming it. The
// file is written under a temporary name and renamed by close(); a writer destroyed without
// close() leaves nothing under `path`.
class SweepDatasetWriter {
 public:
  SweepDatasetWriter(std::filesystem::path path, std::size_t cases, const std::string& sweep_yaml,
                     const std::string& producer);
  ~SweepDatasetWriter();
  SweepDatasetWriter(SweepDatasetWriter&&) noexcept;
  SweepDatasetWriter& operator=(SweepDatasetWriter&&) noexcept;

  // Case `index` (0 ≤ index < cases); each index exactly once, in any order.
  void write(std::size_t index, const SweepCase& sweep_case);
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads a sweep dataset (no MPI). Anything that is not a complete surrox sweep dataset is an
// InputError naming the file and the reason, also when the file makes HDF5 itself crash
// (io/contained_read.hpp: the whole file is read once in a child process first).
class SweepDatasetReader {
 public:
  explicit SweepDatasetReader(const std::filesystem::path& path);
  ~SweepDatasetReader();
  SweepDatasetReader(SweepDatasetReader&&) noexcept;
  SweepDatasetReader& operator=(SweepDatasetReader&&) noexcept;

  std::size_t cases() const;
  std::vector<std::string> case_names() const;
  // Mesh kind and point dimensions (i, j, k) shared by every case.
  MeshKind kind() const;
  std::array<long, 3> dimensions() const;
  std::vector<FieldSpec> fields() const;
  // Point coordinates of one case (npoints × 3); empty for image data.
  HostArray points(std::size_t index) const;
  HostArray read(const std::string& field, std::size_t index) const;
  std::vector<std::string> parameter_names() const;
  // A parameter as numbers (InputError when it holds text, e.g. airfoil names) or as text.
  std::vector<double> parameter(const std::string& name) const;
  std::vector<std::string> parameter_text(const std::string& name) const;
  std::vector<std::string> result_names() const;
  std::vector<double> result(const std::string& name) const;
  std::string sweep_yaml() const;

 private:
  struct Uncontained {};
  SweepDatasetReader(const std::filesystem::path& path, Uncontained);
  void open(const std::filesystem::path& path);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surrox::io

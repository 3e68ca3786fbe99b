#pragma once
// The field output of a run: a VTK series (one file per output, a .pvd collection over
// them; partitioned .pvti/.pvts/.pvtu on several ranks) and one HDF5 dataset with an .xdmf
// sidecar. Both are valid after every write: the .pvd is rewritten atomically, and the HDF5
// file appears under its final name only when the run closes it.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/runtime.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/mesh_data.hpp"
#include "io/vtk_series.hpp"

namespace surrox::apps {

struct OutputSettings {
  bool vtk = true;
  bool hdf5 = true;
  std::string producer;   // "surrox run heat"
  std::string case_yaml;  // stored in the HDF5 file
};

class OutputSeries {
 public:
  OutputSeries(const std::filesystem::path& output_dir, const Runtime& runtime,
               OutputSettings settings);
  void write(double time, const io::MeshData& local_mesh);
  // A restarted run, before its first write (collective): the .pvd keeps the earlier
  // segment's outputs before `time` and numbering goes on after them; the HDF5 dataset takes
  // over the steps before `time` of the fields.h5 an earlier segment closed (a killed segment
  // leaves none: its dataset then starts at the restart).
  void continue_before(double time);
  // Finishes the HDF5 dataset (renames it into place, writes the .xdmf). Returns the paths written.
  nlohmann::json close();
  std::size_t writes() const { return writes_; }

 private:
  std::filesystem::path dir_;
  const Runtime& runtime_;
  OutputSettings settings_;
  std::optional<io::PvdSeries> pvd_;
  std::optional<io::Hdf5DatasetWriter> hdf5_;
  std::size_t writes_ = 0;
  std::optional<std::filesystem::path> hdf5_earlier_;  // a restart's earlier dataset
  double continue_before_ = 0;
};

}  // namespace surrox::apps

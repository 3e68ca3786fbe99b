#pragma once
// ParaView's .pvd collection: an XML list of (time step, part, file) with file paths relative
// to the .pvd's folder. Reading the list here; reading the datasets is read_vtk's job.
#include <cstddef>
#include <filesystem>
#include <vector>

namespace surrox::io {

struct PvdDataSet {
  double time = 0.0;
  int part = 0;
  std::filesystem::path file;  // as written in the .pvd (relative to its folder, or absolute)
};

// The DataSet lines of a .pvd in file order. InputError (naming the file) when it is missing,
// not well-formed XML (e.g. truncated), not a VTKFile of type Collection, or a line lacks
// `file` or has a non-numeric `timestep`.
std::vector<PvdDataSet> read_pvd_index(const std::filesystem::path& pvd_path);

// A .pvd written as a simulation goes: after every add() the whole file is rewritten
// atomically (temporary name + rename), so a crash leaves a valid .pvd listing every step
// added so far. Starts empty, whatever the file held before; nothing is written until the
// first add(). Dataset paths are stored relative to the .pvd's folder.
class PvdSeries {
 public:
  explicit PvdSeries(std::filesystem::path pvd_path);

  // `dataset_file`: where the dataset lies (absolute, or relative to the working directory);
  // it should already be written, since ParaView opens whatever the .pvd lists.
  void add(double time, const std::filesystem::path& dataset_file, int part = 0);
  // A restarted run: starts from the entries of the .pvd already at this path that are earlier
  // than `time` (none when there is no such file). InputError when the file is damaged.
  void keep_entries_before(double time);

  const std::filesystem::path& path() const { return path_; }
  std::size_t size() const { return entries_.size(); }

 private:
  void write() const;

  std::filesystem::path path_;
  std::vector<PvdDataSet> entries_;  // file relative to the .pvd's folder
};

}  // namespace surrox::io

#pragma once
// Two output folders compared file by file, as restart tests compare a straight run with a
// stopped-and-restarted one: every regular file of the first must be in the second with the
// same bytes, except summary.json (timings) and checkpoint.h5; HDF5 datasets are compared by
// their times and field values (their bytes hold a creation time).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/hdf5_dataset.hpp"

namespace surrox::testing {

inline std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Two HDF5 datasets with the same times, fields and values bit for bit.
inline bool same_dataset(const std::filesystem::path& a, const std::filesystem::path& b) {
  if (!std::filesystem::exists(b)) return false;
  const io::Hdf5DatasetReader x(a), y(b);
  if (x.times() != y.times() || x.fields().size() != y.fields().size()) return false;
  for (const auto& field : x.fields())
    for (std::size_t step = 0; step < x.steps(); ++step) {
      const io::HostArray u = x.read(field.name, step), v = y.read(field.name, step);
      if (u.size() != v.size() || !std::equal(u.data(), u.data() + u.size(), v.data()))
        return false;
    }
  return true;
}

// Files of `straight` (relative paths) that `restarted` lacks or holds otherwise; how many
// were compared goes to `compared`.
inline std::vector<std::string> differing_outputs(const std::filesystem::path& straight,
                                                  const std::filesystem::path& restarted,
                                                  int* compared) {
  std::vector<std::string> differ;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(straight)) {
    if (!entry.is_regular_file()) continue;
    const auto name = entry.path().filename().string();
    const auto ext = entry.path().extension().string();
    if (name == "summary.json" || name == "checkpoint.h5") continue;
    const auto relative = entry.path().lexically_relative(straight);
    const bool same = ext == ".h5" ? same_dataset(entry.path(), restarted / relative)
                                   : file_bytes(entry.path()) == file_bytes(restarted / relative);
    ++*compared;
    if (!same) differ.push_back(relative);
  }
  return differ;
}

}  // namespace surrox::testing

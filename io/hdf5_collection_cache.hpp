#pragma once
// The cache of a training dataset read from a collection of VTK/ParaView files (format
// `surrox-collection-cache`, docs/formats.md): every case's assembled input, target and
// weight rows, so that thousands of files are read once. A cache is valid only for the exact
// fingerprint it was written with (the data section, the manifest's text, and each file's
// path, size and modification time); the reader returns nothing for another fingerprint.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::io {

struct CachedCase {
  std::string name;
  HostArray inputs;        // rows × input channels
  HostArray targets;       // rows × output channels
  HostArray weights;       // rows × 1, or empty (extent 0) when the data has no weight
  std::vector<long> grid;  // the rows' structured grid (ni, nj[, nk]), or empty
};

struct CollectionCache {
  std::string fingerprint;
  std::vector<std::string> input_names, output_names;
  std::vector<CachedCase> cases;
};

// Atomic write (temporary name, rename). Error when it cannot be written.
void write_collection_cache(const std::filesystem::path& path, const CollectionCache& cache);

// The cache at `path` when it exists and was written for `fingerprint`; nullopt when it is
// missing, stale (another fingerprint) or not a readable cache (then `why` says so).
std::optional<CollectionCache> read_collection_cache(const std::filesystem::path& path,
                                                     const std::string& fingerprint,
                                                     std::string* why = nullptr);

}  // namespace surrox::io

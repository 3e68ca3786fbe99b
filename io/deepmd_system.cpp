#include "io/deepmd_system.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"

namespace surrox::io {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> deepmd_read_words(const fs::path& path) {
  std::ifstream in(path);
  if (!in)
    throw InputError(fmt::format("{}: cannot open (a DeePMD system needs it)", path.string()));
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The values of set/name.npy as rows of `columns`, checking the shape.
void deepmd_read_rows(const fs::path& file, long columns, long& frames, std::vector<double>& out) {
  const NpyArray a = read_npy(file);
  long rows = 0;
  if (a.shape.size() == 1 && columns == 1)
    rows = a.shape[0];
  else if (a.shape.size() == 2 && a.shape[1] == columns)
    rows = a.shape[0];
  else
    throw InputError(fmt::format("{}: shape ({}) should be (frames, {})", file.string(),
                                 fmt::join(a.shape, ", "), columns));
  if (frames >= 0 && rows != frames)
    throw InputError(fmt::format("{}: {} frames, but coord.npy of the same set holds {}",
                                 file.string(), rows, frames));
  frames = rows;
  out.insert(out.end(), a.values.begin(), a.values.end());
}

}  // namespace

void DeepmdFrames::append(const DeepmdFrames& o) {
  if (o.types != types || o.type_map != type_map)
    throw Error("cannot append DeePMD frames of different atoms or type maps");
  frames += o.frames;
  coord.insert(coord.end(), o.coord.begin(), o.coord.end());
  box.insert(box.end(), o.box.begin(), o.box.end());
  energy.insert(energy.end(), o.energy.begin(), o.energy.end());
  force.insert(force.end(), o.force.begin(), o.force.end());
  virial.insert(virial.end(), o.virial.begin(), o.virial.end());
}

void write_deepmd_system(const fs::path& dir, const DeepmdFrames& d, long set_size) {
  fs::create_directories(dir);
  std::string types, map;
  for (int t : d.types) types += fmt::format("{}\n", t);
  for (const auto& name : d.type_map) map += name + "\n";
  write_text_atomically(dir / "type.raw", types);
  write_text_atomically(dir / "type_map.raw", map);
  const long n3 = 3 * d.atoms();
  for (long first = 0, set = 0; first < d.frames; first += set_size, ++set) {
    const long count = std::min(set_size, d.frames - first);
    const fs::path sub = dir / fmt::format("set.{:03d}", set);
    auto slice = [&](const std::vector<double>& v, long width) {
      return std::vector<double>(v.begin() + first * width, v.begin() + (first + count) * width);
    };
    write_npy(sub / "coord.npy", slice(d.coord, n3), {count, n3});
    write_npy(sub / "box.npy", slice(d.box, 9), {count, 9});
    if (!d.energy.empty()) write_npy(sub / "energy.npy", slice(d.energy, 1), {count});
    if (!d.force.empty()) write_npy(sub / "force.npy", slice(d.force, n3), {count, n3});
    if (!d.virial.empty()) write_npy(sub / "virial.npy", slice(d.virial, 9), {count, 9});
  }
}

DeepmdFrames read_deepmd_system(const fs::path& dir) {
  DeepmdFrames d;
  d.type_map = deepmd_read_words(dir / "type_map.raw");
  if (d.type_map.empty())
    throw InputError(fmt::format("{}: no element names", (dir / "type_map.raw").string()));
  for (const auto& w : deepmd_read_words(dir / "type.raw")) {
    int t = -1;
    std::istringstream in(w);
    if (!(in >> t) || !in.eof() || t < 0)
      throw InputError(fmt::format("{}: '{}' is not a type index", (dir / "type.raw").string(), w));
    if (t >= static_cast<int>(d.type_map.size()))
      throw InputError(fmt::format("{}: type {} but type_map.raw names only {} element(s) ({})",
                                   (dir / "type.raw").string(), t, d.type_map.size(),
                                   fmt::join(d.type_map, " ")));
    d.types.push_back(t);
  }
  if (d.types.empty()) throw InputError(fmt::format("{}: no atoms", (dir / "type.raw").string()));
  std::vector<fs::path> sets;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_directory() && entry.path().filename().string().rfind("set.", 0) == 0)
      sets.push_back(entry.path());
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) throw InputError(fmt::format("{}: no set.* folder", dir.string()));
  const long n3 = 3 * d.atoms();
  bool first = true;
  for (const auto& set : sets) {
    long frames = -1;
    deepmd_read_rows(set / "coord.npy", n3, frames, d.coord);
    deepmd_read_rows(set / "box.npy", 9, frames, d.box);
    // Labels: every set has them or none does.
    auto optional = [&](const char* name, long columns, std::vector<double>& out) {
      const bool has = fs::exists(set / name);
      if (!first && has != !out.empty())
        throw InputError(
            fmt::format("{}: {} in some set.* folders but not in others", dir.string(), name));
      if (has) deepmd_read_rows(set / name, columns, frames, out);
    };
    optional("energy.npy", 1, d.energy);
    optional("force.npy", n3, d.force);
    optional("virial.npy", 9, d.virial);
    d.frames += frames;
    first = false;
  }
  return d;
}

std::vector<fs::path> find_deepmd_systems(const fs::path& path) {
  if (!fs::is_directory(path))
    throw InputError(
        fmt::format("{}: not a folder (a DeePMD system or a folder of them)", path.string()));
  if (fs::exists(path / "type.raw")) return {path};
  std::vector<fs::path> found;
  for (const auto& entry : fs::recursive_directory_iterator(path))
    if (entry.is_directory() && fs::exists(entry.path() / "type.raw"))
      found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  if (found.empty())
    throw InputError(
        fmt::format("{}: no DeePMD system (a folder with type.raw) inside", path.string()));
  return found;
}

}  // namespace surrox::io

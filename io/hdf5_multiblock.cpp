#include "io/hdf5_multiblock.hpp"

#include <unistd.h>

#include <set>
#include <system_error>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_handle.hpp"
#include "io/xdmf_writer.hpp"

namespace surrox::io {
namespace {

constexpr const char* kMultiblockFormat = "surrox-multiblock";
constexpr std::int64_t kMultiblockVersion = 1;

std::vector<std::string> multiblock_name_parts(const std::string& name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto slash = name.find('/', start);
    parts.push_back(name.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return parts;
}

void check_multiblock_names(const MeshCollection& blocks, const std::filesystem::path& path) {
  std::set<std::string> names, parents;
  for (const auto& entry : blocks.entries) {
    std::string prefix;
    for (const auto& part : multiblock_name_parts(entry.name)) {
      if (part.empty() || part == "." || part == "..")
        throw InputError("block name '" + entry.name +
                             "' is not a valid group path (empty, '.' or '..' component)",
                         {path.string()});
      if (!prefix.empty()) parents.insert(prefix);
      prefix += (prefix.empty() ? "" : "/") + part;
    }
    if (!names.insert(entry.name).second)
      throw InputError("two blocks are named '" + entry.name + "'", {path.string()});
  }
  for (const auto& name : names)
    if (parents.count(name))
      throw InputError("block '" + name + "' is also the parent of other blocks", {path.string()});
}

// Opens (creating as needed, creation order tracked) the parent group of a block.
h5::Hid multiblock_parent(hid_t blocks, const std::vector<std::string>& parts,
                          const h5::Where& where) {
  h5::Hid group =
      h5::own(H5Gopen2(blocks, ".", H5P_DEFAULT), H5Gclose, where, "cannot open /blocks");
  for (std::size_t i = 0; i + 1 < parts.size(); ++i)
    group = h5::has_link(group, parts[i]) ? h5::open_group(group, parts[i], where)
                                          : h5::create_ordered_group(group, parts[i], where);
  return group;
}

void collect_multiblock_names(hid_t group, const std::string& prefix, const h5::Where& where,
                              std::vector<std::string>* names) {
  for (const auto& link : h5::link_names(group, where)) {
    h5::Hid child = h5::open_group(group, link, where);
    const std::string name = prefix + link;
    if (h5::has_attribute(child, "format"))
      names->push_back(name);
    else
      collect_multiblock_names(child, name + "/", where, names);
  }
}

// What the sidecar needs of one block, read back from the assembled file.
XdmfDescription multiblock_xdmf_block(const std::filesystem::path& path, hid_t file,
                                      const std::string& name, const h5::Where& where) {
  const std::string group = "/blocks/" + name;
  Hdf5DatasetReader reader(path, group);
  const MeshData mesh = reader.mesh();
  XdmfDescription d;
  d.h5_reference = path.filename().string();
  d.h5_group = group;
  d.grid_name = name;
  d.kind = mesh.kind;
  if (mesh.kind == MeshKind::kImage || mesh.kind == MeshKind::kStructured)
    d.point_dims = mesh.dimensions();
  d.origin = mesh.origin;
  d.spacing = mesh.spacing;
  d.number_of_points = mesh.number_of_points();
  d.number_of_cells = mesh.number_of_cells();
  const std::string topology = group + "/mesh/xdmf_topology";
  if (H5Lexists(file, topology.c_str(), H5P_DEFAULT) > 0) {
    h5::Hid dataset = h5::open_dataset(file, topology, where);
    d.mixed_topology_length = h5::product(h5::dataset_dims(dataset, where));
  }
  d.times = reader.times();
  for (const auto& field : reader.fields())
    d.fields.push_back({field.name, field.on == FieldSpec::On::kCells, field.components});
  return d;
}

}  // namespace

std::string hdf5_format(const std::filesystem::path& path) {
  h5::quiet();
  const h5::Where where{path.string(), true};
  h5::Hid file = h5::open_for_reading(path, where);
  if (!h5::has_attribute(file, "format")) return "";
  return h5::read_string_attribute(file, "format", where);
}

void write_hdf5_multiblock(const MeshCollection& blocks, const std::filesystem::path& path,
                           const std::string& producer) {
  h5::quiet();
  if (blocks.entries.empty()) throw InputError("nothing to write: no blocks", {path.string()});
  check_multiblock_names(blocks, path);
  const std::string pid = std::to_string(static_cast<long>(::getpid()));
  // Each block is first written as a dataset file of its own (all of the dataset writer's
  // checks and layout), then copied whole into its group.
  auto folder = path.parent_path();
  if (folder.empty()) folder = ".";
  std::filesystem::create_directories(folder);
  const auto scratch = folder / ("." + path.filename().string() + ".blocks-" + pid);
  const auto temporary = std::filesystem::path(path.string() + ".tmp-" + pid);
  struct Cleanup {
    std::filesystem::path scratch, temporary;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(scratch, ignored);
      std::filesystem::remove(temporary, ignored);
    }
  } cleanup{scratch, temporary};
  std::filesystem::create_directories(scratch);

  const h5::Where where{path.string(), false};
  {
    h5::Hid file = h5::own(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                           H5Fclose, where, "cannot create " + temporary.string());
    h5::write_attribute(file, "format", std::string(kMultiblockFormat), where);
    h5::write_attribute(file, "format_version", kMultiblockVersion, where);
    h5::write_attribute(file, "surrox_version", std::string(kVersion), where);
    h5::write_attribute(file, "surrox_git_describe", std::string(kGitDescribe), where);
    h5::write_attribute(file, "producer", producer, where);
    h5::write_attribute(file, "created", utc_timestamp(), where);
    h5::Hid group = h5::create_ordered_group(file, "blocks", where);
    for (std::size_t b = 0; b < blocks.entries.size(); ++b) {
      const auto& entry = blocks.entries[b];
      const auto block_file = scratch / ("block_" + std::to_string(b) + ".h5");
      MeshCollection one;
      one.entries.push_back(entry);
      try {
        write_hdf5_dataset(one, block_file, producer);
      } catch (const Error& e) {
        throw InputError("block '" + entry.name + "': " + e.what(), {path.string()});
      }
      h5::Hid source = h5::open_for_reading(block_file, where);
      const auto parts = multiblock_name_parts(entry.name);
      h5::Hid parent = multiblock_parent(group, parts, where);
      h5::check_status(H5Ocopy(source, "/", parent, parts.back().c_str(), H5P_DEFAULT, H5P_DEFAULT),
                       where, "cannot copy block '" + entry.name + "'");
    }
    if (!group.reset() || !file.reset())
      h5::fail(where, "cannot close " + temporary.string() + " (" + h5::error_stack() + ")");
  }
  std::filesystem::rename(temporary, path);

  h5::Hid file = h5::open_for_reading(path, where);
  std::vector<XdmfDescription> descriptions;
  for (const auto& entry : blocks.entries)
    descriptions.push_back(multiblock_xdmf_block(path, file, entry.name, where));
  write_text_atomically(xdmf_path_for(path), xdmf_collection_document(descriptions));
}

namespace {

std::vector<std::string> multiblock_blocks_uncontained(const std::filesystem::path& path) {
  h5::quiet();
  const h5::Where where{path.string(), true};
  h5::Hid file = h5::open_for_reading(path, where);
  const std::string format =
      h5::has_attribute(file, "format") ? h5::read_string_attribute(file, "format", where) : "";
  if (format != kMultiblockFormat)
    h5::fail(where, "not a surrox multiblock file (format is '" + format + "')");
  const auto version = h5::read_int_attribute(file, "format_version", where);
  if (version.size() != 1 || version[0] < 1 || version[0] > kMultiblockVersion)
    h5::fail(where, "unsupported format_version (this surrox reads " +
                        std::to_string(kMultiblockVersion) + ")");
  h5::Hid blocks = h5::open_group(file, "blocks", where);
  std::vector<std::string> names;
  collect_multiblock_names(blocks, "", where, &names);
  if (names.empty()) h5::fail(where, "multiblock file holds no blocks");
  return names;
}

MeshCollection read_multiblock_uncontained(const std::filesystem::path& path) {
  MeshCollection out;
  out.kind = MeshCollection::Kind::kMultiBlock;
  for (const auto& name : multiblock_blocks_uncontained(path)) {
    Hdf5DatasetReader reader(path, "/blocks/" + name);
    const auto times = reader.times();
    const MeshData mesh = reader.mesh();
    const auto fields = reader.fields();
    for (std::size_t step = 0; step < times.size(); ++step) {
      MeshEntry entry;
      entry.time = times[step];
      entry.name = times.size() == 1 ? name : name + "/step_" + std::to_string(step);
      entry.mesh = mesh;
      for (const auto& field : fields)
        (field.on == FieldSpec::On::kCells ? entry.mesh.cell_data : entry.mesh.point_data)
            .push_back({field.name, reader.read(field.name, step)});
      out.entries.push_back(std::move(entry));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> hdf5_multiblock_blocks(const std::filesystem::path& path) {
  return read_contained(path.string(), "HDF5", [&] { return multiblock_blocks_uncontained(path); });
}

MeshCollection read_hdf5_multiblock(const std::filesystem::path& path) {
  return read_contained(path.string(), "HDF5", [&] { return read_multiblock_uncontained(path); });
}

}  // namespace surrox::io

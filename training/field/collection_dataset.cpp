#include "training/field/collection_dataset.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "core/error.hpp"
#include "io/hdf5_collection_cache.hpp"
#include "io/vtk_openfoam_case.hpp"
#include "training/field/collection_channels.hpp"
#include "training/field/field_output_scaling.hpp"

namespace surrox::training {
namespace {

namespace fs = std::filesystem;

nlohmann::json collection_file_stamp(const fs::path& file) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  const auto mtime = fs::last_write_time(file, error).time_since_epoch();
  return {file.string(), static_cast<std::uint64_t>(size),
          std::chrono::duration_cast<std::chrono::nanoseconds>(mtime).count()};
}

// A VTK file's name, path, size and modification time (as before OpenFOAM cases, so existing
// caches stay valid); for an OpenFOAM case folder its time and those of every file in it (a new
// time directory or a rewritten field changes them), caches left out.
nlohmann::json collection_case_stamp(const CollectionCase& c) {
  std::error_code error;
  if (!fs::is_directory(c.file, error)) {
    nlohmann::json stamp = collection_file_stamp(c.file);
    stamp.insert(stamp.begin(), c.name);
    return stamp;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(c.file, error)) {
    const std::string name = entry.path().filename().string();
    const bool cache = name.size() > 9 && name.compare(name.size() - 9, 9, ".cache.h5") == 0;
    if (entry.is_regular_file() && !cache) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  nlohmann::json stamps = nlohmann::json::array();
  for (const auto& file : files) stamps.push_back(collection_file_stamp(file));
  return {c.name, c.file.string(), c.time, stamps};
}

// What the cache depends on: the channel description, the OpenFOAM time, the manifest's text
// and every file's path, size and modification time (a rewritten file changes its mtime).
std::string collection_fingerprint(const CollectionChannelSpec& spec,
                                   const std::vector<CollectionCase>& cases,
                                   const std::string& manifest_text, const std::string& time) {
  nlohmann::json j;
  j["cache_version"] = 1;
  j["channels"] = spec.to_json();
  j["manifest"] = manifest_text;
  j["files"] = nlohmann::json::array();
  for (const auto& c : cases) j["files"].push_back(collection_case_stamp(c));
  // Only collections with an OpenFOAM case depend on `time`: other caches stay valid.
  if (std::any_of(cases.begin(), cases.end(),
                  [](const CollectionCase& c) { return io::is_openfoam_case(c.file); }))
    j["openfoam_time"] = time;
  return j.dump();
}

fs::path collection_cache_path(const CaseNode& c) {
  const fs::path base =
      c.origin().directory.empty() ? fs::path(".") : fs::path(c.origin().directory);
  std::string cache = c.string("cache");
  if (!cache.empty()) return fs::path(cache).is_relative() ? base / cache : fs::path(cache);
  fs::path files(c.string("files"));
  if (files.is_relative()) files = base / files;
  std::error_code error;
  if (fs::is_directory(files, error)) {  // inside the folder, named as its cases are found
    for (const char* manifest : {"manifest.csv", "manifest.yaml", "manifest.yml"})
      if (fs::is_regular_file(files / manifest, error)) return files / "manifest.cache.h5";
    return files / "collection.cache.h5";
  }
  const std::string ext = files.extension().string();
  if (ext == ".csv" || ext == ".yaml" || ext == ".yml")
    return files.parent_path() / (files.stem().string() + ".cache.h5");
  return files.parent_path() / "collection.cache.h5";
}

torch::Tensor collection_tensor(const io::HostArray& values) {
  return torch::from_blob(
             const_cast<double*>(values.data()),
             {static_cast<long>(values.extent(0)), static_cast<long>(values.extent(1))},
             torch::kFloat64)
      .clone();
}

Normalization collection_statistics(const torch::Tensor& rows,
                                    const std::vector<std::string>& names) {
  Normalization n;
  n.names = names;
  const auto mean = rows.mean(0), std = rows.std(0, /*unbiased=*/false);
  for (long c = 0; c < rows.size(1); ++c) {
    n.mean.push_back(mean[c].item<double>());
    const double s = std[c].item<double>();
    n.scale.push_back(s > 1e-12 * std::max(1.0, std::abs(n.mean.back())) ? s : 1.0);
  }
  return n;
}

// A grid network (layout grid) sees a case as [C, nj, ni]: every case must be the same 2D
// structured grid (.vts or .vti). Returns (ni, nj); InputError naming the first case that is not.
std::vector<long> shared_grid_of(const CaseNode& c, const std::vector<std::string>& names,
                                 const std::vector<std::vector<long>>& grids) {
  for (std::size_t k = 0; k < grids.size(); ++k) {
    if (grids[k].size() != 2)
      c.fail("files",
             fmt::format("a grid network needs every case on a 2D structured grid (.vts or .vti); "
                         "case '{}' is {} (a per-point network such as mlp takes any mesh)",
                         names[k],
                         grids[k].empty() ? std::string("unstructured")
                                          : fmt::format("{}", fmt::join(grids[k], " × "))));
    if (grids[k] != grids.front())
      c.fail("files", fmt::format("a grid network needs one grid shared by every case; case '{}' "
                                  "is {}, case '{}' is {}",
                                  names[k], fmt::join(grids[k], " × "), names.front(),
                                  fmt::join(grids.front(), " × ")));
  }
  return grids.empty() ? std::vector<long>{} : grids.front();
}

// Rows [cases · ni · nj, C] of cases on one grid → [cases, C, nj, ni] (rows are i fastest).
torch::Tensor as_grid_batch(const torch::Tensor& rows, const std::vector<long>& grid) {
  return rows.reshape({-1, grid[1] * grid[0], rows.size(1)})
      .permute({0, 2, 1})
      .reshape({-1, rows.size(1), grid[1], grid[0]});
}

CollectionChannelSpec collection_spec_of(const CaseNode& c) {
  CollectionChannelSpec spec;
  spec.on_cells = c.string("rows") == "cells";
  spec.block = c.string("block");
  spec.inputs = c.strings("inputs");
  spec.parameters = c.strings("parameters");
  spec.outputs = c.strings("outputs");
  spec.weight = c.string("weight");
  if (spec.outputs.empty()) c.fail("outputs", "needs at least one output channel");
  if (spec.inputs.empty() && spec.parameters.empty())
    c.fail("inputs", "needs at least one input channel or parameter");
  return spec;
}

std::vector<CollectionCase> collection_cases_of(const CaseNode& c, std::string* manifest_text) {
  try {
    return collection_cases(c.string("files"), c.origin().directory, manifest_text);
  } catch (const InputError& e) {
    c.fail("files", e.what());
  }
}

// Fails on two cases of one name: names key the cache and the splits.
void check_collection_names_unique(const CaseNode& c, const std::vector<CollectionCase>& cases) {
  std::set<std::string> unique;
  for (const auto& k : cases)
    if (!unique.insert(k.name).second)
      c.fail("files", "two cases are named '" + k.name + "' (" + k.where +
                          "); give the manifest a `name` column");
}

// Rows of every case: from the cache when it matches, else read and cached.
io::CollectionCache collection_cached_rows(const CaseNode& c, const CollectionChannelSpec& spec,
                                           const std::vector<CollectionCase>& cases,
                                           const std::string& manifest_text) {
  const fs::path cache_path = collection_cache_path(c);
  const std::string fingerprint =
      collection_fingerprint(spec, cases, manifest_text, c.string("time"));
  std::string why;
  std::optional<io::CollectionCache> cache =
      io::read_collection_cache(cache_path, fingerprint, &why);
  if (cache) {
    spdlog::info("data: {} cases from the cache {}", cache->cases.size(), cache_path.string());
  } else {
    spdlog::info("data: reading {} files ({}; cache {})", cases.size(), why, cache_path.string());
    io::CollectionCache built;
    built.fingerprint = fingerprint;
    for (const auto& k : cases) {
      CollectionRows rows = collection_rows(read_collection_case(k, c.string("time")), k, spec);
      if (built.cases.empty()) {
        built.input_names = rows.input_names;
        built.output_names = rows.output_names;
      } else if (rows.input_names != built.input_names || rows.output_names != built.output_names) {
        throw InputError(
            fmt::format("its channels ({} → {}) differ from the first case's ({} → {})",
                        fmt::join(rows.input_names, ", "), fmt::join(rows.output_names, ", "),
                        fmt::join(built.input_names, ", "), fmt::join(built.output_names, ", ")),
            {k.file.string()});
      }
      built.cases.push_back({k.name, rows.inputs, rows.targets, rows.weights, rows.grid});
    }
    try {
      io::write_collection_cache(cache_path, built);
    } catch (const Error& e) {
      spdlog::warn("data: no cache written ({}); the files will be read again next time", e.what());
    }
    cache = std::move(built);
  }
  return std::move(*cache);
}

// Groups of cases that stay together, shuffled, then cut by the fractions (as for sweeps).
std::vector<std::vector<std::size_t>> collection_case_groups(
    const CaseNode& c, const std::vector<CollectionCase>& cases) {
  std::map<std::string, std::vector<std::size_t>> groups;
  const auto group_by = c.strings("group_by");
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::string key = group_by.empty() ? cases[k].name : "";
    for (const auto& column : group_by) {
      auto it = cases[k].parameters.find(column);
      if (it == cases[k].parameters.end())
        c.fail("group_by", "case '" + cases[k].name + "' (" + cases[k].where +
                               ") has no manifest column '" + column + "'");
      key += it->second + "\x1f";
    }
    groups[key].push_back(k);
  }
  return shuffled_case_groups(groups, static_cast<std::uint64_t>(c.integer("seed")));
}

// The grid every cached case shares (a grid network's cases); fails on one that differs.
std::vector<long> collection_cached_grid(const CaseNode& c, const io::CollectionCache& cache) {
  std::vector<std::string> names;
  std::vector<std::vector<long>> grids;
  for (const auto& cached : cache.cases) {
    names.push_back(cached.name);
    grids.push_back(cached.grid);
  }
  return shared_grid_of(c, names, grids);
}

// The rows of the cases of groups [first, last), not normalised; their names are appended.
TensorSet assemble_collection_cases(const io::CollectionCache& cache,
                                    const std::vector<std::vector<std::size_t>>& order,
                                    bool weighted, std::size_t first, std::size_t last,
                                    std::vector<std::string>& names) {
  std::vector<torch::Tensor> xs, ys, ws;
  for (std::size_t gi = first; gi < last; ++gi)
    for (std::size_t k : order[gi]) {
      const auto& cached = cache.cases[k];
      names.push_back(cached.name);
      xs.push_back(collection_tensor(cached.inputs));
      ys.push_back(collection_tensor(cached.targets));
      if (weighted) ws.push_back(collection_tensor(cached.weights).reshape({-1}));
    }
  TensorSet set;
  const long cin = static_cast<long>(cache.input_names.size()),
             cout = static_cast<long>(cache.output_names.size());
  set.inputs = xs.empty() ? torch::empty({0, cin}, torch::kFloat64) : torch::cat(xs);
  set.targets = ys.empty() ? torch::empty({0, cout}, torch::kFloat64) : torch::cat(ys);
  if (weighted) set.weights = ws.empty() ? torch::empty({0}, torch::kFloat64) : torch::cat(ws);
  return set;
}

// Normalises a set, lays it out as grid batches when the cases share a grid, and converts it
// to the section's dtype.
void finish_collection_set(TensorSet& set, const FieldDataset& data, bool weighted,
                           double mean_weight, const std::vector<long>& grid, torch::Dtype dtype) {
  set.inputs = data.inputs.apply(set.inputs);
  set.targets = data.outputs.apply(set.targets);
  if (weighted) set.weights = set.weights / mean_weight;
  if (!grid.empty()) {
    set.inputs = as_grid_batch(set.inputs, grid);
    set.targets = as_grid_batch(set.targets, grid);
    if (weighted) set.weights = set.weights.reshape({-1, grid[1], grid[0]});
  }
  set.inputs = set.inputs.to(dtype).contiguous();
  set.targets = set.targets.to(dtype).contiguous();
  if (weighted) set.weights = set.weights.to(dtype).contiguous();
}

}  // namespace

Schema CollectionDataset::schema() {
  Schema s(
      "Training data from a collection of VTK/ParaView files (.vtu .vtp .vts .vti .pvtu .pvd .vtm, "
      "legacy .vtk) or OpenFOAM case folders (read directly, no foamToVTK step), one case per "
      "file or folder: named point or cell arrays and derived channels as inputs and outputs, "
      "cases split whole. Per-point networks (mlp) take cases on different "
      "meshes; grid networks (unet) need every case on one shared 2D structured grid (.vts, "
      ".vti).");
  s.string("files",
           "a manifest (.csv or .yaml: `file`, optional `name`, then the case's parameters; `file` "
           "is a VTK file or an OpenFOAM case folder), a glob of VTK files (e.g. cases/*.vtu) or "
           "OpenFOAM case folders, or a folder (its manifest.csv/.yaml if it has one, else the "
           "folder itself when it holds system/controlDict, else its VTK files and OpenFOAM case "
           "folders), relative to this config's folder");
  s.choice("rows", {"points", "cells"},
           "what a training row is: a point of each case's mesh (point arrays) or a cell (cell "
           "arrays)")
      .fallback("points");
  s.string("block",
           "the block of a multiblock (.vtm) file or OpenFOAM case that holds the arrays, by its "
           "path of block names (e.g. internalMesh, boundary/wall); empty: the first block (an "
           "OpenFOAM case's internalMesh), or the last step of a .pvd")
      .fallback("\"\"");
  s.string("time",
           "OpenFOAM case folders: the time directory read, `latest` (the last one) or a time "
           "(e.g. 0.5, matched by value); a manifest's `time` column or key sets it per case "
           "(and stays a parameter)")
      .fallback("latest");
  s.strings("inputs",
            "per-row input channels: arrays (name or name[component]; all components when a "
            "vector is named), coord_x, coord_y, coord_z (the point, or the cell centre), "
            "distance_to:<block> (distance to the cells of another block, e.g. "
            "distance_to:boundary/wall, an OpenFOAM patch as foamToVTK and the case reader name "
            "it), cell_size (volume/area/length; rows: cells)")
      .fallback("[coord_x, coord_y, coord_z]");
  s.strings("parameters",
            "manifest columns (numbers) broadcast to every row of the case as inputs (e.g. Re, "
            "alpha)")
      .fallback("[]");
  s.strings("outputs", "per-row output channels (arrays, name or name[component])");
  add_scale_outputs_key(s);
  s.string("weight",
           "per-row loss weight: cell_size (rows: cells), a one-component array, or empty for "
           "none")
      .fallback("\"\"");
  s.reals("split", "fractions of cases (or groups) for training, validation and test")
      .sized(3)
      .fallback("[0.7, 0.15, 0.15]");
  s.strings("group_by",
            "manifest columns whose cases stay in one split (e.g. the geometry, so test "
            "geometries are never seen in training)")
      .fallback("[]");
  s.integer("seed", "seeds the split").at_least(0).fallback("1");
  s.choice("dtype", {"float32", "float64"}, "tensor precision").fallback("float32");
  s.string("cache",
           "the HDF5 cache of the assembled rows (rebuilt when this section, the manifest or a "
           "file changes); empty: <manifest stem>.cache.h5 beside the manifest, or "
           "collection.cache.h5 beside the globbed files")
      .fallback("\"\"");
  return s;
}

FieldDataset CollectionDataset::load(const CaseNode& c, surrogates::GridSamples samples) {
  const auto split = c.reals("split");
  if (std::abs(split[0] + split[1] + split[2] - 1) > 1e-9 ||
      *std::min_element(split.begin(), split.end()) < 0)
    c.fail("split", "the three fractions must be non-negative and sum to 1");
  const CollectionChannelSpec spec = collection_spec_of(c);
  std::string manifest_text;
  const std::vector<CollectionCase> cases = collection_cases_of(c, &manifest_text);
  check_collection_names_unique(c, cases);
  const io::CollectionCache cache = collection_cached_rows(c, spec, cases, manifest_text);

  const auto order = collection_case_groups(c, cases);
  const std::size_t g = order.size();
  const auto n_train = static_cast<std::size_t>(std::lround(split[0] * static_cast<double>(g)));
  const auto n_valid = std::min(
      g - n_train, static_cast<std::size_t>(std::lround(split[1] * static_cast<double>(g))));
  if (n_train == 0)
    c.fail("split", fmt::format("the training split is empty: {} case group(s) and a training "
                                "fraction of {}",
                                g, split[0]));

  FieldDataset data;
  data.input_domains = {{"points", surrogates::PointInputs{3}}};
  std::vector<long> grid;
  if (samples == surrogates::GridSamples::kWholeGrid) {
    grid = collection_cached_grid(c, cache);
    data.input_domains = {surrogates::grid_cells_input(grid, samples)};
  }
  data.source = spec.to_json();
  const bool weighted = !spec.weight.empty();
  TensorSet train = assemble_collection_cases(cache, order, weighted, 0, n_train, data.train_cases);
  TensorSet valid = assemble_collection_cases(cache, order, weighted, n_train, n_train + n_valid,
                                              data.validation_cases);
  TensorSet test =
      assemble_collection_cases(cache, order, weighted, n_train + n_valid, g, data.test_cases);
  if (train.rows() == 0) c.fail("files", "the training cases hold no rows");
  data.output_scaling = output_scaling_of(c, cache.input_names, cache.output_names);
  for (TensorSet* set : {&train, &valid, &test}) scale_targets(c, *set, data.output_scaling);
  data.inputs = collection_statistics(train.inputs, cache.input_names);
  data.outputs = collection_statistics(train.targets, cache.output_names);
  const double mean_weight = weighted ? train.weights.mean().item<double>() : 1.0;
  if (weighted && !(mean_weight > 0))
    c.fail("weight", "the weight '" + spec.weight + "' has no positive mean on the training cases");
  const auto dtype = c.string("dtype") == "float64" ? torch::kFloat64 : torch::kFloat32;
  finish_collection_set(train, data, weighted, mean_weight, grid, dtype);
  finish_collection_set(valid, data, weighted, mean_weight, grid, dtype);
  finish_collection_set(test, data, weighted, mean_weight, grid, dtype);
  data.train = std::move(train);
  data.validation = std::move(valid);
  data.test = std::move(test);
  return data;
}

FieldDataset CollectionDataset::load_all(const CaseNode& c, surrogates::GridSamples samples,
                                         const Normalization& inputs,
                                         const Normalization& outputs) {
  const CollectionChannelSpec spec = collection_spec_of(c);
  std::string manifest_text;
  const std::vector<CollectionCase> cases = collection_cases_of(c, &manifest_text);
  if (!spec.parameters.empty() && manifest_text.empty())
    c.fail("files", fmt::format("the model takes the parameters {} of each case: give a manifest "
                                "(.csv or .yaml) listing the file and its parameters",
                                fmt::join(spec.parameters, ", ")));
  FieldDataset data;
  data.input_domains = {{"points", surrogates::PointInputs{3}}};
  data.source = spec.to_json();
  data.inputs = inputs;
  data.outputs = outputs;
  std::vector<torch::Tensor> xs, ys;
  std::vector<std::string> names;
  std::vector<std::vector<long>> grids;
  for (const auto& k : cases) {
    const CollectionRows rows = collection_rows(read_collection_case(k, c.string("time")), k, spec);
    names.push_back(k.name);
    grids.push_back(rows.grid);
    if (rows.input_names != inputs.names || rows.output_names != outputs.names)
      throw InputError(
          fmt::format("gives the channels {} → {}; the model takes {} → {}",
                      fmt::join(rows.input_names, ", "), fmt::join(rows.output_names, ", "),
                      fmt::join(inputs.names, ", "), fmt::join(outputs.names, ", ")),
          {k.file.string()});
    data.test_cases.push_back(k.name);
    data.test_case_rows.push_back(static_cast<long>(rows.inputs.extent(0)));
    xs.push_back(collection_tensor(rows.inputs));
    ys.push_back(collection_tensor(rows.targets));
  }
  const auto dtype = c.string("dtype") == "float64" ? torch::kFloat64 : torch::kFloat32;
  data.output_scaling = output_scaling_of(c, inputs.names, outputs.names);
  data.test.inputs = torch::cat(xs);
  data.test.targets = torch::cat(ys);
  scale_targets(c, data.test, data.output_scaling);
  data.test.inputs = inputs.apply(data.test.inputs);
  data.test.targets = outputs.apply(data.test.targets);
  if (samples == surrogates::GridSamples::kWholeGrid) {
    const std::vector<long> grid = shared_grid_of(c, names, grids);
    data.input_domains = {surrogates::grid_cells_input(grid, samples)};
    data.test.inputs = as_grid_batch(data.test.inputs, grid);
    data.test.targets = as_grid_batch(data.test.targets, grid);
    data.test_case_rows.clear();  // one case per grid-batch row
  }
  data.test.inputs = data.test.inputs.to(dtype).contiguous();
  data.test.targets = data.test.targets.to(dtype).contiguous();
  const long cin = static_cast<long>(inputs.names.size()),
             cout = static_cast<long>(outputs.names.size());
  auto empty = [&](long channels) {
    return data.test.inputs.dim() == 4
               ? torch::empty({0, channels, data.test.inputs.size(2), data.test.inputs.size(3)},
                              dtype)
               : torch::empty({0, channels}, dtype);
  };
  data.train = {empty(cin), empty(cout), {}};
  data.validation = {empty(cin), empty(cout), {}};
  return data;
}

CollectionPredictionCase CollectionDataset::prediction_case(
    const CaseNode& c, const std::vector<std::string>& inputs,
    const std::vector<std::string>& outputs) {
  CollectionPredictionCase out;
  out.spec = collection_spec_of(c);
  std::string manifest_text;
  const std::vector<CollectionCase> cases = collection_cases_of(c, &manifest_text);
  if (cases.size() != 1)
    c.fail("files", fmt::format("holds {} cases; surrox predict applies the model to one case "
                                "(a VTK file, an OpenFOAM case folder or a manifest of one case)",
                                cases.size()));
  if (!out.spec.parameters.empty() && manifest_text.empty())
    c.fail("files", fmt::format("the model takes the parameters {} of each case: give a manifest "
                                "(.csv or .yaml) listing the file and its parameters",
                                fmt::join(out.spec.parameters, ", ")));
  out.source = cases.front();
  out.file = read_collection_case(out.source, c.string("time"));
  const CollectionRows rows = collection_rows(out.file, out.source, out.spec, false);
  if (rows.input_names != inputs)
    throw InputError(fmt::format("gives the input channels {}; the model takes {}",
                                 fmt::join(rows.input_names, ", "), fmt::join(inputs, ", ")),
                     {out.source.file.string()});
  out.output_names = outputs;
  out.inputs = collection_tensor(rows.inputs);
  return out;
}

}  // namespace surrox::training

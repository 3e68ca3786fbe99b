#include "io/hdf5_collection_cache.hpp"

#include <functional>
#include <numeric>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_handle.hpp"

namespace surrox::io {
namespace {

constexpr const char* kCacheFormat = "surrox-collection-cache";
constexpr std::int64_t kCacheVersion = 2;  // 2: /case_grids

void write_cache_text(hid_t parent, const std::string& name, const std::string& text,
                      const h5::Where& where) {
  h5::Hid type = h5::string_type(std::max<std::size_t>(text.size(), 1), where);
  h5::Hid space = h5::own(H5Screate(H5S_SCALAR), H5Sclose, where, "cannot create dataspace");
  h5::Hid dataset =
      h5::own(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              H5Dclose, where, "cannot create " + name);
  std::string padded = text;
  padded.resize(std::max<std::size_t>(text.size(), 1), '\0');
  h5::check_status(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, padded.data()), where,
                   "cannot write " + name);
}

std::string join_cache_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) text += (i ? "\n" : "") + lines[i];
  return text;
}

std::vector<std::string> split_cache_lines(const std::string& text, std::size_t expected) {
  std::vector<std::string> lines;
  if (expected == 0) return lines;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

void write_cache_matrix(hid_t parent, const std::string& name, const std::vector<double>& values,
                        hsize_t rows, hsize_t columns, const h5::Where& where) {
  std::vector<hsize_t> dims{rows, columns},
      chunk{std::max<hsize_t>(1, std::min<hsize_t>(rows, 65536)), columns};
  h5::Hid dataset = h5::create_dataset(parent, name, H5T_IEEE_F64LE, dims, {},
                                       rows ? chunk : std::vector<hsize_t>{}, rows > 0, where);
  if (rows * columns > 0)
    h5::check_status(
        H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), where,
        "cannot write " + name);
}

std::vector<double> read_cache_matrix(hid_t parent, const std::string& name, hsize_t rows,
                                      hsize_t columns, const h5::Where& where) {
  h5::Hid dataset = h5::open_dataset(parent, name, where);
  const auto dims = h5::dataset_dims(dataset, where);
  if (dims.size() != 2 || dims[0] != rows || dims[1] != columns)
    h5::fail(where, "/" + name + " has the wrong shape");
  std::vector<double> values(rows * columns);
  if (!values.empty())
    h5::check_status(
        H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), where,
        "cannot read /" + name);
  return values;
}

CollectionCache read_cache_contents(const std::filesystem::path& path) {
  const h5::Where where{path.string(), true};
  h5::Hid file = h5::open_for_reading(path, where);
  const std::string format =
      h5::has_attribute(file, "format") ? h5::read_string_attribute(file, "format", where) : "";
  if (format != kCacheFormat) h5::fail(where, "not a collection cache (format '" + format + "')");
  const auto version = h5::read_int_attribute(file, "format_version", where);
  if (version.size() != 1 || version[0] != kCacheVersion)
    h5::fail(where, "cache format_version is not " + std::to_string(kCacheVersion));
  CollectionCache cache;
  cache.fingerprint = h5::read_string_dataset(file, "fingerprint", where);
  const auto counts =
      h5::read_int_attribute(file, "counts", where);  // cases, inputs, outputs, weighted
  if (counts.size() != 4 || counts[0] < 0 || counts[1] < 0 || counts[2] < 1)
    h5::fail(where, "bad counts attribute");
  const auto cases = static_cast<std::size_t>(counts[0]);
  cache.input_names =
      split_cache_lines(h5::read_string_dataset(file, "input_names", where), counts[1]);
  cache.output_names =
      split_cache_lines(h5::read_string_dataset(file, "output_names", where), counts[2]);
  const auto names = split_cache_lines(h5::read_string_dataset(file, "case_names", where), cases);
  if (cache.input_names.size() != static_cast<std::size_t>(counts[1]) ||
      cache.output_names.size() != static_cast<std::size_t>(counts[2]) || names.size() != cases)
    h5::fail(where, "channel or case names disagree with the counts");
  h5::Hid offsets_dataset = h5::open_dataset(file, "case_offsets", where);
  if (h5::dataset_dims(offsets_dataset, where) != std::vector<hsize_t>{cases + 1})
    h5::fail(where, "/case_offsets has the wrong shape");
  std::vector<std::int64_t> offsets(cases + 1);
  h5::check_status(
      H5Dread(offsets_dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, offsets.data()),
      where, "cannot read /case_offsets");
  for (std::size_t k = 0; k < cases; ++k)
    if (offsets[k] < 0 || offsets[k + 1] < offsets[k])
      h5::fail(where, "/case_offsets does not rise");
  if (offsets[0] != 0) h5::fail(where, "/case_offsets does not start at 0");
  const auto rows = static_cast<hsize_t>(offsets[cases]);
  const hsize_t cin = counts[1], cout = counts[2];
  const auto inputs = read_cache_matrix(file, "inputs", rows, cin, where);
  const auto targets = read_cache_matrix(file, "targets", rows, cout, where);
  std::vector<double> weights;
  if (counts[3]) weights = read_cache_matrix(file, "weights", rows, 1, where);
  h5::Hid grids_dataset = h5::open_dataset(file, "case_grids", where);
  if (h5::dataset_dims(grids_dataset, where) != std::vector<hsize_t>{cases, 3})
    h5::fail(where, "/case_grids has the wrong shape");
  std::vector<std::int64_t> grids(3 * cases);
  if (cases > 0)
    h5::check_status(
        H5Dread(grids_dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, grids.data()),
        where, "cannot read /case_grids");
  for (std::size_t k = 0; k < cases; ++k) {
    const auto begin = static_cast<std::size_t>(offsets[k]),
               n = static_cast<std::size_t>(offsets[k + 1]) - begin;
    CachedCase c{names[k], HostArray("inputs", n, cin), HostArray("targets", n, cout),
                 HostArray("weights", counts[3] ? n : 0, 1)};
    std::copy_n(inputs.begin() + begin * cin, n * cin, c.inputs.data());
    std::copy_n(targets.begin() + begin * cout, n * cout, c.targets.data());
    if (counts[3]) std::copy_n(weights.begin() + begin, n, c.weights.data());
    for (std::size_t d = 0; d < 3 && grids[3 * k + d] > 0; ++d) c.grid.push_back(grids[3 * k + d]);
    if (!c.grid.empty() && static_cast<std::size_t>(std::accumulate(
                               c.grid.begin(), c.grid.end(), 1L, std::multiplies<long>())) != n)
      h5::fail(where, "/case_grids disagrees with the rows of case " + names[k]);
    cache.cases.push_back(std::move(c));
  }
  return cache;
}

}  // namespace

void write_collection_cache(const std::filesystem::path& path, const CollectionCache& cache) {
  h5::quiet();
  const h5::Where where{path.string(), false};
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  AtomicFile atomic(path);
  {
    h5::Hid file =
        h5::own(H5Fcreate(atomic.temporary().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                H5Fclose, where, "cannot create " + atomic.temporary().string());
    h5::write_attribute(file, "format", std::string(kCacheFormat), where);
    h5::write_attribute(file, "format_version", kCacheVersion, where);
    h5::write_attribute(file, "surrox_version", std::string(kVersion), where);
    h5::write_attribute(file, "created", utc_timestamp(), where);
    const bool weighted = !cache.cases.empty() && cache.cases.front().weights.extent(0) > 0;
    h5::write_attribute(file, "counts",
                        std::vector<std::int64_t>{
                            static_cast<std::int64_t>(cache.cases.size()),
                            static_cast<std::int64_t>(cache.input_names.size()),
                            static_cast<std::int64_t>(cache.output_names.size()), weighted ? 1 : 0},
                        where);
    write_cache_text(file, "fingerprint", cache.fingerprint, where);
    write_cache_text(file, "input_names", join_cache_lines(cache.input_names), where);
    write_cache_text(file, "output_names", join_cache_lines(cache.output_names), where);
    std::vector<std::string> names;
    std::vector<std::int64_t> offsets{0}, grids;
    std::vector<double> inputs, targets, weights;
    for (const auto& c : cache.cases) {
      names.push_back(c.name);
      for (std::size_t d = 0; d < 3; ++d) grids.push_back(d < c.grid.size() ? c.grid[d] : 0);
      offsets.push_back(offsets.back() + static_cast<std::int64_t>(c.inputs.extent(0)));
      inputs.insert(inputs.end(), c.inputs.data(), c.inputs.data() + c.inputs.size());
      targets.insert(targets.end(), c.targets.data(), c.targets.data() + c.targets.size());
      if (weighted)
        weights.insert(weights.end(), c.weights.data(), c.weights.data() + c.weights.size());
    }
    write_cache_text(file, "case_names", join_cache_lines(names), where);
    h5::Hid offsets_dataset = h5::create_dataset(file, "case_offsets", H5T_STD_I64LE,
                                                 {offsets.size()}, {}, {}, false, where);
    h5::check_status(
        H5Dwrite(offsets_dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, offsets.data()),
        where, "cannot write /case_offsets");
    h5::Hid grids_dataset = h5::create_dataset(file, "case_grids", H5T_STD_I64LE,
                                               {cache.cases.size(), 3}, {}, {}, false, where);
    if (!grids.empty())
      h5::check_status(
          H5Dwrite(grids_dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, grids.data()),
          where, "cannot write /case_grids");
    grids_dataset.reset();
    const auto rows = static_cast<hsize_t>(offsets.back());
    write_cache_matrix(file, "inputs", inputs, rows, cache.input_names.size(), where);
    write_cache_matrix(file, "targets", targets, rows, cache.output_names.size(), where);
    if (weighted) write_cache_matrix(file, "weights", weights, rows, 1, where);
    offsets_dataset.reset();
    if (!file.reset()) h5::fail(where, "cannot close " + atomic.temporary().string());
  }
  atomic.commit();
}

std::optional<CollectionCache> read_collection_cache(const std::filesystem::path& path,
                                                     const std::string& fingerprint,
                                                     std::string* why) {
  h5::quiet();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    if (why) *why = "no cache yet";
    return std::nullopt;
  }
  try {
    CollectionCache cache =
        read_contained(path.string(), "HDF5", [&] { return read_cache_contents(path); });
    if (cache.fingerprint != fingerprint) {
      if (why) *why = "the data section, the manifest or a file changed";
      return std::nullopt;
    }
    return cache;
  } catch (const Error& e) {
    if (why) *why = std::string("unreadable cache, rebuilt: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace surrox::io

// describe_hdf5: the contents of any HDF5 file for `surrox info`.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_handle.hpp"

namespace surrox::io {

using h5::Hid;
using h5::own;
using h5::Where;

namespace {

std::string dtype_name(hid_t type) {
  const std::size_t bits = H5Tget_size(type) * 8;
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return (H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(bits);
    case H5T_FLOAT:
      return "float" + std::to_string(bits);
    case H5T_STRING:
      return "string";
    case H5T_COMPOUND:
      return "compound";
    case H5T_ENUM:
      return "enum";
    case H5T_ARRAY:
      return "array";
    case H5T_OPAQUE:
      return "opaque";
    case H5T_BITFIELD:
      return "bitfield";
    case H5T_REFERENCE:
      return "reference";
    case H5T_VLEN:
      return "vlen";
    default:
      return "unknown";
  }
}

// Min/max over the finite values of a numeric dataset, reading blocks of at most ~1 Mi values
// and stopping after kDescribeScanLimit values.
void scan_range(hid_t dataset, const std::vector<hsize_t>& dims, Hdf5ObjectInfo* info,
                const Where& where) {
  constexpr hsize_t kBlock = 1 << 20;
  double low = std::numeric_limits<double>::infinity(), high = -low;
  bool any = false;
  auto consume = [&](const std::vector<double>& values) {
    for (double v : values)
      if (std::isfinite(v)) {
        low = std::min(low, v);
        high = std::max(high, v);
        any = true;
      }
  };
  if (dims.empty()) {  // scalar
    std::vector<double> value(1);
    h5::check_status(
        H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, value.data()), where,
        "cannot read " + info->path);
    consume(value);
  } else {
    // Split at the slowest axis `a` whose trailing block fits: iterate over the leading
    // indices and over axis a in steps of `rows`.
    std::size_t axis = 0;
    hsize_t inner = 1;
    for (std::size_t k = 0; k < dims.size(); ++k) inner *= dims[k];
    inner /= std::max<hsize_t>(dims[0], 1);
    while (axis + 1 < dims.size() && inner > kBlock) {
      ++axis;
      inner /= std::max<hsize_t>(dims[axis], 1);
    }
    const hsize_t rows = std::max<hsize_t>(1, kBlock / std::max<hsize_t>(inner, 1));
    Hid file_space = own(H5Dget_space(dataset), H5Sclose, where, "cannot get dataspace");
    std::vector<hsize_t> index(dims.size(), 0);  // leading indices [0, axis)
    hsize_t scanned = 0;
    bool done = false;
    while (!done) {
      for (hsize_t row = 0; row < dims[axis] && !done; row += rows) {
        std::vector<hsize_t> start(dims.size(), 0), count = dims;
        for (std::size_t k = 0; k < axis; ++k) {
          start[k] = index[k];
          count[k] = 1;
        }
        start[axis] = row;
        count[axis] = std::min(rows, dims[axis] - row);
        hsize_t n = 1;
        for (auto c : count) n *= c;
        h5::check_status(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr,
                                             count.data(), nullptr),
                         where, "cannot select in " + info->path);
        Hid memory_space =
            own(H5Screate_simple(1, &n, nullptr), H5Sclose, where, "cannot create dataspace");
        std::vector<double> values(n);
        h5::check_status(H5Dread(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space, H5P_DEFAULT,
                                 values.data()),
                         where, "cannot read " + info->path);
        consume(values);
        scanned += n;
        if (scanned >= kDescribeScanLimit) {
          info->range_partial = true;
          done = true;
        }
      }
      // Next leading index (odometer over axes [0, axis)).
      std::size_t k = axis;
      while (k > 0) {
        --k;
        if (++index[k] < dims[k]) break;
        index[k] = 0;
        if (k == 0) done = true;
      }
      if (axis == 0) done = true;
    }
  }
  info->has_range = any;
  if (any) {
    info->min = low;
    info->max = high;
  }
}

void describe_attributes(hid_t object, Hdf5ObjectInfo* info, const Where& where) {
  for (const auto& name : h5::attribute_names(object, where)) {
    try {
      info->attributes[name] = h5::attribute_as_text(object, name, where);
    } catch (const Error&) {
      info->attributes[name] = "(unreadable)";
    }
  }
}

struct VisitState {
  std::vector<Hdf5ObjectInfo>* objects;
  const Where* where;
};

herr_t visit(hid_t root, const char* name, const H5L_info_t* link, void* data) {
  auto& state = *static_cast<VisitState*>(data);
  if (link->type != H5L_TYPE_HARD) return 0;  // soft and external links: not followed
  const Where& where = *state.where;
  Hid object =
      own(H5Oopen(root, name, H5P_DEFAULT), H5Oclose, where, std::string("cannot open /") + name);
  Hdf5ObjectInfo info;
  info.path = std::string("/") + name;
  const H5I_type_t type = H5Iget_type(object);
  if (type == H5I_DATASET) {
    info.is_dataset = true;
    const auto dims = h5::dataset_dims(object, where);
    info.shape.assign(dims.begin(), dims.end());
    Hid dtype = own(H5Dget_type(object), H5Tclose, where, "cannot read type of " + info.path);
    info.dtype = dtype_name(dtype);
    const H5T_class_t type_class = H5Tget_class(dtype);
    hsize_t n = 1;
    for (auto d : dims) n *= d;
    if ((type_class == H5T_INTEGER || type_class == H5T_FLOAT) && n > 0)
      scan_range(object, dims, &info, where);
  } else if (type != H5I_GROUP) {
    return 0;  // named datatypes
  }
  describe_attributes(object, &info, where);
  state.objects->push_back(std::move(info));
  return 0;
}

std::vector<Hdf5ObjectInfo> describe_uncontained(const std::filesystem::path& path) {
  h5::quiet();
  const Where where{path.string(), true};
  Hid file = h5::open_for_reading(path, where);
  std::vector<Hdf5ObjectInfo> objects;
  Hdf5ObjectInfo root;
  root.path = "/";
  describe_attributes(file, &root, where);
  objects.push_back(std::move(root));
  VisitState state{&objects, &where};
  // Exceptions must not cross HDF5's C frames: collect the first and rethrow after.
  std::exception_ptr failure;
  struct Guarded {
    VisitState* state;
    std::exception_ptr* failure;
  } guarded{&state, &failure};
  auto callback = [](hid_t group, const char* name, const H5L_info_t* link, void* data) -> herr_t {
    auto& g = *static_cast<Guarded*>(data);
    try {
      return visit(group, name, link, g.state);
    } catch (...) {
      *g.failure = std::current_exception();
      return -1;
    }
  };
  const herr_t status = H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, callback, &guarded);
  if (failure) std::rethrow_exception(failure);
  h5::check_status(status, where, "cannot walk the file");
  return objects;
}

}  // namespace

std::vector<Hdf5ObjectInfo> describe_hdf5(const std::filesystem::path& path) {
  return read_contained(path.string(), "HDF5", [&] { return describe_uncontained(path); });
}

}  // namespace surrox::io

#include "io/hdf5_handle.hpp"

#include <cstdio>
#include <cstring>

#include "core/error.hpp"

namespace surrox::io::h5 {

void quiet() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {

herr_t collect_error(unsigned n, const H5E_error2_t* error, void* data) {
  auto* messages = static_cast<std::vector<std::string>*>(data);
  if (error && error->desc && *error->desc) messages->emplace_back(error->desc);
  return 0;
}

}  // namespace

std::string error_stack() {
  std::vector<std::string> messages;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect_error, &messages);
  H5Eclear2(H5E_DEFAULT);
  // Innermost first; two messages usually say it all ("truncated file: eof = ...").
  std::string text;
  for (std::size_t i = 0; i < messages.size() && i < 2; ++i) {
    if (!text.empty()) text += "; ";
    text += messages[i];
  }
  return text;
}

void fail(const Where& where, const std::string& what) {
  const std::string stack = error_stack();
  std::string message = what;
  if (!stack.empty()) message += " (HDF5: " + stack + ")";
  ErrorContext context;
  context.file = where.file;
  if (where.input) throw InputError(message, context);
  throw Error(message, context);
}

hid_t check(hid_t id, const Where& where, const std::string& what) {
  if (id < 0) fail(where, what);
  return id;
}

herr_t check_status(herr_t status, const Where& where, const std::string& what) {
  if (status < 0) fail(where, what);
  return status;
}

Hid open_for_reading(const std::filesystem::path& path, const Where& where) {
  quiet();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) fail(where, "file not found");
  if (!std::filesystem::is_regular_file(path, error)) fail(where, "not a regular file");
  if (std::filesystem::file_size(path, error) == 0) fail(where, "empty file, not HDF5");
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    fail(where, "not an HDF5 file (no HDF5 signature)");
  }
  return own(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, where,
             "cannot open the HDF5 file (truncated or damaged)");
}

Hid open_group(hid_t parent, const std::string& name, const Where& where) {
  return own(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, where,
             "cannot open group " + name);
}

Hid open_dataset(hid_t parent, const std::string& name, const Where& where) {
  return own(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, where,
             "cannot open dataset " + name);
}

bool has_link(hid_t parent, const std::string& name) {
  const htri_t exists = H5Lexists(parent, name.c_str(), H5P_DEFAULT);
  if (exists < 0) H5Eclear2(H5E_DEFAULT);
  return exists > 0;
}

bool has_attribute(hid_t object, const std::string& name) {
  const htri_t exists = H5Aexists(object, name.c_str());
  if (exists < 0) H5Eclear2(H5E_DEFAULT);
  return exists > 0;
}

Hid string_type(std::size_t length, const Where& where) {
  Hid type = own(H5Tcopy(H5T_C_S1), H5Tclose, where, "cannot create string type");
  check_status(H5Tset_size(type, length == 0 ? 1 : length), where, "cannot size string type");
  check_status(H5Tset_strpad(type, H5T_STR_NULLTERM), where, "cannot set string padding");
  check_status(H5Tset_cset(type, H5T_CSET_UTF8), where, "cannot set string character set");
  return type;
}

namespace {

void write_raw_attribute(hid_t object, const std::string& name, hid_t file_type, hid_t memory_type,
                         hid_t space, const void* data, const Where& where) {
  if (has_attribute(object, name))
    check_status(H5Adelete(object, name.c_str()), where, "cannot replace attribute " + name);
  Hid attribute = own(H5Acreate2(object, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT),
                      H5Aclose, where, "cannot create attribute " + name);
  check_status(H5Awrite(attribute, memory_type, data), where, "cannot write attribute " + name);
}

template <class T>
void write_numeric(hid_t object, const std::string& name, const T* values, std::size_t count,
                   bool scalar, hid_t file_type, hid_t memory_type, const Where& where) {
  const hsize_t dims[1] = {count};
  Hid space =
      scalar ? own(H5Screate(H5S_SCALAR), H5Sclose, where, "cannot create dataspace")
             : own(H5Screate_simple(1, dims, nullptr), H5Sclose, where, "cannot create dataspace");
  write_raw_attribute(object, name, file_type, memory_type, space, values, where);
}

// Reads a string attribute or dataset, fixed or variable length.
std::string read_string(hid_t object, bool is_attribute, const std::string& name,
                        const Where& where) {
  Hid type = is_attribute
                 ? own(H5Aget_type(object), H5Tclose, where, "cannot read type of " + name)
                 : own(H5Dget_type(object), H5Tclose, where, "cannot read type of " + name);
  if (H5Tget_class(type) != H5T_STRING) fail(where, name + " is not a string");
  Hid space = is_attribute
                  ? own(H5Aget_space(object), H5Sclose, where, "cannot read dataspace of " + name)
                  : own(H5Dget_space(object), H5Sclose, where, "cannot read dataspace of " + name);
  if (H5Sget_simple_extent_npoints(space) != 1) fail(where, name + " is not a single string");
  const htri_t variable = H5Tis_variable_str(type);
  if (variable < 0) fail(where, "cannot inspect string type of " + name);
  if (variable) {
    Hid memory = string_type(1, where);
    check_status(H5Tset_size(memory, H5T_VARIABLE), where, "cannot create string type");
    char* text = nullptr;
    const herr_t status = is_attribute
                              ? H5Aread(object, memory, &text)
                              : H5Dread(object, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text);
    check_status(status, where, "cannot read " + name);
    std::string value = text ? text : "";
    H5free_memory(text);
    return value;
  }
  const std::size_t size = H5Tget_size(type);
  if (size == 0) fail(where, "cannot read size of " + name);
  std::vector<char> buffer(size + 1, '\0');
  Hid memory = own(H5Tcopy(type), H5Tclose, where, "cannot copy string type");
  const herr_t status = is_attribute
                            ? H5Aread(object, memory, buffer.data())
                            : H5Dread(object, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data());
  check_status(status, where, "cannot read " + name);
  return std::string(buffer.data(), strnlen(buffer.data(), size));
}

template <class T>
std::vector<T> read_numeric_attribute(hid_t object, const std::string& name, hid_t memory_type,
                                      const Where& where) {
  Hid attribute =
      own(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, where, "missing attribute " + name);
  Hid type = own(H5Aget_type(attribute), H5Tclose, where, "cannot read type of attribute " + name);
  const H5T_class_t type_class = H5Tget_class(type);
  if (type_class != H5T_INTEGER && type_class != H5T_FLOAT)
    fail(where, "attribute " + name + " is not numeric");
  Hid space =
      own(H5Aget_space(attribute), H5Sclose, where, "cannot read dataspace of attribute " + name);
  const hssize_t count = H5Sget_simple_extent_npoints(space);
  if (count < 0) fail(where, "cannot size attribute " + name);
  std::vector<T> values(static_cast<std::size_t>(count));
  if (count > 0)
    check_status(H5Aread(attribute, memory_type, values.data()), where,
                 "cannot read attribute " + name);
  return values;
}

}  // namespace

void write_attribute(hid_t object, const std::string& name, const std::string& value,
                     const Where& where) {
  Hid type = string_type(value.size(), where);
  Hid space = own(H5Screate(H5S_SCALAR), H5Sclose, where, "cannot create dataspace");
  std::vector<char> buffer(value.size() + 1, '\0');
  std::memcpy(buffer.data(), value.data(), value.size());
  write_raw_attribute(object, name, type, type, space, buffer.data(), where);
}

void write_attribute(hid_t object, const std::string& name, double value, const Where& where) {
  write_numeric(object, name, &value, 1, true, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, where);
}

void write_attribute(hid_t object, const std::string& name, std::int64_t value,
                     const Where& where) {
  write_numeric(object, name, &value, 1, true, H5T_STD_I64LE, H5T_NATIVE_INT64, where);
}

void write_attribute(hid_t object, const std::string& name, const std::vector<double>& values,
                     const Where& where) {
  write_numeric(object, name, values.data(), values.size(), false, H5T_IEEE_F64LE,
                H5T_NATIVE_DOUBLE, where);
}

void write_attribute(hid_t object, const std::string& name, const std::vector<std::int64_t>& values,
                     const Where& where) {
  write_numeric(object, name, values.data(), values.size(), false, H5T_STD_I64LE, H5T_NATIVE_INT64,
                where);
}

std::string read_string_attribute(hid_t object, const std::string& name, const Where& where) {
  Hid attribute =
      own(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, where, "missing attribute " + name);
  return read_string(attribute, true, "attribute " + name, where);
}

std::vector<double> read_double_attribute(hid_t object, const std::string& name,
                                          const Where& where) {
  return read_numeric_attribute<double>(object, name, H5T_NATIVE_DOUBLE, where);
}

std::vector<std::int64_t> read_int_attribute(hid_t object, const std::string& name,
                                             const Where& where) {
  return read_numeric_attribute<std::int64_t>(object, name, H5T_NATIVE_INT64, where);
}

std::string attribute_as_text(hid_t object, const std::string& name, const Where& where) {
  Hid attribute =
      own(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, where, "missing attribute " + name);
  Hid type = own(H5Aget_type(attribute), H5Tclose, where, "cannot read type of attribute " + name);
  const H5T_class_t type_class = H5Tget_class(type);
  if (type_class == H5T_STRING) return read_string(attribute, true, "attribute " + name, where);
  if (type_class == H5T_INTEGER) {
    const auto values = read_int_attribute(object, name, where);
    std::string text;
    for (std::size_t i = 0; i < values.size() && i < 16; ++i)
      text += (i ? ", " : "") + std::to_string(values[i]);
    if (values.size() > 16) text += ", ...";
    return text;
  }
  if (type_class == H5T_FLOAT) {
    const auto values = read_double_attribute(object, name, where);
    std::string text;
    for (std::size_t i = 0; i < values.size() && i < 16; ++i)
      text += (i ? ", " : "") + format_double(values[i]);
    if (values.size() > 16) text += ", ...";
    return text;
  }
  return "(unsupported attribute type)";
}

namespace {
herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}
}  // namespace

std::vector<std::string> attribute_names(hid_t object, const Where& where) {
  std::vector<std::string> names;
  hsize_t index = 0;
  check_status(
      H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute_name, &names),
      where, "cannot list attributes");
  return names;
}

std::string read_string_dataset(hid_t parent, const std::string& name, const Where& where) {
  Hid dataset = open_dataset(parent, name, where);
  return read_string(dataset, false, "dataset " + name, where);
}

std::vector<hsize_t> dataset_dims(hid_t dataset, const Where& where) {
  Hid space = own(H5Dget_space(dataset), H5Sclose, where, "cannot read dataspace");
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0) fail(where, "cannot read dataspace rank");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0)
    check_status(H5Sget_simple_extent_dims(space, dims.data(), nullptr), where, "cannot read dims");
  return dims;
}

std::string format_double(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

hsize_t product(const std::vector<hsize_t>& values, std::size_t from) {
  hsize_t result = 1;
  for (std::size_t i = from; i < values.size(); ++i) result *= values[i];
  return result;
}

Hid create_dataset(hid_t parent, const std::string& name, hid_t type,
                   const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims,
                   const std::vector<hsize_t>& chunk, bool compress, const Where& where) {
  Hid space = own(H5Screate_simple(static_cast<int>(dims.size()), dims.data(),
                                   max_dims.empty() ? nullptr : max_dims.data()),
                  H5Sclose, where, "cannot create dataspace for " + name);
  Hid dcpl = own(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, where, "cannot create property list");
  check_status(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), where, "cannot set fill time");
  if (!chunk.empty()) {
    check_status(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), where,
                 "cannot set chunking of " + name);
    if (compress) {
      check_status(H5Pset_shuffle(dcpl), where, "cannot set shuffle filter");
      check_status(H5Pset_deflate(dcpl, kDeflateLevel), where, "cannot set deflate filter");
    }
  }
  return own(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
             H5Dclose, where, "cannot create dataset " + name);
}

void write_box(hid_t dataset, hid_t memory_type, const void* data,
               const std::vector<hsize_t>& start, const std::vector<hsize_t>& count, hid_t dxpl,
               const Where& where, const std::string& what) {
  Hid file_space = own(H5Dget_space(dataset), H5Sclose, where, "cannot get dataspace of " + what);
  Hid memory_space;
  static const double dummy = 0;
  if (product(count) == 0) {
    check_status(H5Sselect_none(file_space), where, "cannot select in " + what);
    const hsize_t one = 1;
    memory_space =
        own(H5Screate_simple(1, &one, nullptr), H5Sclose, where, "cannot create dataspace");
    check_status(H5Sselect_none(memory_space), where, "cannot select in " + what);
    data = &dummy;
  } else {
    check_status(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr,
                                     count.data(), nullptr),
                 where, "cannot select in " + what);
    memory_space = own(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr),
                       H5Sclose, where, "cannot create dataspace");
  }
  check_status(H5Dwrite(dataset, memory_type, memory_space, file_space, dxpl, data), where,
               "cannot write " + what);
}

Hid create_ordered_group(hid_t parent, const std::string& name, const Where& where) {
  Hid gcpl = own(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, where, "cannot create property list");
  check_status(H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               where, "cannot track creation order");
  return own(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT), H5Gclose, where,
             "cannot create group " + name);
}

namespace {

herr_t collect_link(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

}  // namespace

std::vector<std::string> link_names(hid_t group, const Where& where) {
  std::vector<std::string> names;
  hsize_t index = 0;
  if (H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &index, collect_link, &names) < 0) {
    H5Eclear2(H5E_DEFAULT);  // creation order not tracked (a file from elsewhere): by name
    names.clear();
    index = 0;
    check_status(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &index, collect_link, &names), where,
                 "cannot list group");
  }
  return names;
}

}  // namespace surrox::io::h5

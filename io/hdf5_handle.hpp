#pragma once
// Internal to surrox_io_hdf5 (included by io/hdf5_*.cpp only): RAII ownership of HDF5 ids,
// error checks that turn HDF5 failures into surrox exceptions naming the file and the
// operation, and typed attribute helpers. HDF5's own error printing is switched off.
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace surrox::io::h5 {

// Owns one hid_t and closes it with the matching H5?close when it goes out of scope.
class Hid {
 public:
  using Closer = herr_t (*)(hid_t);
  Hid() = default;
  Hid(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Hid() { reset(); }
  Hid(Hid&& other) noexcept
      : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
  Hid& operator=(Hid&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      closer_ = other.closer_;
    }
    return *this;
  }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;
  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }  // NOLINT: handles pass straight into the C API
  bool valid() const { return id_ >= 0; }
  // Closes now; returns false when HDF5 reported a failure (e.g. a failed final flush).
  bool reset() {
    bool ok = true;
    if (id_ >= 0 && closer_) ok = closer_(id_) >= 0;
    id_ = H5I_INVALID_HID;
    return ok;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// Where a failure is reported: the file and whether it is the user's input (InputError, a
// corrupt or foreign file being read) or a runtime failure (Error, a write that failed).
struct Where {
  std::string file;
  bool input = false;
};

// Silences HDF5's automatic error-stack printing on the calling thread. Idempotent.
void quiet();
// Innermost messages of HDF5's current error stack ("" when empty); clears the stack.
std::string error_stack();
[[noreturn]] void fail(const Where& where, const std::string& what);

hid_t check(hid_t id, const Where& where, const std::string& what);
herr_t check_status(herr_t status, const Where& where, const std::string& what);
inline Hid own(hid_t id, Hid::Closer closer, const Where& where, const std::string& what) {
  return Hid(check(id, where, what), closer);
}

// Opens an existing file read-only after checking it exists, is a non-empty regular file and
// has the HDF5 signature: each failure is its own message (InputError when where.input).
Hid open_for_reading(const std::filesystem::path& path, const Where& where);
Hid open_group(hid_t parent, const std::string& name, const Where& where);
Hid open_dataset(hid_t parent, const std::string& name, const Where& where);
bool has_link(hid_t parent, const std::string& name);
bool has_attribute(hid_t object, const std::string& name);

// Attributes. Strings are fixed-length, null-terminated UTF-8; numbers are little-endian
// float64 / int64 scalars or 1-D arrays. In parallel these are collective: same value on every
// rank.
void write_attribute(hid_t object, const std::string& name, const std::string& value,
                     const Where& where);
void write_attribute(hid_t object, const std::string& name, double value, const Where& where);
void write_attribute(hid_t object, const std::string& name, std::int64_t value, const Where& where);
void write_attribute(hid_t object, const std::string& name, const std::vector<double>& values,
                     const Where& where);
void write_attribute(hid_t object, const std::string& name, const std::vector<std::int64_t>& values,
                     const Where& where);

std::string read_string_attribute(hid_t object, const std::string& name, const Where& where);
std::vector<double> read_double_attribute(hid_t object, const std::string& name,
                                          const Where& where);
std::vector<std::int64_t> read_int_attribute(hid_t object, const std::string& name,
                                             const Where& where);
// Any attribute as text: strings as they are, numbers joined by ", " (at most 16 values).
std::string attribute_as_text(hid_t object, const std::string& name, const Where& where);
std::vector<std::string> attribute_names(hid_t object, const Where& where);

// A fixed-length, null-terminated UTF-8 string type of `length` bytes.
Hid string_type(std::size_t length, const Where& where);

// A scalar fixed-length string dataset (used for /case): write from `writer_rank` only in parallel.
std::string read_string_dataset(hid_t parent, const std::string& name, const Where& where);

// A group that tracks the creation order of its links, so its members list in the order written.
Hid create_ordered_group(hid_t parent, const std::string& name, const Where& where);
// Names of a group's links in creation order (by name when the file did not track the order).
std::vector<std::string> link_names(hid_t group, const Where& where);

// Dataset shape.
std::vector<hsize_t> dataset_dims(hid_t dataset, const Where& where);

// Formats a double so that it reads back bit for bit (%.17g).
std::string format_double(double value);

// Product of values[from:] (element counts of a shape).
hsize_t product(const std::vector<hsize_t>& values, std::size_t from = 0);

inline constexpr unsigned kDeflateLevel = 4;
// A float/int dataset of shape dims (max_dims empty: fixed size); chunked when chunk is not
// empty, then optionally shuffled and deflate-compressed. No fill: every value gets written.
Hid create_dataset(hid_t parent, const std::string& name, hid_t type,
                   const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims,
                   const std::vector<hsize_t>& chunk, bool compress, const Where& where);
// Writes this rank's box [start, start+count) of `dataset` (collective under MPI-IO when dxpl
// says so; count may be all zero).
void write_box(hid_t dataset, hid_t memory_type, const void* data,
               const std::vector<hsize_t>& start, const std::vector<hsize_t>& count, hid_t dxpl,
               const Where& where, const std::string& what);

}  // namespace surrox::io::h5

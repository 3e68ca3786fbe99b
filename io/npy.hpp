#pragma once
// NumPy `.npy` files (format versions 1.0–3.0; numpy/lib/format.py): little-endian float64
// written, float32 or float64 read, C order only. Debian ships no C++ npy library, so this is
// a small strict reader: the header dictionary must be exactly {'descr', 'fortran_order',
// 'shape'}, the data size must match the shape, and anything else (a truncated file, another
// dtype, Fortran order, a corrupt header) is an InputError naming the file.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace surrox::io {

struct NpyArray {
  std::vector<long> shape;     // () for a scalar
  std::vector<double> values;  // row-major, converted to double
  std::string dtype;           // as stored: "<f8" or "<f4"
  long size() const;           // product of shape (1 for a scalar)
};

// Writes float64 values with `shape` (product must equal values.size()) atomically.
void write_npy(const std::filesystem::path& path, const std::vector<double>& values,
               const std::vector<long>& shape);

NpyArray read_npy(const std::filesystem::path& path);

// Parses the bytes of a whole .npy file; `name` is used in errors.
NpyArray parse_npy(const std::string& bytes, const std::string& name);

}  // namespace surrox::io

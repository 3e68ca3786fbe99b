#include "io/npy.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::io {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "npy I/O assumes a little-endian host");

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr std::size_t kNpyMagicLength = 6;
constexpr std::size_t kNpyMaxHeader = 1 << 16;  // numpy writes headers of a few hundred bytes

[[noreturn]] void npy_fail(const std::string& name, const std::string& what) {
  throw InputError(fmt::format("{}: not a valid .npy file: {}", name, what));
}

// A tiny cursor over the header dictionary, e.g.
// {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
struct NpyHeaderCursor {
  const std::string& text;
  const std::string& name;
  std::size_t pos = 0;

  void skip_space() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n')) ++pos;
  }
  bool accept(char c) {
    skip_space();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) npy_fail(name, fmt::format("expected '{}' at header offset {}", c, pos));
  }
  std::string quoted() {
    skip_space();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      npy_fail(name, fmt::format("expected a quoted string at header offset {}", pos));
    const char quote = text[pos++];
    const std::size_t end = text.find(quote, pos);
    if (end == std::string::npos) npy_fail(name, "unterminated string in the header");
    std::string s = text.substr(pos, end - pos);
    pos = end + 1;
    return s;
  }
  std::string word() {
    skip_space();
    const std::size_t start = pos;
    while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) ++pos;
    return text.substr(start, pos - start);
  }
  long integer() {
    skip_space();
    const std::size_t start = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == start || pos - start > 15)
      npy_fail(name, fmt::format("expected a dimension at header offset {}", start));
    return std::stol(text.substr(start, pos - start));
  }
};

}  // namespace

long NpyArray::size() const {
  long n = 1;
  for (long d : shape) n *= d;
  return n;
}

NpyArray parse_npy(const std::string& bytes, const std::string& name) {
  if (bytes.size() < kNpyMagicLength + 4 || bytes.compare(0, kNpyMagicLength, kNpyMagic) != 0)
    npy_fail(name, "the magic string \\x93NUMPY is missing");
  const auto major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_length = 0, offset = 0;
  if (major == 1) {
    header_length = static_cast<unsigned char>(bytes[8]) |
                    (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) npy_fail(name, "truncated header");
    for (int k = 0; k < 4; ++k)
      header_length |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + k]))
                       << (8 * k);
    offset = 12;
  } else {
    npy_fail(name, fmt::format("unsupported format version {}", static_cast<int>(major)));
  }
  if (header_length > kNpyMaxHeader || offset + header_length > bytes.size())
    npy_fail(name, fmt::format("header of {} bytes does not fit in a file of {} bytes",
                               header_length, bytes.size()));
  const std::string header = bytes.substr(offset, header_length);
  NpyHeaderCursor c{header, name};
  NpyArray array;
  bool fortran = false, has_descr = false, has_order = false, has_shape = false;
  c.expect('{');
  while (!c.accept('}')) {
    const std::string key = c.quoted();
    c.expect(':');
    if (key == "descr") {
      array.dtype = c.quoted();
      has_descr = true;
    } else if (key == "fortran_order") {
      const std::string w = c.word();
      if (w != "True" && w != "False") npy_fail(name, "fortran_order is neither True nor False");
      fortran = w == "True";
      has_order = true;
    } else if (key == "shape") {
      c.expect('(');
      while (!c.accept(')')) {
        array.shape.push_back(c.integer());
        if (!c.accept(',')) {
          c.expect(')');
          break;
        }
      }
      has_shape = true;
    } else {
      npy_fail(name, fmt::format("unknown header key '{}'", key));
    }
    if (!c.accept(',')) {
      c.expect('}');
      break;
    }
  }
  if (!has_descr || !has_order || !has_shape)
    npy_fail(name, "the header lacks one of 'descr', 'fortran_order', 'shape'");
  if (fortran) npy_fail(name, "Fortran-ordered arrays are not supported (write C order)");
  std::size_t width = 0;
  if (array.dtype == "<f8")
    width = 8;
  else if (array.dtype == "<f4")
    width = 4;
  else
    throw InputError(
        fmt::format("{}: dtype '{}' is not supported (valid: '<f8' float64, '<f4' "
                    "float32)",
                    name, array.dtype));
  std::size_t count = 1;
  for (long d : array.shape) {
    if (d != 0 && count > std::numeric_limits<std::size_t>::max() / 8 / static_cast<std::size_t>(d))
      npy_fail(name, "shape too large");
    count *= static_cast<std::size_t>(d);
  }
  const std::size_t data_offset = offset + header_length;
  const std::size_t have = bytes.size() - data_offset;
  if (have != count * width)
    npy_fail(name, fmt::format("shape {} of {} needs {} data bytes, the file holds {}{}",
                               fmt::join(array.shape, "x"), array.dtype, count * width, have,
                               have < count * width ? " (truncated)" : ""));
  array.values.resize(count);
  const char* data = bytes.data() + data_offset;
  if (width == 8) {
    std::memcpy(array.values.data(), data, count * 8);
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      float f;
      std::memcpy(&f, data + 4 * i, 4);
      array.values[i] = f;
    }
  }
  return array;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open", path.string()));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_npy(buffer.str(), path.string());
}

void write_npy(const std::filesystem::path& path, const std::vector<double>& values,
               const std::vector<long>& shape) {
  long count = 1;
  for (long d : shape) count *= d;
  if (count != static_cast<long>(values.size()))
    throw Error(fmt::format("write_npy {}: shape {} holds {} values, given {}", path.string(),
                            fmt::join(shape, "x"), count, values.size()));
  // As numpy spells it: (), (3,), (2, 3).
  std::string dims = fmt::format("{}", fmt::join(shape, ", "));
  if (shape.size() == 1) dims += ",";
  std::string header =
      fmt::format("{{'descr': '<f8', 'fortran_order': False, 'shape': ({}), }}", dims);
  // numpy pads with spaces to a multiple of 64 bytes including the 10-byte preamble and '\n'.
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  AtomicFile file(path);
  {
    std::ofstream out(file.temporary(), std::ios::binary);
    out.write(kNpyMagic, kNpyMagicLength);
    const char version[2] = {1, 0};
    out.write(version, 2);
    const std::uint16_t length = static_cast<std::uint16_t>(header.size());
    out.write(reinterpret_cast<const char*>(&length), 2);
    out << header;
    out.write(reinterpret_cast<const char*>(values.data()),
              static_cast<std::streamsize>(values.size() * sizeof(double)));
    out.flush();
    if (!out) throw Error("cannot write " + file.temporary().string());
  }
  file.commit();
}

}  // namespace surrox::io

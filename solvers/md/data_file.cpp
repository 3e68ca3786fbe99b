#include "solvers/md/data_file.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "core/error.hpp"

namespace surrox::solvers::md {
namespace {

std::string strip(const std::string& line) {
  std::string s = line.substr(0, line.find('#'));
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

class Reader {
 public:
  explicit Reader(const std::filesystem::path& path) : path_(path.string()), in_(path) {
    if (!in_) throw InputError("cannot open the data file " + path_);
  }
  // The next line (with its comment removed); false at the end of the file.
  bool next(std::string& line) {
    std::string raw;
    if (!std::getline(in_, raw)) return false;
    ++line_;
    line = strip(raw);
    return true;
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(message, {path_, line_, 0, {}});
  }
  double real(const std::string& w) const {
    try {
      std::size_t used = 0;
      const double v = std::stod(w, &used);
      if (used != w.size() || !std::isfinite(v)) fail("'" + w + "' is not a finite number");
      return v;
    } catch (const std::logic_error&) {
      fail("'" + w + "' is not a number");
    }
  }
  long integer(const std::string& w) const {
    try {
      std::size_t used = 0;
      const long v = std::stol(w, &used);
      if (used != w.size()) fail("'" + w + "' is not an integer");
      return v;
    } catch (const std::logic_error&) {
      fail("'" + w + "' is not an integer");
    }
  }
  int line() const { return line_; }

 private:
  std::string path_;
  std::ifstream in_;
  int line_ = 0;
};

bool is_section(const std::string& s) {
  static const char* names[] = {"Atoms", "Velocities", "Masses",    "Pair Coeffs", "PairIJ Coeffs",
                                "Bonds", "Angles",     "Dihedrals", "Impropers",   "Bond Coeffs"};
  for (const char* n : names)
    if (s.rfind(n, 0) == 0) return true;
  return false;
}

// The header up to the first section name (left in `section`): the atom count, which it
// returns, the number of types and the box.
long read_header(Reader& r, AtomData& data, std::string& section) {
  std::string line;
  long natoms = -1;
  bool have_box[3] = {false, false, false};
  // Header.
  while (r.next(line)) {
    if (line.empty()) continue;
    if (is_section(line)) {
      section = line;
      break;
    }
    const auto w = words(line);
    if (w.size() == 2 && w[1] == "atoms") {
      natoms = r.integer(w[0]);
    } else if (w.size() == 3 && w[1] == "atom" && w[2] == "types") {
      data.ntypes = static_cast<int>(r.integer(w[0]));
    } else if (w.size() == 4 && (w[2] == "xlo" || w[2] == "ylo" || w[2] == "zlo")) {
      const int d = w[2][0] - 'x';
      if (w[3] != std::string(1, w[2][0]) + "hi")
        r.fail("expected '" + w[2] + " " + w[2][0] + "hi'");
      data.box.lo[d] = r.real(w[0]);
      data.box.hi[d] = r.real(w[1]);
      if (!(data.box.hi[d] > data.box.lo[d]))
        r.fail("the box is empty along " + std::string(1, w[2][0]));
      have_box[d] = true;
    } else if (w.size() == 5 && w[3] == "xy") {
      r.fail("triclinic boxes (xy xz yz) are not supported; use an orthorhombic box");
    } else if (w.size() >= 2 && w.back() == "types") {
      if (r.integer(w[0]) != 0)
        r.fail("only atom_style atomic is supported (no bonds, angles, ...)");
    } else if (w.size() >= 2 && (w.back() == "bonds" || w.back() == "angles" ||
                                 w.back() == "dihedrals" || w.back() == "impropers")) {
      if (r.integer(w[0]) != 0)
        r.fail("only atom_style atomic is supported (no bonds, angles, ...)");
    } else {
      r.fail("unrecognised header line '" + line + "'");
    }
  }
  if (natoms < 1) r.fail("the header gives no (or zero) 'N atoms'");
  if (data.ntypes < 1) r.fail("the header gives no 'N atom types'");
  for (int d = 0; d < 3; ++d)
    if (!have_box[d])
      r.fail(std::string("the header lacks '") + char('x' + d) + "lo " + char('x' + d) + "hi'");
  return natoms;
}

// One line of the Atoms (atomic) section: id type x y z [ix iy iz], the position wrapped into
// the box (image flags counted), the id's row recorded in `index`.
void read_atom_line(Reader& r, const std::vector<std::string>& w, AtomData& data,
                    std::unordered_map<long, long>& index) {
  if (w.size() != 5 && w.size() != 8)
    r.fail("an Atoms (atomic) line is 'id type x y z [ix iy iz]', found " +
           std::to_string(w.size()) + " values");
  const long id = r.integer(w[0]);
  const long t = r.integer(w[1]);
  if (id < 1) r.fail(fmt::format("atom id {} is not positive", id));
  if (t < 1 || t > data.ntypes)
    r.fail(fmt::format("atom {} has type {} outside 1..{}", id, t, data.ntypes));
  if (!index.emplace(id, data.natoms()).second) r.fail(fmt::format("atom id {} appears twice", id));
  std::array<double, 3> x{};
  std::array<int, 3> im{0, 0, 0};
  for (int d = 0; d < 3; ++d) {
    x[d] = r.real(w[2 + d]);
    if (w.size() == 8) im[d] = static_cast<int>(r.integer(w[5 + d]));
    const double L = data.box.length(d), tol = 1e-9 * L;
    if (x[d] < data.box.lo[d] - tol || x[d] > data.box.hi[d] + tol)
      r.fail(fmt::format("atom {} lies outside the box: {} = {} is not in [{}, {})", id,
                         char('x' + d), x[d], data.box.lo[d], data.box.hi[d]));
    if (x[d] >= data.box.hi[d]) {
      x[d] -= L;
      im[d] += 1;
    }
    if (x[d] < data.box.lo[d]) x[d] = data.box.lo[d];
  }
  data.tag.push_back(id);
  data.type.push_back(static_cast<int>(t));
  data.x.push_back(x);
  data.image.push_back(im);
}

}  // namespace

AtomData read_data_file(const std::filesystem::path& path) {
  Reader r(path);
  AtomData data;
  std::string line;
  r.next(line);  // the first line is a title
  std::string section;
  const long natoms = read_header(r, data, section);
  data.mass.assign(data.ntypes + 1, 0.0);
  std::vector<bool> mass_set(data.ntypes + 1, false);
  std::unordered_map<long, long> index;  // id → row
  bool have_atoms = false;

  auto read_rows = [&](long count, auto&& handle) {
    long got = 0;
    // A blank line follows the section name.
    while (got < count) {
      if (!r.next(line))
        r.fail(fmt::format("the {} section ends after {} of {} lines", section, got, count));
      if (line.empty()) {
        if (got == 0) continue;
        r.fail(fmt::format("the {} section has {} lines, the header promises {}", section, got,
                           count));
      }
      handle(words(line));
      ++got;
    }
  };

  while (!section.empty()) {
    if (section.rfind("Masses", 0) == 0) {
      read_rows(data.ntypes, [&](const std::vector<std::string>& w) {
        if (w.size() != 2) r.fail("a Masses line is 'type mass'");
        const long t = r.integer(w[0]);
        if (t < 1 || t > data.ntypes)
          r.fail(fmt::format("atom type {} is outside 1..{}", t, data.ntypes));
        data.mass[t] = r.real(w[1]);
        if (!(data.mass[t] > 0)) r.fail(fmt::format("type {} has a non-positive mass", t));
        mass_set[t] = true;
      });
    } else if (section.rfind("Atoms", 0) == 0) {
      const auto style = words(section);
      if (style.size() >= 2 && style[1] != "atomic")
        r.fail("only atom_style atomic is supported, not " + style[1]);
      have_atoms = true;
      read_rows(natoms,
                [&](const std::vector<std::string>& w) { read_atom_line(r, w, data, index); });
    } else if (section.rfind("Velocities", 0) == 0) {
      if (!have_atoms) r.fail("the Velocities section must follow the Atoms section");
      data.v.assign(natoms, {0, 0, 0});
      read_rows(natoms, [&](const std::vector<std::string>& w) {
        if (w.size() != 4) r.fail("a Velocities line is 'id vx vy vz'");
        const long id = r.integer(w[0]);
        auto it = index.find(id);
        if (it == index.end())
          r.fail(fmt::format("velocity for atom {}, which the Atoms section lacks", id));
        for (int d = 0; d < 3; ++d) data.v[it->second][d] = r.real(w[1 + d]);
      });
      data.has_velocities = true;
    } else {
      // A section surrox does not use: skip its rows up to the next section name.
    }
    section.clear();
    while (r.next(line)) {
      if (line.empty()) continue;
      if (is_section(line)) {
        section = line;
        break;
      }
      if (words(line).empty()) continue;
      // Rows of a skipped section.
    }
  }
  if (!have_atoms) r.fail("the data file has no Atoms section");
  for (int t = 1; t <= data.ntypes; ++t)
    if (!mass_set[t])
      r.fail(fmt::format("no mass for atom type {} (a Masses section is required)", t));
  if (!data.has_velocities) data.v.assign(natoms, {0, 0, 0});
  return data;
}

void write_data_file(const std::filesystem::path& path, const AtomData& data,
                     const std::string& units, long step) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write the data file " + path.string());
  out << fmt::format("LAMMPS data file via surrox, timestep = {}, units = {}\n\n", step, units);
  out << fmt::format("{} atoms\n{} atom types\n\n", data.natoms(), data.ntypes);
  for (int d = 0; d < 3; ++d)
    out << fmt::format("{:.17g} {:.17g} {}lo {}hi\n", data.box.lo[d], data.box.hi[d], char('x' + d),
                       char('x' + d));
  out << "\nMasses\n\n";
  for (int t = 1; t <= data.ntypes; ++t) out << fmt::format("{} {:.17g}\n", t, data.mass[t]);
  out << "\nAtoms # atomic\n\n";
  for (long i = 0; i < data.natoms(); ++i) {
    const auto im = data.image.empty() ? std::array<int, 3>{0, 0, 0} : data.image[i];
    out << fmt::format("{} {} {:.17g} {:.17g} {:.17g} {} {} {}\n", data.tag[i], data.type[i],
                       data.x[i][0], data.x[i][1], data.x[i][2], im[0], im[1], im[2]);
  }
  out << "\nVelocities\n\n";
  for (long i = 0; i < data.natoms(); ++i)
    out << fmt::format("{} {:.17g} {:.17g} {:.17g}\n", data.tag[i], data.v[i][0], data.v[i][1],
                       data.v[i][2]);
  if (!out) throw Error("failed writing the data file " + path.string());
}

}  // namespace surrox::solvers::md

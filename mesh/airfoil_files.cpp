// Airfoil coordinate files: reading UIUC Selig and Lednicer .dat files, writing Selig files.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "mesh/airfoil_geometry.hpp"

namespace surrox::mesh {

AirfoilShape parse_airfoil_coordinates(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line, title;
  int number = 0;
  std::vector<double> xs, ys;
  std::vector<int> lines;
  ErrorContext where;
  where.file = source;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) {
      title = line;
      const auto b = title.find_first_not_of(" \t");
      title = b == std::string::npos ? std::string() : title.substr(b);
      continue;
    }
    std::string cleaned = line;
    std::replace(cleaned.begin(), cleaned.end(), ',', ' ');
    std::replace(cleaned.begin(), cleaned.end(), '\t', ' ');
    std::istringstream fields(cleaned);
    std::vector<std::string> tokens;
    for (std::string tok; fields >> tok;) tokens.push_back(tok);
    if (tokens.empty()) continue;
    double v[2] = {0, 0};
    bool ok = tokens.size() == 2;
    for (std::size_t k = 0; ok && k < 2; ++k) {
      char* end = nullptr;
      v[k] = std::strtod(tokens[k].c_str(), &end);
      ok = end && *end == '\0' && std::isfinite(v[k]);
    }
    if (!ok) {
      where.line = number;
      std::string shown = line.size() > 60 ? line.substr(0, 60) + "…" : line;
      throw InputError("expected two numbers 'x y', got '" + shown + "'", where);
    }
    xs.push_back(v[0]);
    ys.push_back(v[1]);
    lines.push_back(number);
  }
  if (number == 0) throw InputError("empty airfoil coordinate file", where);
  // Lednicer: the first pair counts the upper and lower points (integers ≥ 2, far beyond a
  // chord-normalised coordinate); both surfaces follow from LE to TE.
  if (!xs.empty() && xs[0] >= 2 && ys[0] >= 2 && xs[0] == std::floor(xs[0]) &&
      ys[0] == std::floor(ys[0])) {
    const std::size_t nu = static_cast<std::size_t>(xs[0]), nl = static_cast<std::size_t>(ys[0]);
    if (nu + nl != xs.size() - 1) {
      where.line = lines[0];
      throw InputError("Lednicer header announces " + std::to_string(nu) + " upper and " +
                           std::to_string(nl) + " lower points, the file has " +
                           std::to_string(xs.size() - 1),
                       where);
    }
    std::vector<double> x, y;
    std::vector<int> l;
    for (std::size_t k = nu; k >= 1; --k)
      x.push_back(xs[k]), y.push_back(ys[k]), l.push_back(lines[k]);
    std::size_t first = nu + 1;
    if (std::hypot(xs[first] - xs[1], ys[first] - ys[1]) == 0) ++first;  // shared LE point
    for (std::size_t k = first; k < xs.size(); ++k)
      x.push_back(xs[k]), y.push_back(ys[k]), l.push_back(lines[k]);
    return airfoil_from_selig_order(std::move(x), std::move(y), std::move(l), title, source);
  }
  return airfoil_from_selig_order(std::move(xs), std::move(ys), std::move(lines), title, source);
}

AirfoilShape read_airfoil_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  ErrorContext where;
  where.file = path;
  if (!in) throw InputError("cannot open airfoil coordinate file", where);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  if (content.size() > (64u << 20))
    throw InputError("airfoil coordinate file larger than 64 MiB", where);
  if (content.find('\0') != std::string::npos)
    throw InputError("binary data in an airfoil coordinate file", where);
  return parse_airfoil_coordinates(content, path);
}

void write_selig(const AirfoilShape& shape, const std::string& path, int digits) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write " + path);
  out << (shape.name.empty() ? std::string("airfoil") : shape.name) << "\n";
  out << std::setprecision(digits) << std::scientific;
  const std::size_t n = shape.size();
  const bool blunt =
      shape.corners.size() == 3 && shape.corners[1] == 1 && shape.corners[2] == n - 1;
  // Selig order is the O-grid order reversed: from the upper TE corner (or the sharp TE) back.
  auto emit = [&](std::size_t k) {
    out << std::setw(digits + 8) << shape.x[k] << " " << std::setw(digits + 8) << shape.y[k]
        << "\n";
  };
  if (blunt) {
    for (std::size_t k = n - 1; k >= 1; --k) emit(k);
  } else {
    emit(0);
    for (std::size_t k = n - 1; k >= 1; --k) emit(k);
    emit(0);
  }
  if (!out) throw Error("error writing " + path);
}

}  // namespace surrox::mesh

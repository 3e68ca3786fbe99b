#include "solvers/md/lattice.hpp"

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"

namespace surrox::solvers::md {
namespace {

std::vector<std::array<double, 3>> basis(const std::string& style) {
  if (style == "sc") return {{0, 0, 0}};
  if (style == "bcc") return {{0, 0, 0}, {0.5, 0.5, 0.5}};
  if (style == "fcc") return {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  if (style == "diamond")
    return {{0, 0, 0},          {0, 0.5, 0.5},      {0.5, 0, 0.5},      {0.5, 0.5, 0},
            {0.25, 0.25, 0.25}, {0.25, 0.75, 0.75}, {0.75, 0.25, 0.75}, {0.75, 0.75, 0.25}};
  throw InputError("unknown lattice style '" + style + "'; known: sc, bcc, fcc, diamond");
}

}  // namespace

int lattice_basis_count(const std::string& style) { return static_cast<int>(basis(style).size()); }

AtomData make_lattice(const std::string& style, double a, const std::array<long, 3>& n,
                      double mass) {
  const auto b = basis(style);
  AtomData data;
  data.ntypes = 1;
  data.mass = {0.0, mass};
  for (int d = 0; d < 3; ++d) {
    data.box.lo[d] = 0;
    data.box.hi[d] = a * static_cast<double>(n[d]);
  }
  long id = 1;
  for (long k = 0; k < n[2]; ++k)
    for (long j = 0; j < n[1]; ++j)
      for (long i = 0; i < n[0]; ++i)
        for (const auto& p : b) {
          data.tag.push_back(id++);
          data.type.push_back(1);
          data.x.push_back({(i + p[0]) * a, (j + p[1]) * a, (k + p[2]) * a});
          data.image.push_back({0, 0, 0});
        }
  data.v.assign(data.tag.size(), {0, 0, 0});
  return data;
}

double temperature_of(const AtomData& data, const Units& units) {
  double mv2 = 0;
  for (long i = 0; i < data.natoms(); ++i) {
    const double m = data.mass[data.type[i]];
    mv2 += m * (data.v[i][0] * data.v[i][0] + data.v[i][1] * data.v[i][1] +
                data.v[i][2] * data.v[i][2]);
  }
  const double dof = 3.0 * static_cast<double>(data.natoms()) - 3.0;
  return dof > 0 ? mv2 * units.mvv2e / (dof * units.boltz) : 0.0;
}

void create_velocities(AtomData& data, double temperature, long seed, const Units& units) {
  std::mt19937_64 rng(static_cast<unsigned long>(seed));
  std::normal_distribution<double> normal(0.0, 1.0);
  const long n = data.natoms();
  data.v.assign(n, {0, 0, 0});
  double p[3] = {0, 0, 0}, mtot = 0;
  for (long i = 0; i < n; ++i) {
    const double m = data.mass[data.type[i]];
    for (int d = 0; d < 3; ++d) {
      data.v[i][d] = normal(rng) / std::sqrt(m);
      p[d] += m * data.v[i][d];
    }
    mtot += m;
  }
  for (long i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) data.v[i][d] -= p[d] / mtot;
  const double t = temperature_of(data, units);
  const double scale = t > 0 ? std::sqrt(temperature / t) : 0.0;
  for (auto& v : data.v)
    for (double& c : v) c *= scale;
  data.has_velocities = true;
}

}  // namespace surrox::solvers::md

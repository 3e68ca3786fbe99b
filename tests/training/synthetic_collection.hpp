#pragma once
// A collection of small VTK files with known fields for the collection dataset tests: case k
// is the unit square triangulated with n_k × n_k points (a different mesh per case), point
// arrays u = Re·x + y² and velocity = (x, y, Re), cell array p = Re · (cell index), and a
// CSV manifest listing file, Re and a shape group.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"
#include "io/vtk_writer.hpp"

namespace surrox::training::testing {

inline io::MeshData square_mesh(long n, double re) {
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kUnstructured;
  mesh.points = io::HostArray("points", n * n, 3);
  io::HostArray u("u", n * n, 1), velocity("velocity", n * n, 3);
  for (long j = 0; j < n; ++j)
    for (long i = 0; i < n; ++i) {
      const long p = i + n * j;
      const double x = double(i) / (n - 1), y = double(j) / (n - 1);
      mesh.points(p, 0) = x;
      mesh.points(p, 1) = y;
      u(p, 0) = re * x + y * y;
      velocity(p, 0) = x;
      velocity(p, 1) = y;
      velocity(p, 2) = re;
    }
  mesh.cell_offsets = {0};
  for (long j = 0; j + 1 < n; ++j)
    for (long i = 0; i + 1 < n; ++i) {
      const long a = i + n * j, b = a + 1, c = a + n + 1, d = a + n;
      for (auto tri : {std::vector<long>{a, b, c}, std::vector<long>{a, c, d}}) {
        mesh.cell_types.push_back(5);
        mesh.connectivity.insert(mesh.connectivity.end(), tri.begin(), tri.end());
        mesh.cell_offsets.push_back(static_cast<std::int64_t>(mesh.connectivity.size()));
      }
    }
  io::HostArray p("p", mesh.cell_types.size(), 1);
  for (std::size_t c = 0; c < mesh.cell_types.size(); ++c) p(c, 0) = re * c;
  mesh.point_data = {{"u", u}, {"velocity", velocity}};
  mesh.cell_data = {{"p", p}};
  return mesh;
}

struct SyntheticCollection {
  std::filesystem::path manifest;
  std::vector<double> re;
  std::vector<long> points_per_side;
};

// `cases` files case_<k>.vtu in `folder` and folder/manifest.csv (shape = k % 3).
inline SyntheticCollection make_collection(const std::filesystem::path& folder, int cases) {
  SyntheticCollection out;
  out.manifest = folder / "manifest.csv";
  std::filesystem::create_directories(folder);
  std::ofstream manifest(out.manifest);
  manifest << "# file, then the case's parameters\nfile,Re,shape\n";
  for (int k = 0; k < cases; ++k) {
    const long n = 4 + k % 4;
    const double re = 1.0 + 0.5 * k;
    const std::string file = "case_" + std::to_string(k) + ".vtu";
    io::write_vtk(square_mesh(n, re), folder / file);
    manifest << file << "," << re << ",shape" << k % 3 << "\n";
    out.re.push_back(re);
    out.points_per_side.push_back(n);
  }
  return out;
}

// A case on a curvilinear ni × nj grid (.vts): x = i/(ni−1) + 0.1·j, y = j/(nj−1), with the
// point array u = Re·x + y².
inline void write_grid_case(const std::filesystem::path& file, long ni, long nj, double re) {
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kStructured;
  mesh.extent = {0, ni - 1, 0, nj - 1, 0, 0};
  mesh.points = io::HostArray("points", ni * nj, 3);
  io::HostArray u("u", ni * nj, 1);
  for (long j = 0; j < nj; ++j)
    for (long i = 0; i < ni; ++i) {
      const long p = i + ni * j;
      mesh.points(p, 0) = double(i) / (ni - 1) + 0.1 * j;
      mesh.points(p, 1) = double(j) / (nj - 1);
      u(p, 0) = re * mesh.points(p, 0) + std::pow(mesh.points(p, 1), 2);
    }
  mesh.point_data = {{"u", u}};
  io::write_vtk(mesh, file);
}

}  // namespace surrox::training::testing

#pragma once
// A small sweep dataset written directly (no solver): the training tests' fixture.
#include <filesystem>
#include <set>
#include <string>

#include "io/hdf5_sweep.hpp"

namespace surrox::training {

constexpr long kNi = 4, kNj = 3;

// 10 cases on a 4 × 3-cell grid whose points are shifted by the case index; cell fields area,
// pressure (= α + cell index), velocity (α, −cell, 0); parameters α and an airfoil name. With
// `unconverged` cases, every case also has the steady solver's `converged` result (0 for those).
inline std::filesystem::path make_sweep(const std::filesystem::path& dir,
                                        const std::set<std::size_t>& unconverged = {}) {
  const auto path = dir / "sweep.h5";
  io::SweepDatasetWriter writer(path, 10, "test", "test");
  for (std::size_t k = 0; k < 10; ++k) {
    io::SweepCase c;
    c.name = "case_000" + std::to_string(k);
    const double alpha = static_cast<double>(k);
    c.parameters = {{"solver.alpha_deg", std::to_string(k)},
                    {"airfoil", k % 5 == 0 ? "'0012'" : "'24" + std::to_string(k % 5) + "2'"}};
    c.results = {{"cl", 0.1 * alpha}};
    if (!unconverged.empty()) c.results["converged"] = unconverged.count(k) ? 0.0 : 1.0;
    c.mesh.kind = io::MeshKind::kStructured;
    c.mesh.extent = {0, kNi, 0, kNj, 0, 0};
    c.mesh.points = io::HostArray("p", (kNi + 1) * (kNj + 1), 3);
    for (long j = 0; j <= kNj; ++j)
      for (long i = 0; i <= kNi; ++i) {
        c.mesh.points(i + (kNi + 1) * j, 0) = i + alpha;
        c.mesh.points(i + (kNi + 1) * j, 1) = 2.0 * j;
      }
    io::HostArray area("area", kNi * kNj, 1), pressure("p", kNi * kNj, 1),
        velocity("v", kNi * kNj, 3);
    for (long cell = 0; cell < kNi * kNj; ++cell) {
      area(cell, 0) = 1.0 + cell;
      pressure(cell, 0) = alpha + cell;
      velocity(cell, 0) = alpha;
      velocity(cell, 1) = -cell;
    }
    c.mesh.cell_data = {{"area", area}, {"pressure", pressure}, {"velocity", velocity}};
    writer.write(k, c);
  }
  writer.close();
  return path;
}

}  // namespace surrox::training

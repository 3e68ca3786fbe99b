#include "apps/sweep_surface.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace surrox::apps {

void add_surface_arrays(const std::filesystem::path& case_dir, io::MeshData& mesh) {
  const std::filesystem::path path = case_dir / "surface.csv";
  if (mesh.kind != io::MeshKind::kStructured || !std::filesystem::exists(path)) return;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header: i,x_over_c,y_over_c,cp,cf,upper
  if (line.rfind("i,x_over_c,y_over_c,cp,cf", 0) != 0)
    throw Error(path.string() + ": not an airfoil surface file (header '" + line + "')");
  std::vector<double> cp, cf;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream row(line);
    std::string cell;
    std::vector<double> values;
    while (std::getline(row, cell, ',')) {
      try {
        values.push_back(std::stod(cell));
      } catch (const std::exception&) {
        throw Error(path.string() + ": cannot read '" + cell + "' as a number");
      }
    }
    if (values.size() < 5) throw Error(path.string() + ": a row with fewer than 5 columns");
    cp.push_back(values[3]);
    cf.push_back(values[4]);
  }
  const long ni = mesh.extent[1] - mesh.extent[0], nj = mesh.extent[3] - mesh.extent[2];
  if (static_cast<long>(cp.size()) != ni)
    throw Error(path.string() + ": " + std::to_string(cp.size()) + " wall faces for a grid of " +
                std::to_string(ni) + " cells around");
  io::HostArray wall_cp("wall_cp", ni * nj, 1), wall_cf("wall_cf", ni * nj, 1);
  for (long j = 0; j < nj; ++j)
    for (long i = 0; i < ni; ++i) {
      wall_cp(i + ni * j, 0) = cp[static_cast<std::size_t>(i)];
      wall_cf(i + ni * j, 0) = cf[static_cast<std::size_t>(i)];
    }
  mesh.cell_data.push_back({"wall_cp", wall_cp});
  mesh.cell_data.push_back({"wall_cf", wall_cf});
}

}  // namespace surrox::apps

// surrox mesh CASE: generate the grid of a case's `mesh:` section, write it as a VTK
// structured grid (OUT/grid.vts) with its metrics as cell data, and its quality report into
// summary.json. The case file holds one section, `mesh:` (see docs/case-reference.md):
//   mesh:
//     airfoil: {type: naca, digits: "2412"}
//     cells_around: 256
//     first_cell_height: 5e-4
// (`type: flat_plate` gives TMR's flat plate instead; the O-grid is the default type).
#include <spdlog/spdlog.h>

#include <chrono>

#include "apps/command.hpp"
#include "core/error.hpp"
#include "core/yaml_json.hpp"
#include "io/case_file.hpp"
#include "io/vtk_writer.hpp"
#include "mesh/grid_generator.hpp"
#include "mesh/grid_quality.hpp"

namespace surrox::apps {
namespace {

Schema mesh_case_schema() {
  Schema s("A mesh-only case: the grid that `surrox mesh` generates.");
  s.component("mesh", mesh::grid_registry(), "the grid: an airfoil O-grid or TMR's flat plate")
      .default_type(mesh::kDefaultGridType);
  return s;
}

// The grid as a VTK structured grid (i fastest), with the metrics as cell data.
io::MeshData to_mesh_data(const mesh::CurvilinearGrid& grid, const mesh::GridMetrics& m) {
  const long ni = grid.cells_i(), nj = grid.cells_j();
  io::MeshData data;
  data.kind = io::MeshKind::kStructured;
  data.extent = {0, ni, 0, nj, 0, 0};
  data.points = io::HostArray("points", (ni + 1) * (nj + 1), 3);
  for (long j = 0; j <= nj; ++j)
    for (long i = 0; i <= ni; ++i) {
      const long p = i + (ni + 1) * j;
      data.points(p, 0) = grid.x(i, j);
      data.points(p, 1) = grid.y(i, j);
      data.points(p, 2) = 0.0;
    }
  auto cell_array = [&](const std::string& name, const mesh::HostMatrix& a) {
    io::NamedArray array{name, io::HostArray(name, ni * nj, 1)};
    for (long j = 0; j < nj; ++j)
      for (long i = 0; i < ni; ++i) array.values(i + ni * j, 0) = a(i, j);
    data.cell_data.push_back(std::move(array));
  };
  cell_array("area", m.area);
  cell_array("wall_distance", m.wall_distance);
  io::NamedArray centroid{"centroid", io::HostArray("centroid", ni * nj, 3)};
  for (long j = 0; j < nj; ++j)
    for (long i = 0; i < ni; ++i) {
      centroid.values(i + ni * j, 0) = m.xc(i, j);
      centroid.values(i + ni * j, 1) = m.yc(i, j);
      centroid.values(i + ni * j, 2) = 0.0;
    }
  data.cell_data.push_back(std::move(centroid));
  return data;
}

class MeshCommand final : public Command {
 public:
  std::string name() const override { return "mesh"; }
  std::string description() const override {
    return "Generate the grid of a case's mesh: section (an airfoil O-grid or the flat plate); "
           "writes grid.vts (metrics as "
           "cell data) and the grid quality into summary.json";
  }
  void configure(CLI::App& app) override {
    app.add_option("case", case_path_, "case file (YAML) with a mesh: section")->required();
    app.add_option("--set", overrides_, "override a case key after the file")
        ->type_name("KEY.PATH=VALUE");
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("mesh-", case_path_.empty() ? "CASE" : case_path_);
  }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    if (runtime.size() > 1) throw InputError("mesh runs on one rank; start it without mpirun");
    const io::CaseFile case_file = io::load_case(case_path_, mesh_case_schema(), overrides_);
    const CaseNode section = case_file.root.section("mesh");
    const auto t0 = std::chrono::steady_clock::now();
    const auto generator = mesh::make_grid_generator(section);
    const mesh::CurvilinearGrid grid = generator->build();
    const auto t1 = std::chrono::steady_clock::now();
    const mesh::GridMetrics metrics = mesh::compute_metrics(grid);
    const mesh::GridQuality quality = mesh::grid_quality(grid);
    const auto t2 = std::chrono::steady_clock::now();
    std::filesystem::create_directories(output_dir);
    const std::filesystem::path path = output_dir / "grid.vts";
    io::write_vtk(to_mesh_data(grid, metrics), path);
    spdlog::info("{} × {} {}, min area {:.3g}, max skewness {:.3f} → {}", grid.cells_i(),
                 grid.cells_j(), generator->description(), quality.min_area.value,
                 quality.max_skewness.value, path.string());
    nlohmann::json report = generator->report();
    report["type"] = section.type();
    report["cells_i"] = grid.cells_i();
    report["cells_j"] = grid.cells_j();
    results["grid"] = report;
    results["quality"] = mesh::to_json(quality);
    results["seconds"] = {{"generate", std::chrono::duration<double>(t1 - t0).count()},
                          {"metrics_and_quality", std::chrono::duration<double>(t2 - t1).count()}};
    results["files_written"] = {path.string()};
    return yaml_to_json(case_file.root.yaml());
  }

 private:
  std::string case_path_;
  std::vector<std::string> overrides_;
};

}  // namespace

std::unique_ptr<Command> make_mesh_command() { return std::make_unique<MeshCommand>(); }

}  // namespace surrox::apps

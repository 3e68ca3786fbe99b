#include "mesh/grid_generator.hpp"

#include <fmt/format.h>

#include "mesh/airfoil_grid.hpp"
#include "mesh/flat_plate_grid.hpp"

namespace surrox::mesh {
namespace {

class OGridGenerator final : public GridGenerator {
 public:
  explicit OGridGenerator(const CaseNode& section) : section_(section) {}
  long cells_i() const override { return section_.integer("cells_around"); }
  long cells_j() const override { return section_.integer("cells_normal"); }
  CurvilinearGrid build() override { return build_airfoil_grid(section_, &info_); }
  std::string description() const override {
    return fmt::format("O-grid, growth ratio {:.4f}", info_.growth_ratio);
  }
  nlohmann::json report() const override {
    return {{"chord", info_.chord},
            {"center", {info_.center_x, info_.center_y}},
            {"growth_ratio", info_.growth_ratio},
            {"relaxed_layers", info_.relaxed_layers}};
  }
  std::map<std::string, double> descriptors() const override {
    return named_descriptors(info_.shape);
  }

 private:
  CaseNode section_;
  AirfoilGridInfo info_;
};

class FlatPlateGenerator final : public GridGenerator {
 public:
  explicit FlatPlateGenerator(const CaseNode& section)
      : section_(section), spec_(flat_plate_grid_spec(section)) {}
  long cells_i() const override { return spec_.cells_upstream + spec_.cells_plate; }
  long cells_j() const override { return spec_.cells_normal; }
  CurvilinearGrid build() override { return build_flat_plate_grid(section_); }
  std::string description() const override { return "flat-plate rectangle"; }
  nlohmann::json report() const override {
    return {{"cells_upstream", spec_.cells_upstream},
            {"cells_plate", spec_.cells_plate},
            {"x_inflow", spec_.x_inflow},
            {"x_outflow", spec_.x_outflow},
            {"height", spec_.height}};
  }

 private:
  CaseNode section_;
  FlatPlateGridSpec spec_;
};

}  // namespace

const GridRegistry& grid_registry() {
  static const GridRegistry registry = [] {
    GridRegistry r("grid");
    r.add("o_grid",
          {[](const CaseNode& s) { return std::make_unique<OGridGenerator>(s); },
           airfoil_mesh_schema(), "body-fitted O-grid marched around an airfoil (default)"});
    r.add("flat_plate",
          {[](const CaseNode& s) { return std::make_unique<FlatPlateGenerator>(s); },
           flat_plate_mesh_schema(),
           "TMR's zero-pressure-gradient flat plate: a rectangle with symmetry plane and wall"});
    return r;
  }();
  return registry;
}

std::unique_ptr<GridGenerator> make_grid_generator(const CaseNode& mesh_section) {
  return grid_registry().create(mesh_section.type(), mesh_section);
}

}  // namespace surrox::mesh

#pragma once
// The grids of the airfoil solver's `mesh:` section, by `type` (a registry: a new topology is
// one entry): `o_grid`, the O-grid marched around an airfoil (the type when the section names
// none, so every airfoil case reads as before), and `flat_plate`, TMR's rectangular
// zero-pressure-gradient plate. The solver, `surrox mesh` and the warm-start coupler build their
// grids through it.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "mesh/curvilinear_grid.hpp"

namespace surrox::mesh {

class GridGenerator {
 public:
  virtual ~GridGenerator() = default;
  // Cells in i and j, known before build() (a decomposition is checked before the grid is made).
  virtual long cells_i() const = 0;
  virtual long cells_j() const = 0;
  virtual CurvilinearGrid build() = 0;
  // After build(): what the generator did, for logs and summary.json.
  virtual std::string description() const = 0;
  virtual nlohmann::json report() const = 0;
  // After build(): named shape descriptors of the body (surrogate inputs in a sweep dataset).
  virtual std::map<std::string, double> descriptors() const { return {}; }
};

using GridRegistry = Registry<GridGenerator, const CaseNode&>;
inline constexpr const char* kDefaultGridType = "o_grid";

const GridRegistry& grid_registry();

// The generator of a validated `mesh:` section.
std::unique_ptr<GridGenerator> make_grid_generator(const CaseNode& mesh_section);

}  // namespace surrox::mesh

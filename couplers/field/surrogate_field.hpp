#pragma once
// A surrogate's prediction of the steady airfoil field on a case's own grid. The per-cell
// inputs are built in the order of the model's metadata input names from what the case has:
//   centroid_x, centroid_y  the mean of the cell's four nodes (as training datasets compute them)
//   wall_distance, cell_area  the grid metrics (mesh/curvilinear_grid.hpp)
//   grid_i_cos, grid_i_sin, grid_j  the cell's place in the (i, j) grid
//   (surrogates/grid_channels.hpp) any other name            a numeric case parameter by key path
//   (solver.alpha_deg, solver.mach)
//                             or a shape descriptor (airfoil_camber, ...; mesh::named_descriptors)
// The model must output [density, velocity[0], velocity[1], pressure] (velocity[2] may follow
// velocity[1]), or Cp in place of pressure: p = p∞ + Cp/2 in the solver's units (q∞ = ½), with p∞
// of the case; a last output nu_t (a RANS model: the kinematic eddy viscosity) is carried along
// for the turbulence model's warm start. Cp is the better target across Mach numbers: p∞ = 1/(γM²)
// varies 3× between M = 0.3 and 0.5, which a per-point network interpolates poorly from a few Mach
// values. A model that does not fit (inputs the case cannot provide, other outputs, a grid network
// trained on another grid) is an InputError saying why (Surrogate::check_fits).
#include <map>
#include <string>
#include <vector>

#include "couplers/field/field_guard.hpp"
#include "mesh/curvilinear_grid.hpp"
#include "surrogates/surrogate.hpp"

namespace surrox::couplers {

// Per-cell channels of one case: ni × nj arrays (i, j) by name, and scalar parameters.
struct CaseChannels {
  std::map<std::string, mesh::HostMatrix> cell;
  std::map<std::string, double> parameters;
  double freestream_pressure = 0;  // p∞ of the case, for models that predict Cp
};

CaseChannels airfoil_case_channels(const mesh::CurvilinearGrid& grid,
                                   const mesh::GridMetrics& metrics,
                                   std::map<std::string, double> parameters);

// The model's inputs this case provides, after Surrogate::check_fits (InputError saying why when
// the model does not fit).
std::vector<std::string> fitted_inputs(const surrogates::Surrogate& model,
                                       const CaseChannels& channels, long ni, long nj);

// Predicts ρ, u, v, p (physical units) and ν_t where the model has it on the ni × nj cells; no
// guard applied.
PrimitiveField predict_primitive(surrogates::Surrogate& model, const CaseChannels& channels,
                                 long ni, long nj);

}  // namespace surrox::couplers

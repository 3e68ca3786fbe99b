#pragma once
// One grid level of the airfoil solver on this rank's slab: its parameters, geometry, the
// conservative and primitive state, and the arrays the residual writes and the smoother and
// the multigrid cycle read. The finest level holds the solution; the coarser ones are the FAS
// levels (first order, with a forcing term).
#include <array>
#include <map>
#include <memory>
#include <string>

#include "solvers/airfoil/airfoil_parameters.hpp"
#include "solvers/airfoil/slab.hpp"
#include "solvers/airfoil/slab_geometry.hpp"
#include "solvers/airfoil/smoother.hpp"
#include "solvers/airfoil/turbulence.hpp"
#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

struct FlowLevel {
  // Checks the parameters (InputError), builds the geometry of `slab` and the smoother, and
  // allocates the arrays; the state is left zero.
  FlowLevel(const AirfoilParameters& parameters, const mesh::CurvilinearGrid& grid, Slab slab);
  FlowLevel(FlowLevel&&) = default;
  FlowLevel& operator=(FlowLevel&&) = default;

  long ni() const { return slab.ni(); }
  long rows() const { return slab.rows(); }

  void set_freestream();     // U and W of the uniform free stream
  void update_primitives();  // W ← W(U) on the slab's own rows
  // Throws Error, on every rank together, when a cell has ρ ≤ 0, p ≤ 0 or a non-finite value;
  // names the worst cell of all ranks. `iteration` and `residual` only go into the message.
  void check_state(long iteration, double residual) const;
  // min(ρ, p/p∞) over the cells of all ranks, −∞ if a value is not finite (collective): the
  // state is admissible when it is positive.
  double worst_state() const;
  // The smoother's update of U, then W and the state check: one smoothing step.
  void smooth(double cfl, long iteration, double residual);

  AirfoilParameters parameters;  // checked; linear_fix resolved
  Slab slab;
  SlabGeometry geometry;
  ChordLine chord_line;
  HostMatrix grid_x, grid_y;                 // nodes (i, j), whole grid
  HostMatrix cell_area, cell_wall_distance;  // (i, j), whole grid, for output
  bool viscous = false;                      // navier_stokes or rans
  bool turbulent = false;                    // rans: ν̃ and the eddy viscosity (turbulence.hpp)
  // The grid's topology: an O-grid is periodic in i; a rectangle (flat plate) has open i ends
  // and a symmetry plane on j = 0 before face wall_begin.
  bool periodic = true;
  long wall_begin = 0;
  double alpha = 0;  // radians
  double p_inf = 0;  // 1/(γM²)
  double mu = 0;     // chord / Re of this level's chord line; 0 for Euler
  // RANS: ν̃∞ = ratio · ν∞, S/T∞ of Sutherland's law (μ = mu · f(θ/θ∞), θ∞ = p_inf).
  double nu_tilde_inf = 0, sutherland_ratio = 0;

  Array3 u;    // conservative, (4, nl, ni)
  Array3 w;    // primitive with two ghost rows each end, (4, nl + 4, ni), row j + 2
  Array3 res;  // residual R = Σ_faces (F − F_v)·S (+ forcing), (4, nl, ni)
  // i-faces (4, nl, ni + 1), (nl, ni + 1): face ni is face 0 on an O-grid (not computed there).
  Array3 flux_i;
  Array3 flux_j;              // j-face fluxes (4, nl + 1, ni)
  Array2 lambda_i, lambda_j;  // ½λ (convective) per face: (nl, ni + 1), (nl + 1, ni)
  Array2 lambda_viscous_i, lambda_viscous_j;  // viscous spectral radii per face
  Array2 node_u, node_v, node_theta;          // node values (nl + 1, ni + 1) for viscous gradients
  Array2 wall_viscous_x, wall_viscous_y;      // viscous part of the wall flux, (1, ni)
  GhostRows w_ghosts;                         // the two ghost rows of w at slab edges
  // RANS: ν̃ with two ghost rows each end, (1, nl + 4, ni), row j + 2 (frozen on coarse
  // levels, restricted from the fine one), and the fine level's transport solver.
  Array3 nu_tilde;
  GhostRows nu_ghosts;
  std::unique_ptr<TurbulenceSolver> turbulence;

  // FAS (coarse levels only): the forcing P added to the residual, U restricted from the finer
  // level, and U − U⁰ with one ghost row each end, (4, nl + 2, ni), row j + 1.
  Array3 forcing, u_start, correction;
  GhostRows correction_ghosts;

  double circulation = 0;  // Γ = ½ Cl c of the vortex far field
  // Of the last residual, global: L2 norms of R_k/V, and the wall force sums (pressure x, y,
  // friction x, y, moment about the quarter chord).
  std::array<double, 4> absolute_residual{0, 0, 0, 0};
  std::array<double, 5> wall_force{0, 0, 0, 0, 0};
  std::map<std::string, double> phase_seconds;
  std::unique_ptr<Smoother> smoother;
};

}  // namespace surrox::solvers::airfoil

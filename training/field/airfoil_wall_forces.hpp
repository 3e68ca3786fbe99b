#pragma once
// Lift and drag of an airfoil integrated from cell fields, as AirfRANS scores a field surrogate
// (Bonnet et al., NeurIPS 2022: the forces of the predicted fields against those of the CFD
// fields): the pressure force −(p_w − p∞) S and the viscous traction τ_w·S summed over the wall
// faces of an O-grid, with p_w the first cell's pressure (the wall ghost mirrors it) and the
// thin-layer wall stress τ_w·n = μ_w (∂u/∂n + ⅓ n (n·∂u/∂n)), ∂u/∂n = u₁/d₁ (no slip: the
// first cell's velocity over its centroid's distance from the face). Units are the airfoil
// solver's: ρ∞ = 1, |u∞| = 1, p∞ = 1/(γM²), μ∞ = c/Re. No torch: tests compare it with the
// solver's own wall forces (tests/training/airfoil_wall_forces_test.cpp).
#include <vector>

namespace surrox::training {

struct FreeStream {
  double mach = 0, alpha_deg = 0;
  double reynolds = 0;          // 0: inviscid (no friction)
  double sutherland_ratio = 0;  // S/T∞ of Sutherland's law (RANS); 0: constant μ (laminar)
};

// The wall of a structured O-grid and its first cell row: nodes i = 0..ni on j = 0 (node ni
// closes the loop), the nodes of row j = 1 (for the cells' centroids), and the first row's
// primitive state (density, velocity, pressure) per cell i.
struct WallRow {
  std::vector<double> x0, y0, x1, y1;  // ni + 1 nodes each
  std::vector<double> rho, u, v, p;    // ni cells
};

struct ForceCoefficients {
  double cl = 0, cd = 0, cd_pressure = 0, cd_friction = 0;
};

// The coefficients over the chord the solver uses (trailing-edge node 0 to the farthest wall
// node) and ½ρ∞|u∞|²c. Throws InputError on inconsistent sizes or a non-positive density.
ForceCoefficients wall_force_coefficients(const WallRow& wall, const FreeStream& stream);

}  // namespace surrox::training

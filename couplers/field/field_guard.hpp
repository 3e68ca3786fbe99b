#pragma once
// The warm-start guard: a predicted primitive field (ρ, u, v, p on the ni × nj cells of an
// airfoil grid, host memory, index (i, j) like the grid metrics, the airfoil solver's units:
// ρ∞ = 1, |u∞| = 1, p∞ = 1/(γM²)) may hold cells the solver cannot start from. Every cell with a
// non-finite value, ρ ≤ 0 or p ≤ 0 gets the free stream in all four variables (and a non-finite
// ν_t of a RANS model becomes 0, no eddy viscosity); the report
// counts them by reason (a cell can have several reasons; `repaired` counts cells).
#include "mesh/curvilinear_grid.hpp"

namespace surrox::couplers {

struct PrimitiveField {
  mesh::HostMatrix rho, u, v, p;  // ni × nj, owned (Kokkos host Views)
  mesh::HostMatrix nu_t;  // kinematic eddy viscosity of a RANS model; empty (size 0) if none
};

struct GuardReport {
  long cells = 0;
  long repaired = 0;
  long nonfinite = 0;
  long nonpositive_density = 0;
  long nonpositive_pressure = 0;
};

GuardReport repair_unphysical(PrimitiveField& field, double mach, double alpha_deg,
                              double gamma = 1.4);

}  // namespace surrox::couplers

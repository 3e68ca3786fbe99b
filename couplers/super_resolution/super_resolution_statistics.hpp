#pragma once
// The flow statistics the super-resolution comparison reports for a 2D Rayleigh–Bénard series
// of cell-centred fields on a uniform grid (p, b, u, w; [4, T, Z, X]), time-averaged with
// trapezoid weights over the frames at t ≥ from: Nusselt numbers (walls as the solver computes
// them, from the first cell; volume 1 + √(RaPr)⟨wb⟩), kinetic energy ½⟨u² + w²⟩, the thermal
// and viscous dissipation rates κ⟨|∇b|²⟩ and ν⟨|∇u|²⟩ (differences between neighbouring
// centres, wall half-cells against b = ±½ and u = w = 0), the horizontally averaged buoyancy
// profile and the horizontal spectra of kinetic energy and buoyancy variance.
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

namespace surrox::couplers {

struct RbFlowStatistics {
  std::map<std::string, double> figures;  // nu_bottom, nu_top, nu_wall, nu_volume, nu_thermal,
                                          // nu_kinetic, kinetic_energy, thermal_dissipation,
                                          // viscous_dissipation
  std::vector<double> profile;            // ⟨b⟩(z) at the cell centres
  std::vector<double> kinetic_spectrum;   // E(k), k = 0 … X/2 (Σ_k E = ½⟨u² + w²⟩)
  std::vector<double> buoyancy_spectrum;  // of b − ⟨b⟩_x (Σ_k = ½⟨b'²⟩)
};

// Trapezoid weights (summing to 1) of the frames at t ≥ from; all frames when fewer than two
// are in the window.
std::vector<double> window_weights(const std::vector<double>& times, double from);

RbFlowStatistics rb_flow_statistics(const torch::Tensor& fields, const std::vector<double>& weights,
                                    double lx, double rayleigh, double prandtl);

// The share of kinetic energy at wavenumbers above `cutoff` (index units).
double spectrum_share_above(const std::vector<double>& spectrum, long cutoff);

}  // namespace surrox::couplers

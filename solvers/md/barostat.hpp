#pragma once
// Constant pressure by stochastic cell rescaling (C-rescale: Bernetti & Bussi, J. Chem. Phys.
// 153, 114107 (2020); per axis as Del Tatto, Raiteri, Bernetti & Bussi, Appl. Sci. 12, 1139
// (2022)): a first-order barostat whose noise term gives the isothermal–isobaric ensemble's
// volume fluctuations, so that averages and fluctuations both are NPT's. At the start of each
// step, from the virial of the current positions, the logarithm of the volume (isotropic) or
// of each box length (axes) takes an Euler–Maruyama step driven by the target pressure minus
// the internal one, and the owned atoms are scaled with the box about its lower corner. The
// internal pressure is the virial plus the ideal-gas term N k_B T/V at the thermostat's temperature
// (positions are scaled, velocities are not, so the thermostat keeps them canonical); the drift is
// the one that makes exp(-(U + P V)/k_B T) V^N stationary. The noise is counter-based (seed, step),
// the same on every rank and after a restart.
#include <array>

#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "solvers/md/md_system.hpp"

namespace surrox::solvers::md {

class CellRescaleBarostat {
 public:
  static Schema schema();
  // `section`: the case's `barostat` section; `temperature`: the thermostat's target.
  void setup(const CaseNode& section, const Units& units, double temperature, long natoms,
             double dt);
  bool active() const { return active_; }
  // The box after one step from `box`, given the virial's diagonal Σ x_d f_d (energy units,
  // summed over all ranks) of the current configuration; identical on every rank.
  Box next_box(const Box& box, const std::array<double, 3>& virial, long step) const;
  // The internal pressure along each axis the barostat sees (pressure units).
  std::array<double, 3> internal_pressure(const Box& box,
                                          const std::array<double, 3>& virial) const;

 private:
  bool active_ = false, per_axis_ = false;
  double pressure_ = 0;         // target, energy / volume
  double compressibility_ = 0;  // volume / energy
  double damping_ = 1, dt_ = 0, kt_ = 0, nktv2p_ = 1;
  long natoms_ = 0, seed_ = 1;
};

// Scales the owned atoms' positions with the box: x_d → lo_d + (x_d − lo_d) · L'_d / L_d.
void scale_atoms(System& s, const Box& from, const Box& to);

}  // namespace surrox::solvers::md

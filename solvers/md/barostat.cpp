#include "solvers/md/barostat.hpp"

#include <cmath>

#include "solvers/md/counter_noise.hpp"

namespace surrox::solvers::md {

Schema CellRescaleBarostat::schema() {
  Schema b(
      "Constant pressure (stochastic cell rescaling, Bernetti & Bussi 2020): the box follows the "
      "pressure with the right NPT volume fluctuations. Needs a thermostat (integrator.style "
      "langevin or nose_hoover), whose temperature it uses; thermo gains the volume and box "
      "lengths that change.");
  b.choice("style", {"none", "c_rescale"}, "`none`: constant volume").fallback("none");
  b.real("pressure", "target pressure (pressure units: bar in metal, reduced in lj)").fallback("0");
  b.choice("couple", {"isotropic", "axes"},
           "`isotropic`: one volume, the shape kept (LAMMPS fix npt iso); `axes`: each box "
           "length follows its own diagonal pressure (fix npt aniso)")
      .fallback("isotropic");
  b.real("damping", "relaxation time of the volume (time units), ~100-1000 steps")
      .above(0)
      .fallback("1.0");
  b.real("compressibility",
         "estimate of the isothermal compressibility (1/pressure units, e.g. 1e-6 /bar for "
         "silicon, 0.1 for the LJ liquid); it sets how fast the volume relaxes, not the ensemble")
      .above(0)
      .optional();
  b.integer("seed", "noise seed").at_least(1).fallback("39211");
  return b;
}

void CellRescaleBarostat::setup(const CaseNode& section, const Units& units, double temperature,
                                long natoms, double dt) {
  active_ = section.string("style") == "c_rescale";
  if (!active_) return;
  if (!section.has("compressibility"))
    section.fail("compressibility",
                 "c_rescale needs an estimate of the isothermal compressibility (1/pressure "
                 "units): it sets the volume's relaxation rate");
  per_axis_ = section.string("couple") == "axes";
  nktv2p_ = units.nktv2p;
  pressure_ = section.real("pressure") / nktv2p_;
  compressibility_ = section.real("compressibility") * nktv2p_;
  damping_ = section.real("damping");
  seed_ = section.integer("seed");
  kt_ = units.boltz * temperature;
  natoms_ = natoms;
  dt_ = dt;
}

std::array<double, 3> CellRescaleBarostat::internal_pressure(
    const Box& box, const std::array<double, 3>& virial) const {
  const double volume = box.volume();
  const double ideal = static_cast<double>(natoms_) * kt_;
  std::array<double, 3> p{};
  for (int d = 0; d < 3; ++d) p[d] = (virial[d] + ideal) / volume * nktv2p_;
  return p;
}

Box CellRescaleBarostat::next_box(const Box& box, const std::array<double, 3>& virial,
                                  long step) const {
  const double volume = box.volume();
  const double ideal = static_cast<double>(natoms_) * kt_;
  // Per axis each log length carries a third of the isotropic log volume's mobility, so both
  // couplings relax the volume alike.
  const double share = per_axis_ ? 1.0 / 3.0 : 1.0;
  const double drift = compressibility_ * share / damping_ * dt_;
  const double spread = std::sqrt(2.0 * kt_ * compressibility_ * share / (volume * damping_) * dt_);
  std::array<double, 3> log_stretch{};
  if (per_axis_) {
    for (int d = 0; d < 3; ++d) {
      const double inside = (virial[d] + ideal) / volume;
      log_stretch[d] = -drift * (pressure_ - inside) + spread * stream_gaussian(seed_, step, d);
    }
  } else {
    const double inside = ((virial[0] + virial[1] + virial[2]) / 3.0 + ideal) / volume;
    const double log_volume =
        -drift * (pressure_ - inside) + spread * stream_gaussian(seed_, step, 0);
    log_stretch.fill(log_volume / 3.0);
  }
  Box next = box;
  for (int d = 0; d < 3; ++d) next.hi[d] = box.lo[d] + box.length(d) * std::exp(log_stretch[d]);
  return next;
}

void scale_atoms(System& s, const Box& from, const Box& to) {
  const double lo0 = from.lo[0], lo1 = from.lo[1], lo2 = from.lo[2];
  const double s0 = to.length(0) / from.length(0), s1 = to.length(1) / from.length(1),
               s2 = to.length(2) / from.length(2);
  auto x = s.x;
  Kokkos::parallel_for(
      "md::scale_atoms", s.nlocal, KOKKOS_LAMBDA(long i) {
        x(i, 0) = lo0 + (x(i, 0) - lo0) * s0;
        x(i, 1) = lo1 + (x(i, 1) - lo1) * s1;
        x(i, 2) = lo2 + (x(i, 2) - lo2) * s2;
      });
}

}  // namespace surrox::solvers::md

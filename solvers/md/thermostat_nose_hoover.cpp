// Nosé–Hoover thermostat, a single one (chain length 1, Q = dof k_B T₀ τ²): half steps of the
// friction η̇ and velocity scalings by exp(−η̇ Δt/2) at both ends of the velocity-Verlet step.
#include <cmath>
#include <memory>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/md/thermostat.hpp"

namespace surrox::solvers::md {
namespace {

class NoseHooverThermostat final : public Thermostat {
 public:
  NoseHooverThermostat(const CaseNode& c, const ThermostatContext& run)
      : run_(run), t_target_(c.real("temperature")), damping_(c.real("damping")) {}

  void half_step(System& s) override {
    const double half = 0.5 * run_.dt;
    const double q = run_.dof * run_.units.boltz * t_target_ * damping_ * damping_;
    const double ke2 = sum_mv2(s, run_.comm) * run_.units.mvv2e;
    eta_dot_ += half * (ke2 - run_.dof * run_.units.boltz * t_target_) / q;
    eta_ += half * eta_dot_;
    const double factor = std::exp(-half * eta_dot_);
    auto v = s.v;
    Kokkos::parallel_for(
        "md::nose_hoover_scale", s.nlocal, KOKKOS_LAMBDA(long i) {
          v(i, 0) *= factor;
          v(i, 1) *= factor;
          v(i, 2) *= factor;
        });
  }

  void save_state(io::Hdf5Checkpoint& c) const override {
    c.scalars["md_eta"] = eta_;
    c.scalars["md_eta_dot"] = eta_dot_;
  }
  void load_state(const io::Hdf5Checkpoint& c) override {
    eta_ = c.scalar("md_eta");
    eta_dot_ = c.scalar("md_eta_dot");
  }

  void add_diagnostics(Diagnostics& d) const override {
    d["nose_hoover_eta"] = eta_;
    d["nose_hoover_eta_dot"] = eta_dot_;
    // The conserved quantity of the extended system, in thermo's energy units.
    const double kt = run_.dof * run_.units.boltz * t_target_;
    const double q = kt * damping_ * damping_;
    const double scale = run_.units.normalize ? 1.0 / static_cast<double>(run_.natoms) : 1.0;
    d["nose_hoover_conserved"] = d["e_total"] + (kt * eta_ + 0.5 * q * eta_dot_ * eta_dot_) * scale;
  }

 private:
  ThermostatContext run_;
  double t_target_, damping_;
  double eta_ = 0, eta_dot_ = 0;  // the thermostat's position and velocity
};

}  // namespace

std::unique_ptr<Thermostat> make_nose_hoover_thermostat(const CaseNode& c,
                                                        const ThermostatContext& run) {
  return std::make_unique<NoseHooverThermostat>(c, run);
}

}  // namespace surrox::solvers::md

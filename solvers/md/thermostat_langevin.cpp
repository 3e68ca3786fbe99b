// Langevin thermostat with LAMMPS fix langevin's force formula (a friction −m v/τ and a uniform
// random force of the matching variance) and surrox's counter-based noise.
#include <cmath>
#include <memory>

#include "solvers/md/counter_noise.hpp"
#include "solvers/md/thermostat.hpp"

namespace surrox::solvers::md {
namespace {

class LangevinThermostat final : public Thermostat {
 public:
  LangevinThermostat(const CaseNode& c, const ThermostatContext& run)
      : run_(run),
        t_target_(c.real("temperature")),
        damping_(c.real("damping")),
        seed_(c.integer("seed")) {}

  void add_forces(System& s, long step) override {
    // Plain numbers only in the kernel (Units holds a string).
    const double ftm2v = run_.units.ftm2v, boltz = run_.units.boltz, mvv2e = run_.units.mvv2e;
    const double t_period = damping_, dt = run_.dt, tsqrt = std::sqrt(t_target_);
    const long seed = seed_;
    auto v = s.v;
    auto f = s.f;
    auto type = s.type;
    auto mass = s.mass;
    auto tag = s.tag;
    Kokkos::parallel_for(
        "md::langevin", s.nlocal, KOKKOS_LAMBDA(long i) {
          const double m = mass(type(i));
          const double gamma1 = -m / t_period / ftm2v;
          const double gamma2 = sqrt(m) * sqrt(24.0 * boltz / t_period / dt / mvv2e) / ftm2v;
          for (int d = 0; d < 3; ++d)
            f(i, d) +=
                gamma1 * v(i, d) + gamma2 * tsqrt * (hash_uniform(seed, tag(i), step, d) - 0.5);
        });
  }

 private:
  ThermostatContext run_;
  double t_target_, damping_;
  long seed_;
};

}  // namespace

std::unique_ptr<Thermostat> make_langevin_thermostat(const CaseNode& c,
                                                     const ThermostatContext& run) {
  return std::make_unique<LangevinThermostat>(c, run);
}

}  // namespace surrox::solvers::md

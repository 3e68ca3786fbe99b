#include "solvers/md/thermostat.hpp"

namespace surrox::solvers::md {

std::unique_ptr<Thermostat> make_langevin_thermostat(const CaseNode& c,
                                                     const ThermostatContext& run);
std::unique_ptr<Thermostat> make_nose_hoover_thermostat(const CaseNode& c,
                                                        const ThermostatContext& run);

namespace {

// Constant energy: velocity Verlet alone.
class NoThermostat final : public Thermostat {
 public:
  bool holds_temperature() const override { return false; }
};

}  // namespace

const ThermostatRegistry& thermostat_registry() {
  // The keys (temperature, damping, seed) are the integrator section's, shared by all styles.
  static const ThermostatRegistry registry = [] {
    ThermostatRegistry r("integrator style");
    r.add("nve", {[](const CaseNode&, const ThermostatContext&) {
                    return std::make_unique<NoThermostat>();
                  },
                  Schema("constant energy"), "velocity Verlet, constant energy"});
    r.add("langevin", {make_langevin_thermostat, Schema("Langevin"),
                       "Langevin thermostat (LAMMPS fix langevin's forces)"});
    r.add("nose_hoover", {make_nose_hoover_thermostat, Schema("Nosé–Hoover"),
                          "Nosé–Hoover thermostat, chain length 1"});
    return r;
  }();
  return registry;
}

double sum_mv2(const System& s, MPI_Comm comm) {
  auto v = s.v;
  auto type = s.type;
  auto mass = s.mass;
  double sum = 0;
  Kokkos::parallel_reduce(
      "md::mv2", s.nlocal,
      KOKKOS_LAMBDA(long i, double& acc) {
        acc += mass(type(i)) * (v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2));
      },
      sum);
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return sum;
}

}  // namespace surrox::solvers::md

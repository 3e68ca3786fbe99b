#pragma once
// The molecular-dynamics solver ("md"): atoms from a LAMMPS data file or a lattice, a
// registered pair potential (lj/cut, sw), ghost atoms and Verlet lists (NeighborList),
// velocity-Verlet NVE with optional Langevin or Nosé–Hoover thermostats and a stochastic
// cell-rescaling barostat (barostat.hpp), and LAMMPS thermo (step, temp, pe, ke, etotal, press,
// vol, lx, ly, lz with LAMMPS's definitions and normalisation).
// Spatial decomposition over the MPI ranks (NeighborList); the state lives in Kokkos Views of
// the default execution space.
#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "solvers/md/barostat.hpp"
#include "solvers/md/data_file.hpp"
#include "solvers/md/force_tally.hpp"
#include "solvers/md/md_output.hpp"
#include "solvers/md/neighbor_list.hpp"
#include "solvers/md/potential.hpp"
#include "solvers/md/thermostat.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers::md {

struct ThermoRow {
  long step = 0;
  double temp = 0, e_pair = 0, e_kin = 0, e_total = 0, press = 0;
  double vol = 0, lx = 0, ly = 0, lz = 0;  // the box (changes under a barostat)
};

class MdSolver final : public Solver {
 public:
  static Schema schema();

  void initialize(const CaseNode& config, Runtime& runtime) override;
  StepReport advance() override;
  bool finished() const override { return step_ >= steps_; }
  double progress() const override {
    return steps_ > 0 ? static_cast<double>(step_) / steps_ : 1.0;
  }
  double residual() const override { return residual_; }
  double time() const override { return static_cast<double>(step_) * dt_; }
  long step() const override { return step_; }
  FieldSet& state() override { return state_; }
  Diagnostics diagnostics() const override;
  io::MeshData output_mesh() const override;
  Diagnostics monitor() const override;
  std::map<std::string, double> phase_times() const override;
  bool supports_restart() const override { return true; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;
  void finalize(const std::filesystem::path& output_dir, nlohmann::json& results) override;

  // Thermo of the current state (computes energies if this step did not).
  ThermoRow thermo() const;
  const std::vector<ThermoRow>& thermo_rows() const { return rows_; }
  const System& system() const { return system_; }
  const NeighborList& neighbors() const { return neighbors_; }
  long natoms() const { return natoms_; }  // over all ranks
  // All atoms, gathered on rank 0 (empty elsewhere); collective.
  AtomData gather() const;
  double pair_cutoff() const;
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  // `use` sees the system with the potential's own forces of this step (a thermostat's share
  // left out), the per-atom virial and the potential energy; the step's forces are put back
  // after, so the trajectory is unchanged (the DeePMD frames' labels). Collective.
  void with_potential_labels(
      const std::function<void(const System&, const VirialView&, double)>& use);

 private:
  // Forces; with `energy`, energy and virial (and per-atom values when asked for).
  void compute_forces(bool energy);
  void tally_keeping_forces();  // energies (and per-atom values) of this step; f unchanged
  ThermoRow measure_thermo();
  double mv2() const;  // Σ m v² over owned atoms
  void rescale_box();  // the barostat's step: box and owned atoms
  void check_forces();

  System system_;
  NeighborList neighbors_;
  std::unique_ptr<Potential> potential_;
  double dt_ = 0.005, residual_ = 0;
  long step_ = 0, steps_ = 0, thermo_every_ = 10, neigh_every_ = 1;
  bool neigh_check_ = true;
  std::unique_ptr<Thermostat> thermostat_;
  CellRescaleBarostat barostat_;
  std::array<double, 3> virial_diagonal_{};  // Σ x_d f_d of the last forces (barostat runs)
  double energy_ = 0, virial_ = 0;
  long energy_step_ = -1;  // step at which energy_ and virial_ were computed
  bool per_atom_ = false;
  RealView eatom_;           // per-atom energy (owned rows valid after a tally)
  VirialView vatom_;         // per-atom virial
  long per_atom_step_ = -1;  // step at which eatom_ and vatom_ were computed
  std::vector<ThermoRow> rows_;
  // The outputs (md_output.hpp): those that only read the step's state first.
  std::vector<std::unique_ptr<MdOutput>> outputs_;
  std::map<std::string, double> phase_seconds_;
  double dof_ = 0;
  long natoms_ = 0;
  MPI_Comm comm_ = MPI_COMM_SELF;
  int rank_ = 0;
  long seen_builds_ = 0;
  void refresh_state();
  FieldSet state_;
};

}  // namespace surrox::solvers::md

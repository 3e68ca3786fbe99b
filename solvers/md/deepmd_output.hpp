#pragma once
// Labelled frames for learned potentials: every `every` steps the engine records the
// configuration with the potential's energy, forces and virial tensor and, at the end, writes
// them as a DeePMD-kit npy system (io/deepmd_system.hpp) into OUTDIR/deepmd. The labels are
// the potential's alone (a thermostat's share of the forces is left out). Metal units only:
// DeePMD's are Å, eV, eV/Å.
#include <mpi.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/deepmd_system.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "solvers/md/force_tally.hpp"

namespace surrox::solvers::md {

class DeepmdRecorder {
 public:
  // type_map[k] names LAMMPS type k + 1.
  void setup(long every, long first, long set_size, std::vector<std::string> type_map);
  bool due(long step) const {
    return every_ > 0 && step >= first_ && (step - first_) % every_ == 0;
  }
  // `s` holds this step's potential forces on owned atoms (ghosts folded), `vatom` the
  // per-atom virial of owned atoms; `energy` is the global potential energy. Collective.
  void record(const System& s, const VirialView& vatom, double energy, MPI_Comm comm);
  long frames() const { return frames_.frames; }
  // Writes OUTDIR/deepmd on rank 0 (nothing when no frame was recorded).
  void write(const std::filesystem::path& output_dir, int rank) const;
  // The frames so far as checkpoint arrays (md_deepmd_*, on rank 0), and back.
  void save(io::Hdf5Checkpoint& checkpoint) const;
  void load(const io::Hdf5Checkpoint& checkpoint);

 private:
  long every_ = 0, first_ = 0, set_size_ = 1000;
  io::DeepmdFrames frames_;
};

}  // namespace surrox::solvers::md

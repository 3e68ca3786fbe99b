#pragma once
// The LAMMPS text dump (`dump atom`-like: id type x y z vx vy vz, positions wrapped into the
// box) held as numbers until the run ends, so that a checkpoint carries the frames so far and
// a restarted run writes the whole series.
#include <array>
#include <filesystem>
#include <vector>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/md/data_file.hpp"

namespace surrox::solvers::md {

class DumpFrames {
 public:
  // `atoms`: every atom, ordered by id (MdSolver::gather on rank 0).
  void add(long step, const AtomData& atoms);
  bool empty() const { return steps_.empty(); }
  // dump.lammpstrj, formatted as LAMMPS formats it.
  void write(const std::filesystem::path& file) const;
  // The frames so far as checkpoint arrays (md_dump_frames, md_dump_atoms), and back.
  void save(io::Hdf5Checkpoint& checkpoint) const;
  void load(const io::Hdf5Checkpoint& checkpoint);

 private:
  static constexpr int kRow = 8;              // id type x y z vx vy vz
  std::vector<long> steps_, counts_;          // per frame
  std::vector<std::array<double, 6>> boxes_;  // per frame: lo x y z, hi x y z
  std::vector<double> rows_;                  // kRow per atom and frame
};

}  // namespace surrox::solvers::md

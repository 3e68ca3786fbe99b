#pragma once
// The MD restart check shared by the 1-rank matrix and the 2-rank test: a case run straight,
// and the same case stopped at a step, written to a checkpoint file, read back into a fresh
// solver and run to the end, must agree bit for bit in the atoms and in every file the run
// writes (thermo.csv, rdf.csv, dump.lammpstrj, final.data, the DeePMD system).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "io/hdf5_checkpoint.hpp"
#include "md/md_test_support.hpp"
#include "support/output_comparison.hpp"

namespace surrox::solvers::md::test {

using surrox::testing::file_bytes;

// What differs between the straight run and the restarted one: names of files (relative to
// the output folders) and a count of differing positions and velocities.
struct RestartDifference {
  std::vector<std::string> files;
  long atom_values = 0;
  long builds = 0;  // neighbour builds, straight minus restarted
  bool none() const { return files.empty() && atom_values == 0 && builds == 0; }
  std::string describe() const {
    return fmt::format("{} differing files ({}), {} differing atom values, builds off by {}",
                       files.size(), fmt::join(files, ", "), atom_values, builds);
  }
};

inline void run_to_end_and_finalize(MdSolver& md, const std::filesystem::path& dir) {
  while (!md.finished()) md.advance();
  if (surrox::testing::runtime().root()) std::filesystem::create_directories(dir);
  MPI_Barrier(surrox::testing::runtime().comm());
  nlohmann::json results;
  md.finalize(dir, results);
  MPI_Barrier(surrox::testing::runtime().comm());
}

// `scratch`: an empty folder of the test (shared by its ranks).
inline RestartDifference restart_difference(const std::string& yaml, long at_step,
                                            const std::filesystem::path& scratch) {
  const auto tag = std::to_string(at_step);
  if (surrox::testing::runtime().root()) std::filesystem::create_directories(scratch);
  MPI_Barrier(surrox::testing::runtime().comm());
  auto straight = make_solver(yaml);
  run_to_end_and_finalize(*straight, scratch / ("straight_" + tag));

  auto first = make_solver(yaml);
  while (first->step() < at_step) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto file = scratch / ("at_" + tag + ".h5");
  saved.write(file, surrox::testing::runtime().comm());
  first.reset();
  auto second = make_solver(yaml);
  second->load_state(io::Hdf5Checkpoint::read(file, surrox::testing::runtime().comm()));
  run_to_end_and_finalize(*second, scratch / ("restarted_" + tag));

  RestartDifference out;
  const AtomData a = straight->gather(), b = second->gather();
  if (a.natoms() != b.natoms()) out.atom_values += std::abs(a.natoms() - b.natoms()) * 6;
  for (long i = 0; i < std::min(a.natoms(), b.natoms()); ++i)
    for (int d = 0; d < 3; ++d)
      out.atom_values += (a.x[i][d] != b.x[i][d]) + (a.v[i][d] != b.v[i][d]);
  out.builds = straight->neighbors().builds() - second->neighbors().builds();
  if (surrox::testing::runtime().root()) {
    int compared = 0;
    out.files = surrox::testing::differing_outputs(scratch / ("straight_" + tag),
                                                   scratch / ("restarted_" + tag), &compared);
    if (compared == 0) out.files.push_back("(no files written)");
  }
  return out;
}

}  // namespace surrox::solvers::md::test

#pragma once
// What surrox does with a user's file of a given extension, shared by the fuzz target
// (fuzz/reader_fuzz.cpp) and the corpus replay test (tests/io/fuzz_corpus_test.cpp): VTK files
// go through the VTK reader; an HDF5 file goes through every HDF5 reader a user can point at one
// (`surrox info`/`convert` datasets and multiblocks, training sweeps, solver checkpoints on
// `--restart`, the collection cache, `surrox info`'s description), because each must refuse a
// broken or hostile file with a surrox::Error. Needs MPI initialised (checkpoints are collective).
#include <mpi.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "io/hdf5_collection_cache.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_multiblock.hpp"
#include "io/hdf5_sweep.hpp"
#include "io/vtk_reader.hpp"

namespace surrox::fuzz {

// One reader's outcome: its surrox::Error's message, or empty when it read the file.
struct ReadOutcome {
  std::string reader;
  std::string error;
};

// A surrox::Error is the expected outcome for a broken file; it is recorded, not propagated.
inline std::vector<ReadOutcome> read_user_file(const std::filesystem::path& path) {
  std::vector<ReadOutcome> outcomes;
  auto attempt = [&](const char* reader, auto&& read) {
    outcomes.push_back({reader, ""});
    try {
      read();
    } catch (const Error& e) {
      outcomes.back().error = e.what();
    }
  };
  if (path.extension() != ".h5") {
    attempt("vtk", [&] { io::read_vtk(path); });
    return outcomes;
  }
  attempt("dataset", [&] { io::read_hdf5_dataset(path); });
  attempt("multiblock", [&] { io::read_hdf5_multiblock(path); });
  attempt("describe", [&] { io::describe_hdf5(path); });
  attempt("checkpoint", [&] { io::Hdf5Checkpoint::read(path, MPI_COMM_SELF); });
  attempt("sweep", [&] {
    io::SweepDatasetReader sweep(path);
    for (std::size_t index = 0; index < sweep.cases(); ++index)
      for (const auto& field : sweep.fields()) sweep.read(field.name, index);
  });
  attempt("collection cache", [&] {
    std::string why;
    if (!io::read_collection_cache(path, "", &why)) throw InputError(why);
  });
  return outcomes;
}

}  // namespace surrox::fuzz

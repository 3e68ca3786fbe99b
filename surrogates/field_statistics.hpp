#pragma once
// Summary statistics of a solver's fields (min, max, mean, RMS), computed by LibTorch on
// zero-copy tensors of the state: the run command's use of the Kokkos↔torch bridge until
// the surrogates and couplers arrive. Torch-free header so apps/ need not pull in torch.
#include <mpi.h>

#include <nlohmann/json.hpp>

#include "core/field_set.hpp"

namespace surrox::surrogates {

// {"u": {"min": ..., "max": ..., "mean": ..., "rms": ..., "values": N, "shape": [...],
// "zero_copy": true}, ...}. Collective over `comm`: min, max, mean, RMS and the value count N
// cover every rank's piece (a decomposed solver holds a piece per rank); `shape` and `zero_copy`
// describe this rank's piece. Every rank must hold the same field names.
nlohmann::json field_statistics(const FieldSet& fields, MPI_Comm comm = MPI_COMM_SELF);

}  // namespace surrox::surrogates

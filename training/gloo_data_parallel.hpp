#pragma once
// Data parallelism through torch's c10d Gloo process group, bootstrapped from MPI: rank 0
// opens a TCPStore on a free port and broadcasts its host and port over the communicator.
// Gradients are summed in buckets (flattened groups of about `bucket_bytes`), each bucket one
// asynchronous allreduce, all in flight together, as PyTorch's DDP reducer does.
#include <mpi.h>

#include <cstddef>
#include <memory>

#include "training/data_parallel.hpp"

namespace surrox::training {

inline constexpr std::size_t kDefaultBucketBytes = 25u << 20;  // DDP's default bucket size

// Collective over `comm`. On one rank it returns single_process().
std::unique_ptr<DataParallel> gloo_data_parallel(MPI_Comm comm, std::size_t bucket_bytes = kDefaultBucketBytes);

}  // namespace surrox::training

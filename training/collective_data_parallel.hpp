#pragma once
// Data parallelism over an MPI communicator. Gradients are summed in buckets (consecutive
// gradients of one dtype and device, up to `bucket_bytes`; gradients that lie back to back in one
// buffer are summed in place, others through a reused flat buffer): host-memory float and double
// buckets with MPI's nonblocking allreduce, every other bucket through torch's c10d process
// group, Gloo, bootstrapped from MPI on first use (rank 0 opens a TCPStore on a free port and
// broadcasts its host and port). All buckets are in flight together.
//
// The nonblocking collectives of the overlapped and sharded steps (DataParallel::start_sum,
// start_reduce_scatter, start_all_gather; training/gradient_buckets.hpp) are MPI_Iallreduce,
// MPI_Ireduce_scatter and MPI_Iallgatherv for host float and double tensors, and the blocking
// defaults over the process group otherwise.
//
// Why MPI for host memory: Gloo's TCP transport costs far more than Open MPI's shared-memory
// allreduce on one node, and was most of the fixed per-step cost of data-parallel training
// (measured in docs/performance.md). A build with CUDA creates its
// device process group (NCCL) where the Gloo one is created.
#include <mpi.h>

#include <cstddef>
#include <memory>

#include "training/data_parallel.hpp"

namespace surrox::training {

inline constexpr std::size_t kDefaultBucketBytes = 25u << 20;  // DDP's default bucket size

// Which collective sums buckets in host memory.
enum class HostTransport {
  kMpi,  // MPI's allreduce on the communicator (float and double; others go to the process group)
  kProcessGroup,  // the c10d Gloo process group, as device memory
};

struct DataParallelOptions {
  std::size_t bucket_bytes = kDefaultBucketBytes;
  HostTransport host_transport = HostTransport::kMpi;
};

// Collective over `comm`. On one rank it returns single_process().
std::unique_ptr<DataParallel> collective_data_parallel(MPI_Comm comm,
                                                       DataParallelOptions options = {});

}  // namespace surrox::training

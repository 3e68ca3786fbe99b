#pragma once
// Internal to surrox_io_hdf5: the few MPI collectives the HDF5 writers need to keep all
// ranks in step — agreeing on failure so that every rank throws together instead of some
// waiting forever in a collective HDF5 call.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>

#include "core/error.hpp"

namespace surrox::io::mpi {

// Rank 0's string on every rank.
inline void broadcast(MPI_Comm comm, std::string* text) {
  long size = static_cast<long>(text->size());
  MPI_Bcast(&size, 1, MPI_LONG, 0, comm);
  text->resize(static_cast<std::size_t>(size));
  if (size > 0) MPI_Bcast(text->data(), static_cast<int>(size), MPI_CHAR, 0, comm);
}

// Collective: if `ok` is false on any rank, runs `cleanup` and throws on every rank the
// message of the lowest failing rank (InputError when `input`, Error otherwise).
inline void agree(MPI_Comm comm, bool ok, std::string message, bool input,
                  const std::function<void()>& cleanup = {}) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  int first_failing = ok ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first_failing, 1, MPI_INT, MPI_MIN, comm);
  if (first_failing == size) return;
  long length = static_cast<long>(message.size());
  MPI_Bcast(&length, 1, MPI_LONG, first_failing, comm);
  message.resize(static_cast<std::size_t>(length));
  if (length > 0)
    MPI_Bcast(message.data(), static_cast<int>(length), MPI_CHAR, first_failing, comm);
  if (cleanup) cleanup();
  if (size > 1) message += " [rank " + std::to_string(first_failing) + "]";
  if (input) throw InputError(message);
  throw Error(message);
}

// Sum of `value` over the lower ranks; `total` receives the sum over all ranks.
template <class T>
T exclusive_prefix(MPI_Comm comm, T value, T* total) {
  unsigned long long local = value, before = 0, sum = 0;
  MPI_Exscan(&local, &before, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) before = 0;  // MPI_Exscan leaves rank 0's result undefined
  MPI_Allreduce(&local, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  *total = static_cast<T>(sum);
  return static_cast<T>(before);
}

}  // namespace surrox::io::mpi

#pragma once
// The one object a surrox program creates first: it initialises MPI (with or without
// mpirun), Kokkos and PETSc, sets LibTorch's thread count and the logger, and finalises all
// of them in reverse order when it goes out of scope. Only one may exist per process.
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>

namespace surrox {

struct RuntimeOptions {
  int torch_threads = 0;  // 0: the cores of this node divided by the ranks on it
  std::string log_level = "info";
  bool log_all_ranks = false;
};

class Runtime {
 public:
  Runtime(int& argc, char**& argv, const RuntimeOptions& options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // The communicator solvers and writers work on: MPI_COMM_WORLD, or a smaller one while a
  // CommunicatorScope is alive (a sweep runs one case per rank on MPI_COMM_SELF).
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  void set_torch_threads(int threads);  // 0: as for RuntimeOptions::torch_threads
  int torch_threads() const;

  // Backends, ranks, threads and library versions, as written into summary.json.
  nlohmann::json configuration() const;
  // Logs the configuration on rank 0.
  void report() const;

  static bool active();

 private:
  friend class CommunicatorScope;
  MPI_Comm comm_ = MPI_COMM_WORLD;
  int rank_ = 0, size_ = 1;
  int ranks_on_node_ = 1;
  bool owns_mpi_ = false;
};

// While alive, runtime.comm(), rank(), size() and root() describe `comm` instead of the
// communicator before it; the destructor puts the previous one back. Scopes nest.
class CommunicatorScope {
 public:
  CommunicatorScope(Runtime& runtime, MPI_Comm comm);
  ~CommunicatorScope();
  CommunicatorScope(const CommunicatorScope&) = delete;
  CommunicatorScope& operator=(const CommunicatorScope&) = delete;

 private:
  Runtime& runtime_;
  MPI_Comm previous_comm_;
  int previous_rank_, previous_size_;
};

// The BLAS library the process actually loaded (resolving Debian's libblas.so.3 alternative),
// e.g. "/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3"; empty when none is loaded.
std::string loaded_blas_library();
// A short name for it: "OpenBLAS (OpenMP)", "reference BLAS", "MKL", ...
std::string blas_vendor(const std::string& library_path);

}  // namespace surrox

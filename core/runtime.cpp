#include "core/runtime.hpp"

#include <petscsys.h>

#include <Kokkos_Core.hpp>
#include <atomic>
#include <thread>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/torch_threads.hpp"
#include "core/version.hpp"

namespace surrox {
namespace {

std::atomic<bool> g_active{false};

void check_petsc(PetscErrorCode code, const char* what) {
  if (code)
    throw Error(std::string("PETSc failed in ") + what + " (error " + std::to_string(code) + ")");
}

}  // namespace

bool Runtime::active() { return g_active.load(); }

Runtime::Runtime(int& argc, char**& argv, const RuntimeOptions& options) {
  if (g_active.exchange(true)) throw Error("only one surrox::Runtime may exist at a time");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    // FUNNELED: torch and Kokkos may use threads, but only the main thread calls MPI.
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    owns_mpi_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &ranks_on_node_);
  MPI_Comm_free(&node);

  log::configure(rank_, size_, options.log_all_ranks, options.log_level);

  if (!Kokkos::is_initialized()) {
    Kokkos::InitArguments kokkos_args;
    kokkos_args.disable_warnings = true;
    Kokkos::initialize(kokkos_args);
  }
  // No arguments: PETSc options come from case files (with a prefix), never from our CLI.
  check_petsc(PetscInitializeNoArguments(), "PetscInitialize");
  set_torch_threads(options.torch_threads);
}

Runtime::~Runtime() {
  PetscFinalize();
  if (Kokkos::is_initialized()) Kokkos::finalize();
  spdlog::drop_all();
  if (owns_mpi_) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
  g_active = false;
}

CommunicatorScope::CommunicatorScope(Runtime& runtime, MPI_Comm comm)
    : runtime_(runtime),
      previous_comm_(runtime.comm_),
      previous_rank_(runtime.rank_),
      previous_size_(runtime.size_) {
  runtime_.comm_ = comm;
  MPI_Comm_rank(comm, &runtime_.rank_);
  MPI_Comm_size(comm, &runtime_.size_);
}

CommunicatorScope::~CommunicatorScope() {
  runtime_.comm_ = previous_comm_;
  runtime_.rank_ = previous_rank_;
  runtime_.size_ = previous_size_;
}

namespace {
bool runtime_reported = false;  // report() has printed the thread count
}  // namespace

void Runtime::set_torch_threads(int threads) {
  if (threads <= 0) {
    const int cores = std::max(1u, std::thread::hardware_concurrency());
    threads = std::max(1, cores / std::max(1, ranks_on_node_));
  }
  // The start-up report printed the count before a config could set it: say when it changes.
  if (runtime_reported && threads != torch_thread_count())
    spdlog::info("LibTorch threads per rank: {} (was {})", threads, torch_thread_count());
  set_torch_thread_count(threads);
}

int Runtime::torch_threads() const { return torch_thread_count(); }

nlohmann::json Runtime::configuration() const {
  nlohmann::json c;
  c["surrox_version"] = kVersion;
  c["git"] = kGitDescribe;
  c["mpi_ranks"] = size_;
  c["ranks_on_node"] = ranks_on_node_;
  char mpi_library[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(mpi_library, &length);
  std::string mpi(mpi_library, length);
  c["mpi_library"] = mpi.substr(0, mpi.find_first_of(",\n"));
  c["kokkos_version"] = std::to_string(KOKKOS_VERSION / 10000) + "." +
                        std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                        std::to_string(KOKKOS_VERSION % 100);
  c["kokkos_execution_space"] = Kokkos::DefaultExecutionSpace::name();
  c["kokkos_concurrency"] = Kokkos::DefaultExecutionSpace().concurrency();
  char petsc[256];
  PetscGetVersion(petsc, sizeof petsc);
  c["petsc_version"] = petsc;
  c["torch_version"] = torch_version();
  c["torch_threads"] = torch_threads();
  const std::string blas = loaded_blas_library();
  c["blas_library"] = blas;
  c["blas"] = blas_vendor(blas);
  c["hardware_threads"] = std::thread::hardware_concurrency();
  return c;
}

void Runtime::report() const {
  runtime_reported = true;
  const nlohmann::json c = configuration();
  spdlog::info(
      "surrox {} ({}) | {} MPI rank(s), {} | Kokkos {} [{}] | PETSc {}", kVersion, kGitDescribe,
      size_, c["mpi_library"].get<std::string>(), c["kokkos_version"].get<std::string>(),
      c["kokkos_execution_space"].get<std::string>(), c["petsc_version"].get<std::string>());
  spdlog::info("LibTorch {} with {} thread(s) per rank | BLAS: {} ({})",
               c["torch_version"].get<std::string>(), torch_threads(), c["blas"].get<std::string>(),
               c["blas_library"].get<std::string>());
  if (c["blas"] == "reference BLAS")
    spdlog::warn("the reference BLAS is ~10x slower for training; install libopenblas0-openmp");
}

}  // namespace surrox

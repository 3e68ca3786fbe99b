// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_core PkgConfig::PETSC
#include "core/runtime.hpp"

#include <gtest/gtest.h>
#include <petscsys.h>

#include <Kokkos_Core.hpp>
#include <thread>

#include "core/error.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

TEST(Runtime, InitialisesEveryBackendOnEveryRank) {
  Runtime& runtime = surrox::testing::runtime();
  EXPECT_TRUE(Runtime::active());
  EXPECT_EQ(runtime.size(), 2);
  EXPECT_TRUE(Kokkos::is_initialized());
  PetscBool petsc_initialized = PETSC_FALSE;
  PetscInitialized(&petsc_initialized);
  EXPECT_TRUE(petsc_initialized);
  const auto c = runtime.configuration();
  EXPECT_EQ(c["mpi_ranks"], 2);
  for (const char* key :
       {"mpi_library", "kokkos_version", "kokkos_execution_space", "petsc_version", "torch_version",
        "torch_threads", "blas", "blas_library"})
    EXPECT_TRUE(c.contains(key)) << key;
  EXPECT_EQ(c["kokkos_version"], "3.4.1");
}

TEST(Runtime, ReportsTheBlasActuallyLoaded) {
  // The bootstrap installs OpenBLAS: the reference BLAS would make training ~10x slower.
  EXPECT_EQ(surrox::testing::runtime().configuration()["blas"], "OpenBLAS (OpenMP)");
  EXPECT_EQ(blas_vendor("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"), "reference BLAS");
  EXPECT_EQ(blas_vendor(""), "none loaded");
}

TEST(Runtime, SplitsThreadsBetweenRanksOnANode) {
  Runtime& runtime = surrox::testing::runtime();
  runtime.set_torch_threads(3);
  EXPECT_EQ(runtime.torch_threads(), 3);
  runtime.set_torch_threads(0);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  EXPECT_EQ(runtime.torch_threads(), std::max(1, cores / 2));
}

TEST(Runtime, OnlyOneRuntimePerProcess) {
  int argc = 0;
  char** argv = nullptr;
  EXPECT_THROW(Runtime second(argc, argv), Error);
}

TEST(Runtime, ErrorsNameTheRankWhenThereAreSeveral) {
  const std::string what = Error("it broke", {"f.h5"}).what();
  EXPECT_EQ(what,
            "f.h5: it broke [rank " + std::to_string(surrox::testing::runtime().rank()) + "]");
}

}  // namespace
}  // namespace surrox

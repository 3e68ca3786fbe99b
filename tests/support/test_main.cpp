// GoogleTest entry point for every surrox test: one Runtime (MPI, Kokkos, PETSc) per process,
// and test output from rank 0 only.
#include <gtest/gtest.h>

#include "core/runtime.hpp"
#include "core/sanitizer_keep_libraries.hpp"
#include "support/test_paths.hpp"

int main(int argc, char** argv) {
  surrox::RuntimeOptions options;
  options.log_level = "warn";
  surrox::Runtime runtime(argc, argv, options);
  surrox::testing::set_runtime(&runtime);
  ::testing::InitGoogleTest(&argc, argv);
  if (!runtime.root()) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  // Every rank must agree: a failure on any rank fails the test.
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, runtime.comm());
  return any_failed ? 1 : 0;
}

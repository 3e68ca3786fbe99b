// ctest-labels: mpi unit
// ctest-ranks: 2
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// The training loops pinned bit for bit on two data-parallel ranks (training_golden_support.hpp):
// the gradient sums' paths (flat gradient buffers; the deep potential's unused-parameter mask).
#include <gtest/gtest.h>

#include "training_golden_support.hpp"

namespace surrox::training {
namespace {

TEST(TrainingGoldenRanks, SupervisedTrainerTwoRanks) {
  golden_pins::pin_supervised_trainer("training/supervised_two_ranks",
                                      surrox::testing::scratch_dir());
}

TEST(TrainingGoldenRanks, DeepPotentialTwoRanks) {
  golden_pins::pin_deep_potential("training/deep_potential_two_ranks",
                                  surrox::testing::scratch_dir());
}

}  // namespace
}  // namespace surrox::training

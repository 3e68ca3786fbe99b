// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// The training loops pinned bit for bit on one rank (training_golden_support.hpp).
#include <gtest/gtest.h>

#include "training_golden_support.hpp"

namespace surrox::training {
namespace {

TEST(TrainingGolden, SupervisedTrainerOneRank) {
  golden_pins::pin_supervised_trainer("training/supervised_one_rank",
                                      surrox::testing::scratch_dir());
}

TEST(TrainingGolden, DeepPotentialOneRank) {
  golden_pins::pin_deep_potential("training/deep_potential_one_rank",
                                  surrox::testing::scratch_dir());
}

}  // namespace
}  // namespace surrox::training

// ctest-labels: unit
// Statistics over a test set (core/statistics.hpp): medians skip non-finite values, Spearman's
// rank correlation with ties, relative L2 errors.
#include "core/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace surrox {
namespace {

TEST(Statistics, MedianSkipsNonFiniteValues) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2, NAN}), 2.0);
  EXPECT_DOUBLE_EQ(median({4, 1, INFINITY, 2, 3}), 2.5);
  EXPECT_TRUE(std::isnan(median({NAN})));
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Statistics, SpearmanRanksWithTies) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  EXPECT_NEAR(spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486832980505138, 1e-12);
  EXPECT_TRUE(std::isnan(spearman({1, 2}, {1, 2})));
  EXPECT_TRUE(std::isnan(spearman({1, 2, 3}, {1, 2})));
  EXPECT_TRUE(std::isnan(spearman({1, 1, 1}, {1, 2, 3})));
}

TEST(Statistics, RelativeL2) {
  const double truth[] = {3, 4}, predicted[] = {3, 5}, zero[] = {0, 0};
  EXPECT_DOUBLE_EQ(relative_l2(predicted, truth, 2), 0.2);
  EXPECT_DOUBLE_EQ(relative_l2(truth, truth, 2), 0.0);
  EXPECT_DOUBLE_EQ(relative_l2(truth, zero, 2), 5.0);
}

}  // namespace
}  // namespace surrox

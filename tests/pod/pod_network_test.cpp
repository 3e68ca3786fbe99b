// ctest-labels: unit
// ctest-libraries: surrox_pod
// ctest-pch: torch
// The stacked-LSTM forecaster: flat windows in and out; started from a linear model (highway
// with the LSTM head at zero) it is exactly that linear model; SC20's skip connections add a
// map from layer l − 2 and change the output; its options survive a JSON round trip.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "surrogates/pod/stacked_lstm.hpp"

namespace pod = surrox::surrogates::pod;

TEST(PodStackedLstm, StartsAsTheLinearModelItIsGiven) {
  torch::manual_seed(5);
  pod::StackedLstmOptions o;
  o.modes = 3;
  o.input_steps = 4;
  o.output_steps = 2;
  o.layers = {6, 5};
  o.highway = true;
  pod::StackedLstm net(o);
  const torch::Tensor w = torch::randn({4 * 3 + 1, 2 * 3});
  net.start_from_linear(w);
  const torch::Tensor x = torch::randn({7, 12});
  const torch::Tensor expected = torch::matmul(x, w.slice(0, 0, 12)) + w[12];
  const torch::Tensor y = net.forward(x);
  ASSERT_EQ(y.sizes(), (std::vector<long>{7, 6}));
  EXPECT_LT((y - expected).abs().max().item<double>(), 1e-5);
  // Without the highway there is nothing to start from.
  o.highway = false;
  pod::StackedLstm plain(o);
  EXPECT_THROW(plain.start_from_linear(w), surrox::Error);
}

TEST(PodStackedLstm, SkipConnectionsFromTwoLayersBack) {
  pod::StackedLstmOptions o;
  o.modes = 2;
  o.input_steps = 3;
  o.output_steps = 3;
  o.layers = {4, 5, 6};
  torch::manual_seed(9);
  pod::StackedLstm plain(o);
  o.skip = true;
  torch::manual_seed(9);
  pod::StackedLstm skipped(o);
  // One extra map, layer 0 (width 4) → the input of layer 2 (width 5), no bias.
  EXPECT_EQ(skipped.parameter_count() - plain.parameter_count(), 4 * 5);
  const torch::Tensor x = torch::randn({2, 6});
  EXPECT_GT((skipped.forward(x) - plain.forward(x)).abs().max().item<double>(), 1e-6);
  const auto back = pod::StackedLstmOptions::from_json(o.to_json());
  EXPECT_EQ(back.layers, o.layers);
  EXPECT_TRUE(back.skip);
  EXPECT_FALSE(back.highway);
}

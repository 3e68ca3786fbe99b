#pragma once
// The forecaster of the POD-LSTM emulator: stacked LSTM layers over a window of `input_steps`
// coefficient vectors, the last hidden state of the top layer mapped by a linear layer to
// `output_steps` coefficient vectors. Rows are flat ([rows, input_steps · modes] →
// [rows, output_steps · modes]) so the generic trainer can batch them. With `skip`, layer l ≥ 2
// reads the sum of the outputs of layers l − 1 and l − 2 (the latter through a linear map when
// the widths differ): SC20's skip connections from the previous two layers. With `highway`, a
// linear map of the whole input window is added to the output (LSTNet's autoregressive
// component: the network then learns a correction to a linear forecast).
#include <nlohmann/json.hpp>
#include <vector>

#include "surrogates/network.hpp"

namespace surrox::surrogates::pod {

struct StackedLstmOptions {
  long modes = 5, input_steps = 8, output_steps = 8;
  std::vector<long> layers = {32};  // hidden width per layer, bottom first
  bool skip = false;
  // Per layer (the architecture search's choice); when non-empty it replaces `skip`: layer
  // l ≥ 2 has the skip connection where skips[l] is true.
  std::vector<bool> skips;
  bool highway = false;

  bool skip_at(std::size_t l) const {
    return l >= 2 && (skips.empty() ? skip : (l < skips.size() && skips[l]));
  }

  nlohmann::json to_json() const;
  static StackedLstmOptions from_json(const nlohmann::json& j);
};

class StackedLstm final : public Network {
 public:
  explicit StackedLstm(StackedLstmOptions options);
  torch::Tensor forward(const torch::Tensor& input) override;
  const StackedLstmOptions& options() const { return options_; }
  long parameter_count() const;
  // Starts from a linear forecaster: the highway takes `weights` [input · N + 1, output · N]
  // (bias last, in the network's scaled units) and the LSTM head starts at zero, so the
  // untrained network is exactly that linear model. Needs `highway`.
  void start_from_linear(const torch::Tensor& weights);

 private:
  StackedLstmOptions options_;
  std::vector<torch::nn::LSTM> lstm_;
  std::vector<torch::nn::Linear> skip_;  // skip_[l] maps layer l − 2's width to layer l's
  torch::nn::Linear head_{nullptr}, highway_{nullptr};
};

}  // namespace surrox::surrogates::pod

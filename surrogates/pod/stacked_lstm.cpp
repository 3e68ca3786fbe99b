#include "surrogates/pod/stacked_lstm.hpp"

#include "core/error.hpp"

namespace surrox::surrogates::pod {

nlohmann::json StackedLstmOptions::to_json() const {
  return {{"modes", modes},
          {"input_steps", input_steps},
          {"output_steps", output_steps},
          {"layers", layers},
          {"skip", skip},
          {"highway", highway},
          {"skips", skips}};
}

StackedLstmOptions StackedLstmOptions::from_json(const nlohmann::json& j) {
  StackedLstmOptions o;
  o.modes = j.at("modes").get<long>();
  o.input_steps = j.at("input_steps").get<long>();
  o.output_steps = j.at("output_steps").get<long>();
  o.layers = j.at("layers").get<std::vector<long>>();
  o.skip = j.at("skip").get<bool>();
  o.highway = j.value("highway", false);
  if (j.contains("skips")) o.skips = j.at("skips").get<std::vector<bool>>();
  return o;
}

StackedLstm::StackedLstm(StackedLstmOptions options) : options_(std::move(options)) {
  if (options_.layers.empty()) throw InputError("a stacked LSTM needs at least one layer");
  long width = options_.modes;
  for (std::size_t l = 0; l < options_.layers.size(); ++l) {
    const long h = options_.layers[l];
    if (h < 1) throw InputError("LSTM layer widths must be ≥ 1");
    lstm_.push_back(
        register_module("lstm" + std::to_string(l),
                        torch::nn::LSTM(torch::nn::LSTMOptions(width, h).batch_first(true))));
    if (options_.skip_at(l)) {
      const long from = options_.layers[l - 2];
      skip_.push_back(register_module(
          "skip" + std::to_string(l),
          torch::nn::Linear(torch::nn::LinearOptions(from, options_.layers[l - 1]).bias(false))));
    } else {
      skip_.push_back(torch::nn::Linear(nullptr));
    }
    width = h;
  }
  head_ = register_module("head", torch::nn::Linear(width, options_.output_steps * options_.modes));
  if (options_.highway)
    highway_ =
        register_module("highway", torch::nn::Linear(options_.input_steps * options_.modes,
                                                     options_.output_steps * options_.modes));
}

torch::Tensor StackedLstm::forward(const torch::Tensor& input) {
  const long rows = input.size(0);
  torch::Tensor x = input.view({rows, options_.input_steps, options_.modes});
  std::vector<torch::Tensor> outputs;  // every layer's output sequence
  for (std::size_t l = 0; l < lstm_.size(); ++l) {
    torch::Tensor in = x;
    // Layer l's input is layer l − 1's output plus (with skips) layer l − 2's, mapped to its width.
    if (options_.skip_at(l)) in = in + skip_[l](outputs[l - 2]);
    x = std::get<0>(lstm_[l]->forward(in));
    outputs.push_back(x);
  }
  const torch::Tensor last = x.select(1, options_.input_steps - 1);
  torch::Tensor out = head_(last);
  if (highway_) out = out + highway_(input);
  return out;
}

void StackedLstm::start_from_linear(const torch::Tensor& weights) {
  if (!highway_) throw Error("start_from_linear needs the highway");
  torch::NoGradGuard no_grad;
  const long rows = weights.size(0) - 1;
  highway_->weight.copy_(weights.slice(0, 0, rows).t());
  highway_->bias.copy_(weights[rows]);
  head_->weight.zero_();
  head_->bias.zero_();
}

long StackedLstm::parameter_count() const {
  long n = 0;
  for (const auto& p : parameters()) n += p.numel();
  return n;
}

}  // namespace surrox::surrogates::pod

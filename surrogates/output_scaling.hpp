#pragma once
// Similarity scaling of a field model's outputs by its inputs: an output channel divided by a
// product of powers of input channels, e.g. the velocity of an incompressible case by the free
// stream speed and the kinematic pressure by its square (`scale_outputs: [U/speed,
// p/speed^2]`). The network learns the scaled fields, which vary with the flow's dimensionless
// parameters only; the model multiplies the scale back, so every user of a model (predict,
// evaluate, couplers) sees physical values. Divisors come from each row's physical inputs, so a
// parameter broadcast to a case's rows scales the case as a whole (relative errors per case are
// those of the scaled fields). Saved in the model metadata ("output_scaling", docs/formats.md).
#include <torch/torch.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace surrox::surrogates {

struct OutputScaling {
  struct Factor {
    long output = 0;  // output channel index
    long input = 0;   // input channel index
    double power = 1;
  };
  std::vector<Factor> factors;  // empty: no scaling

  bool empty() const { return factors.empty(); }
  // [rows, C_out, ...] divisors from physical inputs [rows, C_in, ...] (channel axis 1): the
  // product of each output's factors, 1 where it has none. InputError when a divisor is not
  // positive and finite (a speed of 0 cannot scale a field).
  torch::Tensor divisors(const torch::Tensor& inputs, long outputs) const;
  torch::Tensor to_scaled(const torch::Tensor& outputs, const torch::Tensor& inputs) const;
  torch::Tensor to_physical(const torch::Tensor& scaled, const torch::Tensor& inputs) const;

  // [{"output": "U[0]", "input": "speed", "power": 1}, ...]
  nlohmann::json to_json(const std::vector<std::string>& input_names,
                         const std::vector<std::string>& output_names) const;
  // InputError naming `source` when a channel is not among the names.
  static OutputScaling from_json(const nlohmann::json& j,
                                 const std::vector<std::string>& input_names,
                                 const std::vector<std::string>& output_names,
                                 const std::string& source);
};

// Parses entries "OUTPUT/INPUT[^POWER][*INPUT[^POWER]...]"; OUTPUT is an output channel or a
// vector named without a component (U scales U[0], U[1], U[2]), each INPUT an input channel.
// Throws InputError with a message naming the entry and the valid channels.
OutputScaling parse_output_scaling(const std::vector<std::string>& entries,
                                   const std::vector<std::string>& input_names,
                                   const std::vector<std::string>& output_names);

}  // namespace surrox::surrogates

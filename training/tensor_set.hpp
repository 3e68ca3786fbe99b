#pragma once
// Training samples as three aligned tensors whose first axis is the sample row: inputs,
// targets and optional per-point weights. A row is a point for per-point networks and a whole
// case for grid networks; the trainer only ever indexes the first axis.
#include <torch/torch.h>

namespace surrox::training {

struct TensorSet {
  torch::Tensor inputs, targets, weights;  // weights may be undefined

  long rows() const { return inputs.defined() ? inputs.size(0) : 0; }
  TensorSet select(const torch::Tensor& index) const {
    return {inputs.index_select(0, index), targets.index_select(0, index),
            weights.defined() ? weights.index_select(0, index) : torch::Tensor()};
  }
  TensorSet slice(long begin, long end) const {
    return {inputs.slice(0, begin, end), targets.slice(0, begin, end),
            weights.defined() ? weights.slice(0, begin, end) : torch::Tensor()};
  }
};

}  // namespace surrox::training

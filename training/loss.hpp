#pragma once
// Training losses, chosen by name in a training config (`loss: {type: area_weighted_mse}`).
// A loss returns one term per sample row; the trainer sums them and divides by the *global*
// batch size, so a batch split over data-parallel ranks gives the same gradient as one rank.
#include <torch/torch.h>

#include "core/case_node.hpp"
#include "core/registry.hpp"

namespace surrox::training {

class Loss {
 public:
  virtual ~Loss() = default;
  // prediction, target: [rows, channels, ...]; weight: [rows, ...] (the points' areas,
  // normalised to mean 1 over the dataset) or undefined when the loss takes none.
  // Returns [rows]: each row's loss, averaged over its channels and points.
  virtual torch::Tensor rows(const torch::Tensor& prediction, const torch::Tensor& target,
                             const torch::Tensor& weight) const = 0;
  // True when the loss needs per-point weights (the dataset must name a weight field).
  virtual bool weighted() const { return false; }
};

using LossRegistry = Registry<Loss, const CaseNode&>;

// mse, l1, area_weighted_mse (arXiv:2106.01775: each point's squared error times its area).
const LossRegistry& losses();

}  // namespace surrox::training

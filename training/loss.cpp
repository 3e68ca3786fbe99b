#include "training/loss.hpp"

namespace surrox::training {
namespace {

// Mean over every axis but the first.
torch::Tensor row_mean(const torch::Tensor& t) { return t.reshape({t.size(0), -1}).mean(1); }

class MeanSquaredError final : public Loss {
 public:
  torch::Tensor rows(const torch::Tensor& p, const torch::Tensor& t,
                     const torch::Tensor&) const override {
    return row_mean((p - t).square());
  }
};

class MeanAbsoluteError final : public Loss {
 public:
  torch::Tensor rows(const torch::Tensor& p, const torch::Tensor& t,
                     const torch::Tensor&) const override {
    return row_mean((p - t).abs());
  }
};

// Squared error weighted by each point's area: on a grid clustered at the wall, plain MSE is
// dominated by the many tiny wall cells; area weights make it the integral of the squared error.
class AreaWeightedMse final : public Loss {
 public:
  torch::Tensor rows(const torch::Tensor& p, const torch::Tensor& t,
                     const torch::Tensor& w) const override {
    TORCH_CHECK(w.defined(), "area_weighted_mse needs point weights");
    // w is [rows, points...]; broadcast it over the channel axis 1.
    return row_mean((p - t).square() * w.unsqueeze(1));
  }
  bool weighted() const override { return true; }
};

template <class T>
LossRegistry::Entry entry(const std::string& doc) {
  return {[](const CaseNode&) { return std::make_unique<T>(); }, Schema(doc), doc};
}

}  // namespace

const LossRegistry& losses() {
  static const LossRegistry registry = [] {
    LossRegistry r("loss");
    r.add("mse", entry<MeanSquaredError>("mean squared error over points and channels"));
    r.add("l1", entry<MeanAbsoluteError>("mean absolute error over points and channels"));
    r.add(
        "area_weighted_mse",
        entry<AreaWeightedMse>("squared error times each point's area (mean area 1), averaged: the "
                               "integral of the squared error over the domain (arXiv:2106.01775)"));
    return r;
  }();
  return registry;
}

}  // namespace surrox::training

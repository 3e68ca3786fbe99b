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

// Squared error weighted by each point's area to a power: on a grid clustered at the wall,
// plain MSE (power 0) is dominated by the many tiny wall cells; power 1 makes it the integral of
// the squared error over the domain (arXiv:2106.01775), which the large far-field cells dominate;
// powers between compensate the point density only in part.
class AreaWeightedMse final : public Loss {
 public:
  explicit AreaWeightedMse(const CaseNode& c) : power_(c.real("power")) {}
  torch::Tensor rows(const torch::Tensor& p, const torch::Tensor& t,
                     const torch::Tensor& w) const override {
    TORCH_CHECK(w.defined(), "area_weighted_mse needs point weights");
    // w is [rows, points...]; broadcast it over the channel axis 1.
    // Points of zero weight (no area) stay out at every power (0⁰ would count them).
    const torch::Tensor weight =
        power_ == 1 ? w : torch::where(w > 0, w.pow(power_), torch::zeros_like(w));
    return row_mean((p - t).square() * weight.unsqueeze(1));
  }
  bool weighted() const override { return true; }

 private:
  double power_;
};

LossRegistry::Entry area_weighted_entry() {
  const std::string doc =
      "squared error times each point's area to a power (areas normalised to mean 1), averaged: "
      "power 1 is the integral of the squared error over the domain (arXiv:2106.01775)";
  Schema s(doc);
  s.real("power",
         "exponent of the area weight: 1 the domain integral, 0 plain MSE, between them a partial "
         "compensation of the grid's point density (docs/validation/warm_start.md)")
      .at_least(0)
      .at_most(2)
      .fallback("1");
  return {[](const CaseNode& c) { return std::make_unique<AreaWeightedMse>(c); }, std::move(s),
          doc};
}

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
    r.add("area_weighted_mse", area_weighted_entry());
    return r;
  }();
  return registry;
}

}  // namespace surrox::training

#include "surrogates/normalization.hpp"

#include "core/error.hpp"

namespace surrox::surrogates {
namespace {

// mean and scale shaped to broadcast over x's channel axis 1.
std::pair<torch::Tensor, torch::Tensor> broadcastable(const Normalization& n,
                                                      const torch::Tensor& x) {
  if (x.dim() < 2 || x.size(1) != static_cast<long>(n.mean.size()))
    throw InputError(
        "normalisation for " + std::to_string(n.mean.size()) +
        " channels applied to a tensor with " +
        (x.dim() < 2 ? std::string("no channel axis") : std::to_string(x.size(1)) + " channels"));
  std::vector<long> shape(x.dim(), 1);
  shape[1] = static_cast<long>(n.mean.size());
  return {torch::tensor(n.mean, x.options()).reshape(shape),
          torch::tensor(n.scale, x.options()).reshape(shape)};
}

}  // namespace

torch::Tensor Normalization::apply(const torch::Tensor& x) const {
  const auto [m, s] = broadcastable(*this, x);
  return (x - m) / s;
}

torch::Tensor Normalization::invert(const torch::Tensor& x) const {
  const auto [m, s] = broadcastable(*this, x);
  return x * s + m;
}

nlohmann::json Normalization::to_json() const {
  return {{"names", names}, {"mean", mean}, {"scale", scale}};
}

Normalization Normalization::from_json(const nlohmann::json& j) {
  Normalization n;
  n.names = j.at("names").get<std::vector<std::string>>();
  n.mean = j.at("mean").get<std::vector<double>>();
  n.scale = j.at("scale").get<std::vector<double>>();
  if (n.mean.size() != n.names.size() || n.scale.size() != n.names.size())
    throw InputError("normalisation metadata: names, mean and scale differ in length");
  return n;
}

}  // namespace surrox::surrogates

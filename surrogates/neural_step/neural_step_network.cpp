#include "surrogates/neural_step/neural_step_network.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::surrogates::neural_step {
namespace {

constexpr auto kNeuralStepDtype = torch::kFloat64;
constexpr int kNeuralStepFormatVersion = 1;

torch::Tensor neural_step_vector(const std::vector<double>& v) {
  return torch::from_blob(const_cast<double*>(v.data()), {static_cast<long>(v.size())},
                          kNeuralStepDtype);
}

// Per-column mean and standard deviation, at least 1 % of the largest: a mode the training
// data hardly moved along would otherwise blow up inputs that do move along it.
std::pair<torch::Tensor, torch::Tensor> neural_step_moments(const torch::Tensor& rows) {
  const torch::Tensor mean = rows.mean(0);
  const torch::Tensor scale = rows.std(0, /*unbiased=*/false);
  const double largest = scale.max().item<double>();
  return {mean, scale.clamp_min(largest > 0 ? 1e-2 * largest : 1.0)};
}

void write_basis(torch::serialize::OutputArchive& archive, const std::string& prefix,
                 const pod::PodBasis& basis) {
  archive.write(prefix + "_mean", basis.mean);
  archive.write(prefix + "_modes", basis.modes);
  archive.write(prefix + "_energy", basis.energy);
  archive.write(prefix + "_total_energy", torch::tensor(basis.total_energy, kNeuralStepDtype));
}

pod::PodBasis read_basis(torch::serialize::InputArchive& archive, const std::string& prefix) {
  pod::PodBasis basis;
  torch::Tensor total;
  archive.read(prefix + "_mean", basis.mean);
  archive.read(prefix + "_modes", basis.modes);
  archive.read(prefix + "_energy", basis.energy);
  archive.read(prefix + "_total_energy", total);
  basis.total_energy = total.item<double>();
  return basis;
}

}  // namespace

NeuralStepNetwork::NeuralStepNetwork(const torch::Tensor& snapshots,
                                     const NeuralStepArchitecture& architecture, std::uint64_t seed)
    : architecture_(architecture) {
  if (snapshots.size(0) < 3)
    throw InputError("the neural-step model needs at least three snapshots (two pairs)");
  torch::manual_seed(seed);
  basis_ = pod::compute_pod(snapshots, architecture_.modes);
  const long rows = snapshots.size(0) - 1;
  const torch::Tensor changes = snapshots.slice(0, 1) - snapshots.slice(0, 0, rows);
  change_basis_ = pod::compute_pod(changes, architecture_.change_modes);
  std::tie(in_mean_, in_scale_) = neural_step_moments(basis_.project(snapshots.slice(0, 0, rows)));
  std::tie(out_mean_, out_scale_) = neural_step_moments(change_basis_.project(changes));
  make_layers();
  torch::NoGradGuard no_grad;
  mlp_->ptr(mlp_->size() - 1)->as<torch::nn::Linear>()->weight.zero_();
  mlp_->ptr(mlp_->size() - 1)->as<torch::nn::Linear>()->bias.zero_();
  linear_->weight.zero_();
  linear_->bias.zero_();
}

void NeuralStepNetwork::make_layers() {
  const long n = basis_.size(), m = change_basis_.size();
  linear_ = torch::nn::Linear(n, m);
  mlp_ = torch::nn::Sequential();
  long width = n;
  for (long h : architecture_.hidden) {
    mlp_->push_back(torch::nn::Linear(width, h));
    mlp_->push_back(torch::nn::Tanh());
    width = h;
  }
  mlp_->push_back(torch::nn::Linear(width, m));
  linear_->to(kNeuralStepDtype);
  mlp_->to(kNeuralStepDtype);
  parameters_.clear();
  for (const auto& p : linear_->parameters()) parameters_.push_back(p);
  for (const auto& p : mlp_->parameters()) parameters_.push_back(p);
}

long NeuralStepNetwork::parameter_count() const {
  long count = 0;
  for (const auto& p : parameters_) count += p.numel();
  return count;
}

ScaledPairs NeuralStepNetwork::scaled_pairs(const torch::Tensor& snapshots) const {
  const long rows = snapshots.size(0) - 1;
  const torch::Tensor changes = snapshots.slice(0, 1) - snapshots.slice(0, 0, rows);
  return {scale_input(basis_.project(snapshots.slice(0, 0, rows))),
          scale_change(change_basis_.project(changes))};
}

torch::Tensor NeuralStepNetwork::scale_input(const torch::Tensor& coefficients) const {
  return (coefficients - in_mean_) / in_scale_;
}

torch::Tensor NeuralStepNetwork::scale_change(const torch::Tensor& change_coefficients) const {
  return (change_coefficients - out_mean_) / out_scale_;
}

torch::Tensor NeuralStepNetwork::forward(const torch::Tensor& scaled_input) {
  return linear_->forward(scaled_input) + mlp_->forward(scaled_input);
}

void NeuralStepNetwork::fit_linear_layer(const ScaledPairs& pairs) {
  torch::NoGradGuard no_grad;
  const torch::Tensor x =
      torch::cat({pairs.inputs, torch::ones({pairs.inputs.size(0), 1}, kNeuralStepDtype)}, 1);
  const torch::Tensor w =
      std::get<0>(torch::linalg::lstsq(x, pairs.targets, c10::nullopt, "gelsd"));
  const long n = pairs.inputs.size(1);
  linear_->weight.copy_(w.slice(0, 0, n).t());
  linear_->bias.copy_(w[n]);
}

PodProjection NeuralStepNetwork::project(const std::vector<double>& omega) const {
  const torch::Tensor centred = neural_step_vector(omega) - basis_.mean;
  PodProjection p;
  p.coefficients = torch::matmul(centred, basis_.modes);
  const torch::Tensor rest = centred - torch::matmul(basis_.modes, p.coefficients);
  const double norm = centred.norm().item<double>();
  p.error = norm > 0 ? rest.norm().item<double>() / norm : 0.0;
  return p;
}

std::vector<double> NeuralStepNetwork::propose(const std::vector<double>& omega,
                                               const PodProjection& p) {
  torch::NoGradGuard no_grad;
  const torch::Tensor scaled = scale_input(p.coefficients).unsqueeze(0);
  const torch::Tensor change = forward(scaled).squeeze(0) * out_scale_ + out_mean_;
  const torch::Tensor next = neural_step_vector(omega) + change_basis_.reconstruct(change);
  return std::vector<double>(next.data_ptr<double>(), next.data_ptr<double>() + next.numel());
}

torch::Tensor NeuralStepNetwork::propose_batch(const torch::Tensor& states) {
  torch::NoGradGuard no_grad;
  const torch::Tensor scaled = scale_input(basis_.project(states));
  const torch::Tensor change = forward(scaled) * out_scale_ + out_mean_;
  return states + change_basis_.reconstruct(change);
}

nlohmann::json NeuralStepNetwork::metadata(const nlohmann::json& about) const {
  nlohmann::json m = about.is_object() ? about : nlohmann::json::object();
  m["family"] = kFamily;
  m["format_version"] = kNeuralStepFormatVersion;
  m["points"] = points();
  m["modes"] = basis_.size();
  m["change_modes"] = change_basis_.size();
  m["hidden"] = architecture_.hidden;
  m["parameters"] = parameter_count();
  return m;
}

void NeuralStepNetwork::save(const std::filesystem::path& path, const nlohmann::json& about) const {
  torch::serialize::OutputArchive archive;
  write_basis(archive, "pod", basis_);
  write_basis(archive, "change_pod", change_basis_);
  archive.write("in_mean", in_mean_);
  archive.write("in_scale", in_scale_);
  archive.write("out_mean", out_mean_);
  archive.write("out_scale", out_scale_);
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    archive.write(fmt::format("parameter_{}", i), parameters_[i].detach());
  write_model_archive(path, archive, metadata(about));
}

NeuralStepNetwork NeuralStepNetwork::load(const std::filesystem::path& path) {
  torch::serialize::InputArchive archive;
  std::string text;
  if (!open_model_archive(path, archive, text))
    throw InputError(path.string() + ": not a surrox model file");
  const nlohmann::json meta = nlohmann::json::parse(text, nullptr, false);
  if (!meta.is_object() || meta.value("family", "") != kFamily)
    throw InputError(fmt::format("{}: a model of family '{}', not a neural-step model",
                                 path.string(),
                                 meta.is_object() ? meta.value("family", "field") : "?"));
  if (meta.value("format_version", 0) != kNeuralStepFormatVersion)
    throw InputError(fmt::format("{}: neural-step format version {} (this surrox reads {})",
                                 path.string(), meta.value("format_version", 0),
                                 kNeuralStepFormatVersion));
  NeuralStepNetwork net;
  net.stored_metadata_ = meta;
  try {
    net.architecture_.hidden = meta.at("hidden").get<std::vector<long>>();
    net.basis_ = read_basis(archive, "pod");
    net.change_basis_ = read_basis(archive, "change_pod");
    archive.read("in_mean", net.in_mean_);
    archive.read("in_scale", net.in_scale_);
    archive.read("out_mean", net.out_mean_);
    archive.read("out_scale", net.out_scale_);
    net.architecture_.modes = net.basis_.size();
    net.architecture_.change_modes = net.change_basis_.size();
    net.make_layers();
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < net.parameters_.size(); ++i) {
      torch::Tensor value;
      archive.read(fmt::format("parameter_{}", i), value);
      if (!value.sizes().equals(net.parameters_[i].sizes()))
        throw InputError(fmt::format("parameter {} has shape {}, the architecture needs {}", i,
                                     fmt::join(value.sizes(), "×"),
                                     fmt::join(net.parameters_[i].sizes(), "×")));
      net.parameters_[i].copy_(value);
    }
  } catch (const InputError& e) {
    throw InputError(path.string() + ": " + e.what());
  } catch (const std::exception& e) {
    throw InputError(path.string() + ": a damaged neural-step model (" + e.what() + ")");
  }
  return net;
}

}  // namespace surrox::surrogates::neural_step

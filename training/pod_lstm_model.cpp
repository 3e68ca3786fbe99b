#include "training/pod_lstm_model.hpp"

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::training::pod_lstm {

torch::Tensor PodLstmModel::forecast(const torch::Tensor& inputs) const {
  torch::NoGradGuard no_grad;
  network->eval();
  const torch::Tensor scaled = scaling.apply(inputs.to(torch::kFloat64)).to(torch::kFloat32);
  return scaling.undo(network->forward(scaled).to(torch::kFloat64));
}

nlohmann::json PodLstmModel::metadata() const {
  const torch::Tensor fractions = basis.energy_fractions().contiguous();
  return {
      {"family", kFamilyName},
      {"format_version", 1},
      {"network", options.to_json()},
      {"field", field},
      {"points", basis.points()},
      {"modes", basis.size()},
      {"energy_fractions", std::vector<double>(fractions.data_ptr<double>(),
                                               fractions.data_ptr<double>() + fractions.numel())},
      {"captured_energy", basis.captured_energy()},
      {"split", {{"train", train_fraction}, {"validation", validation_fraction}}},
      {"training", training}};
}

void PodLstmModel::save(const std::filesystem::path& path) const {
  torch::serialize::OutputArchive archive, weights;
  network->save(weights);
  archive.write("network", weights);
  archive.write("pod_mean", basis.mean);
  archive.write("pod_modes", basis.modes);
  archive.write("pod_energy", basis.energy);
  archive.write("pod_total_energy", torch::tensor(basis.total_energy, torch::kFloat64));
  archive.write("scale_mean", scaling.mean);
  archive.write("scale_std", scaling.std);
  archive.write("climatology", climatology);
  archive.write("linear_weights", linear.weights);
  archive.write("metadata", c10::IValue(metadata().dump()));
  AtomicFile file(path);
  archive.save_to(file.temporary().string());
  file.commit();
}

PodLstmModel PodLstmModel::load(const std::filesystem::path& path) {
  const std::string source = path.string();
  torch::serialize::InputArchive archive;
  std::string text;
  if (!std::filesystem::is_regular_file(path)) throw InputError(source + ": no such model file");
  if (!surrogates::open_model_archive(path, archive, text))
    throw InputError(source + ": not a surrox model");
  PodLstmModel m;
  try {
    const auto j = nlohmann::json::parse(text);
    if (j.value("family", std::string("field")) != kFamilyName)
      throw InputError(fmt::format("{}: a model of family '{}', not {}", source,
                                   j.value("family", std::string("field")), kFamilyName));
    m.options = surrogates::pod::StackedLstmOptions::from_json(j.at("network"));
    m.field = j.at("field").get<std::string>();
    m.train_fraction = j.at("split").at("train").get<double>();
    m.validation_fraction = j.at("split").at("validation").get<double>();
    m.training = j.value("training", nlohmann::json::object());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": damaged pod_lstm metadata (" + e.what() + ")");
  }
  try {
    torch::Tensor total;
    archive.read("pod_mean", m.basis.mean);
    archive.read("pod_modes", m.basis.modes);
    archive.read("pod_energy", m.basis.energy);
    archive.read("pod_total_energy", total);
    m.basis.total_energy = total.item<double>();
    archive.read("scale_mean", m.scaling.mean);
    archive.read("scale_std", m.scaling.std);
    archive.read("climatology", m.climatology);
    archive.read("linear_weights", m.linear.weights);
    m.network = std::make_shared<surrogates::pod::StackedLstm>(m.options);
    torch::serialize::InputArchive weights;
    archive.read("network", weights);
    m.network->load(weights);
  } catch (const c10::Error&) {
    throw InputError(source + ": the tensors do not fit the model its metadata describes");
  }
  m.network->eval();
  return m;
}

}  // namespace surrox::training::pod_lstm

#include "training/pod_lstm/pod_lstm_model.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::training::pod_lstm {

torch::Tensor PodLstmModel::member_forecast(std::size_t k, const torch::Tensor& inputs) const {
  torch::NoGradGuard no_grad;
  members.at(k)->eval();
  const torch::Tensor scaled = scaling.apply(inputs.to(torch::kFloat64)).to(torch::kFloat32);
  return scaling.undo(members[k]->forward(scaled).to(torch::kFloat64));
}

torch::Tensor PodLstmModel::ensemble_mean(const std::vector<torch::Tensor>& member_forecasts) {
  torch::Tensor sum = member_forecasts.at(0);
  for (std::size_t k = 1; k < member_forecasts.size(); ++k) sum = sum + member_forecasts[k];
  return sum / static_cast<double>(member_forecasts.size());
}

torch::Tensor PodLstmModel::forecast(const torch::Tensor& inputs) const {
  std::vector<torch::Tensor> each;
  for (std::size_t k = 0; k < members.size(); ++k) each.push_back(member_forecast(k, inputs));
  return ensemble_mean(each);
}

namespace {
// Member 0 keeps the single network's entry name, so one-network files stay as they were.
std::string pod_member_entry(std::size_t k) {
  return k == 0 ? std::string("network") : fmt::format("network_{}", k);
}
}  // namespace

nlohmann::json PodLstmModel::metadata() const {
  const torch::Tensor fractions = basis.energy_fractions().contiguous();
  return {
      {"family", kFamilyName},
      {"format_version", 1},
      {"network", options.to_json()},
      {"ensemble", members.size()},
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
  torch::serialize::OutputArchive archive;
  for (std::size_t k = 0; k < members.size(); ++k) {
    torch::serialize::OutputArchive weights;
    members[k]->save(weights);
    archive.write(pod_member_entry(k), weights);
  }
  archive.write("pod_mean", basis.mean);
  archive.write("pod_modes", basis.modes);
  archive.write("pod_energy", basis.energy);
  archive.write("pod_total_energy", torch::tensor(basis.total_energy, torch::kFloat64));
  archive.write("scale_mean", scaling.mean);
  archive.write("scale_std", scaling.std);
  archive.write("climatology", climatology);
  archive.write("linear_weights", linear.weights);
  surrogates::write_model_archive(path, archive, metadata());
}

PodLstmModel PodLstmModel::load(const std::filesystem::path& path) {
  const std::string source = path.string();
  torch::serialize::InputArchive archive;
  std::string text;
  if (!std::filesystem::is_regular_file(path)) throw InputError(source + ": no such model file");
  if (!surrogates::open_model_archive(path, archive, text))
    throw InputError(source + ": not a surrox model");
  PodLstmModel m;
  long ensemble = 1;
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
    ensemble = j.value("ensemble", 1L);
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
    if (ensemble < 1) throw InputError(source + ": damaged pod_lstm metadata (ensemble < 1)");
    for (std::size_t k = 0; k < static_cast<std::size_t>(ensemble); ++k) {
      auto member = std::make_shared<surrogates::pod::StackedLstm>(m.options);
      torch::serialize::InputArchive weights;
      archive.read(pod_member_entry(k), weights);
      member->load(weights);
      member->eval();
      m.members.push_back(member);
    }
  } catch (const c10::Error&) {
    throw InputError(source + ": the tensors do not fit the model its metadata describes");
  }
  return m;
}

}  // namespace surrox::training::pod_lstm

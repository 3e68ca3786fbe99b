#include "training/neural_step/neural_step_family.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "training/neural_step/neural_step_model.hpp"
#include "training/neural_step/neural_step_skill.hpp"
#include "training/pod_lstm/pod_lstm_data.hpp"

namespace surrox::training::neural_step {
namespace {

using pod_lstm::Snapshots;

// The time between snapshots: one window of the model. InputError when they are not evenly
// spaced (the network steps by one fixed window).
double window_time(const Snapshots& s) {
  if (s.steps() < 2) throw InputError(s.path.string() + ": fewer than two snapshots");
  const double interval = s.times[1] - s.times[0];
  for (long t = 1; t + 1 < s.steps(); ++t) {
    const double gap = s.times[t + 1] - s.times[t];
    if (!(std::abs(gap - interval) <= 1e-6 * std::abs(interval)))
      throw InputError(fmt::format(
          "{}: snapshots {} and {} are {:.9g} apart, the first two {:.9g}: a neural-step model "
          "needs evenly spaced snapshots (a run with a fixed dt writing every k steps)",
          s.path.string(), t, t + 1, gap, interval));
  }
  if (!(interval > 0)) throw InputError(s.path.string() + ": snapshot times do not increase");
  return interval;
}

void log_skill(const char* what, const nlohmann::json& skill) {
  spdlog::info(
      "neural step on {} {} pairs: median error relative to the change model {:.4g}, mean "
      "change {:.4g}, persistence 1; projection error median {:.3g}",
      skill["pairs"].get<long>(), what, skill["model"]["median_relative_to_change"].get<double>(),
      skill["mean_change"]["median_relative_to_change"].get<double>(),
      skill["projection_error"]["median"].get<double>());
}

class NeuralStepFamily final : public SurrogateFamily {
 public:
  void train(const TrainRequest& r, nlohmann::json& results) override;
  void evaluate(const EvaluateRequest& r, nlohmann::json& results) override;
};

void NeuralStepFamily::train(const TrainRequest& r, nlohmann::json& results) {
  const CaseNode root = r.config.root;
  const CaseNode data = root.section("data"), network = root.section("network"),
                 training = root.section("training");
  if (r.resume)
    throw InputError(
        "the neural_step family trains in memory in seconds and writes no checkpoint: run it "
        "again without --resume");
  NeuralStepOptions o;
  o.modes = network.integer("modes");
  o.change_modes = network.integer("change_modes");
  o.hidden.clear();
  for (long long h : network.integers("hidden")) {
    if (h < 1) network.fail("hidden", "layer widths are at least 1");
    o.hidden.push_back(h);
  }
  o.epochs = r.max_epochs > 0 ? std::min<long>(r.max_epochs, training.integer("epochs"))
                              : training.integer("epochs");
  o.batch = training.integer("batch");
  o.learning_rate = training.real("learning_rate");
  o.seed = static_cast<std::uint64_t>(training.integer("seed"));
  const std::filesystem::path path = data.string("path");
  const Snapshots s = pod_lstm::read_snapshots(path, data.string("field"));
  const double window = window_time(s);
  const long train_end = static_cast<long>(std::floor(data.real("split_train") * s.steps()));
  if (train_end < 3)
    data.fail("split_train", fmt::format("leaves {} of {} snapshots for training; at least 3",
                                         train_end, s.steps()));
  Stopwatch watch;
  NeuralStepModel model(s.values.slice(0, 0, train_end), o);
  const double fit_s = watch.seconds();
  spdlog::info(
      "neural step: {} training snapshots one window ({:.6g}) apart; POD of {}: {} modes ({:.1f} "
      "% of the variance), of its change: {} modes ({:.1f} %); {} parameters; pretraining loss "
      "{:.4g} ({:.1f} s)",
      train_end, window, s.field, model.basis().size(), 100 * model.basis().captured_energy(),
      model.change_basis().size(), 100 * model.change_basis().captured_energy(),
      model.parameter_count(), model.pretraining_loss(), fit_s);

  results["family"] = surrogates::neural_step::kFamily;
  results["snapshots"] = {{"total", s.steps()}, {"train", train_end}};
  results["window_time"] = window;
  results["pod"] = {{"modes", model.basis().size()},
                    {"captured_energy", model.basis().captured_energy()},
                    {"change_modes", model.change_basis().size()},
                    {"change_captured_energy", model.change_basis().captured_energy()}};
  results["parameters"] = model.parameter_count();
  results["pretraining_loss"] = model.pretraining_loss();
  results["epochs_trained"] = o.epochs;
  results["fit_s"] = fit_s;
  const long rollout = data.integer("rollout_windows");
  if (train_end < s.steps()) {
    results["held_out"] =
        neural_step_skill(model.network(), {s.values, s.times, train_end - 1, rollout, 20, {}, {}});
    log_skill("held-out", results["held_out"]);
  }
  const nlohmann::json about = {{"field", s.field},
                                {"window_time", window},
                                {"split_train", data.real("split_train")},
                                {"rollout_windows", rollout},
                                {"training",
                                 {{"config", r.config_path},
                                  {"data", path.string()},
                                  {"snapshots", train_end},
                                  {"first_time", s.times.front()},
                                  {"epochs", o.epochs},
                                  {"pretraining_loss", model.pretraining_loss()}}}};
  if (r.runtime.root()) {
    std::filesystem::create_directories(r.output_dir);
    model.network().save(r.output_dir / "model.pt", about);
    results["outputs"] = {{"model", (r.output_dir / "model.pt").string()}};
  }
}

void NeuralStepFamily::evaluate(const EvaluateRequest& r, nlohmann::json& results) {
  auto network = surrogates::neural_step::NeuralStepNetwork::load(r.model);
  const nlohmann::json& stored = network.stored_metadata();
  const Snapshots s = pod_lstm::read_snapshots(r.data, stored.at("field").get<std::string>());
  if (s.values.size(1) != network.points())
    throw InputError(fmt::format("{}: '{}' has {} values per snapshot, the model {}",
                                 r.data.string(), s.field, s.values.size(1), network.points()));
  const double window = window_time(s), trained = stored.at("window_time").get<double>();
  if (!(std::abs(window - trained) <= 1e-6 * trained))
    throw InputError(fmt::format("{}: snapshots {:.9g} apart, the model steps {:.9g}",
                                 r.data.string(), window, trained));
  // The file it trained on: only the part after its training snapshots is held out.
  const auto& t = stored.at("training");
  const bool same = std::filesystem::exists(t.at("data").get<std::string>()) &&
                    std::filesystem::equivalent(t.at("data").get<std::string>(), r.data);
  const long first = same ? t.at("snapshots").get<long>() - 1 : 0;
  SkillRequest request{s.values, s.times, first, stored.value("rollout_windows", 10L), 20, {}, {}};
  if (r.runtime.root() && !r.output_dir.empty()) {
    std::filesystem::create_directories(r.output_dir);
    request.pairs_csv = r.output_dir / "pairs.csv";
    request.rollout_csv = r.output_dir / "rollout.csv";
  }
  results["family"] = surrogates::neural_step::kFamily;
  results["measured_from"] = {
      {"snapshot", first}, {"time", s.times[first]}, {"held_out_of_training_file", same}};
  results["held_out"] = neural_step_skill(network, request);
  if (!request.pairs_csv.empty())
    results["outputs"] = {{"pairs_csv", request.pairs_csv.string()},
                          {"rollout_csv", request.rollout_csv.string()}};
  log_skill("held-out", results["held_out"]);
}

}  // namespace

Schema neural_step_training_schema() {
  Schema root(
      "A neural-step model config (family: neural_step): the neural_step coupler's proposal "
      "network (POD of a field and of its change over one window, a linear layer plus an MLP "
      "between their coefficients) trained offline on a solver's snapshots.");
  root.section("runtime", runtime_config_schema(), "threads and logging");
  Schema data(
      "The snapshots: one scalar field of a surrox dataset, evenly spaced in time (one window "
      "of the model apart), e.g. ω of a `qg` run with a fixed dt and output.interval = k dt; the "
      "first part trains, the rest is held out.");
  data.input_path("path", "the dataset (fields.h5 of `surrox run`); relative to this file");
  data.string("field", "the scalar field the network advances").fallback("omega");
  data.real("split_train", "fraction of the snapshots (the first ones) the network trains on")
      .above(0)
      .at_most(1)
      .fallback("0.8");
  data.integer("rollout_windows",
               "windows of the held-out rollouts (the network fed its own proposals)")
      .at_least(0)
      .fallback("10");
  root.section("data", data, "the snapshots and the split");
  Schema network("The proposal network.");
  network.integer("modes", "POD modes of the field: the network's input")
      .at_least(1)
      .fallback("32");
  network.integer("change_modes", "POD modes of the change over one window: the output")
      .at_least(1)
      .fallback("64");
  network.integers("hidden", "hidden layer widths of the MLP beside the linear layer")
      .fallback("[64, 64]");
  root.section("network", network, "bases and layers");
  Schema training(
      "Pretraining: the linear layer from least squares, then Adam epochs on both parts (in "
      "memory; no checkpoints: seconds to minutes).");
  training.integer("epochs", "Adam epochs over the training pairs (--max-epochs caps them)")
      .at_least(0)
      .fallback("200");
  training.integer("batch", "minibatch size").at_least(1).fallback("64");
  training.real("learning_rate", "Adam's learning rate").above(0).fallback("1e-3");
  training.integer("seed", "seed of the initial weights and of the minibatches")
      .at_least(0)
      .fallback("1");
  root.section("training", training, "optimizer and epochs");
  return root;
}

FamilyRegistry::Entry neural_step_family_entry() {
  return {[] { return std::make_unique<NeuralStepFamily>(); }, neural_step_training_schema(),
          "the neural_step coupler's proposal network, trained on a solver's snapshots"};
}

}  // namespace surrox::training::neural_step

#include "training/deep_potential/deep_potential_family.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/training_data.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/deep_potential/deep_potential_parity.hpp"
#include "training/deep_potential/deep_potential_task.hpp"
#include "training/loss_plot.hpp"
#include "training/optimizer.hpp"
#include "training/training_loop.hpp"

namespace surrox::training {
namespace {

namespace dp = surrogates::deep_potential;

// YAML text of a default, so that the schema's fallbacks are the model config's own defaults
// (one source: SeE2aConfig and SeE3Config).
std::string fallback_text(double v) { return fmt::format("{}", v); }
std::string fallback_text(long v) { return std::to_string(v); }
std::string fallback_text(bool v) { return v ? "true" : "false"; }
template <class T>
std::string fallback_text(const std::vector<T>& list) {
  std::vector<std::string> items;
  for (const auto& item : list) {
    if constexpr (std::is_same_v<T, std::string>)
      items.push_back(item);
    else
      items.push_back(std::to_string(item));
  }
  return "[" + fmt::format("{}", fmt::join(items, ", ")) + "]";
}

Schema dp_model_schema() {
  const dp::SeE2aConfig d;
  const dp::SeE3Config& d3 = d.three_body;
  Schema m("The se_e2_a model (DeePMD-kit's descriptor `se_e2_a` with an energy fitting net).");
  m.strings("type_map", "element names; type k is type_map[k]").fallback(fallback_text(d.type_map));
  m.real("rcut", "cutoff radius (Å)").above(0).fallback(fallback_text(d.rcut));
  m.real("rcut_smth", "where the smooth switch starts (Å), below rcut")
      .above(0)
      .fallback(fallback_text(d.rcut_smth));
  m.integers("sel", "neighbour slots per type (more neighbours: a warning)")
      .at_least(1)
      .fallback(fallback_text(d.sel));
  m.integers("embedding", "embedding net widths (DeePMD `neuron`)")
      .at_least(1)
      .fallback(fallback_text(d.embedding));
  m.integer("axis_neuron", "columns of G< in D = Gᵀ R̃ R̃ᵀ G<")
      .at_least(1)
      .fallback(fallback_text(d.axis_neuron));
  m.integer("angular_order",
            "1: DeePMD-kit's se_e2_a (angular moments l ≤ 1); 2: also the l = 2 moments "
            "(s·traceless r̂⊗r̂ columns and their own block of D), which see cos² θ")
      .at_least(1)
      .at_most(2)
      .fallback(fallback_text(d.angular_order));
  m.integers("fitting", "fitting net hidden widths").at_least(1).fallback(fallback_text(d.fitting));
  m.boolean("resnet_dt", "per-neuron timestep on the fitting net's resnet layers")
      .fallback(fallback_text(d.resnet_dt));
  m.integer("seed", "weight initialisation seed").at_least(0).fallback(fallback_text(d.seed));
  m.choice("precision", {"float64", "float32"},
           "the embedding and fitting nets' weights and arithmetic (DeePMD-kit's `precision`); "
           "the environment matrix, energy sums, forces and virial stay float64. float32 halves "
           "the nets' cost on most hardware at ~1e-6 relative rounding in the energy")
      .fallback(d.precision);
  Schema t(
      "DeePMD-kit's three-body embedding se_e3 beside se_e2_a (its `hybrid` descriptor): "
      "angles embedded, which se_e2_a's l ≤ 1 moments cannot resolve. Its slots are the "
      "nearest of se_e2_a's. Off while sel is empty.");
  t.real("rcut", "three-body cutoff (Å), at most the model's rcut")
      .above(0)
      .fallback(fallback_text(d3.rcut));
  t.real("rcut_smth", "where its smooth switch starts (Å), below its rcut")
      .above(0)
      .fallback(fallback_text(d3.rcut_smth));
  t.integers("sel", "three-body slots per type, each at most the model's sel; [] = off")
      .at_least(1)
      .fallback(fallback_text(d3.sel));
  t.integers("embedding", "three-body embedding net widths (the last is its descriptor size)")
      .at_least(1)
      .fallback(fallback_text(d3.embedding));
  m.section("three_body", t, "the se_e3 three-body part (DeePMD-kit `hybrid`)");
  m.integers("radial_embedding",
             "widths of DeePMD-kit's se_e2_r beside se_e2_a on the same environment (its "
             "`hybrid`): Σ_j Gr(s̃_j)/slots/5, neighbour sums the fitting net sees linearly, as "
             "a pair energy needs; [] = off")
      .at_least(1)
      .fallback(fallback_text(d.radial_embedding));
  return m;
}

Schema dp_loss_schema() {
  Schema l(
      "DeePMD-kit's loss L = p_e·mean(ΔE²)/N + p_f·mean(ΔF²) + p_v·mean(ΔV²)/N, each prefactor "
      "p = limit + (start − limit)·lr/lr₀.");
  l.real("start_pref_e", "energy prefactor at the start").at_least(0).fallback("0.02");
  l.real("limit_pref_e", "energy prefactor at the end").at_least(0).fallback("1.0");
  l.real("start_pref_f", "force prefactor at the start").at_least(0).fallback("1000");
  l.real("limit_pref_f", "force prefactor at the end").at_least(0).fallback("1.0");
  l.real("start_pref_v", "virial prefactor at the start").at_least(0).fallback("0");
  l.real("limit_pref_v", "virial prefactor at the end").at_least(0).fallback("0");
  return l;
}

Schema dp_config_schema() {
  Schema root(
      "A training config for `surrox train`, family `deep_potential`: DeePMD npy systems, the "
      "se_e2_a model and DeePMD's training schedule.");
  root.section("runtime", runtime_config_schema(), "threads and logging");
  Schema data("DeePMD npy systems (folders with type.raw, or folders of them).");
  data.strings("train", "training systems").fallback("[]");
  data.strings("validation", "held-out systems (trajectories not in train)").fallback("[]");
  data.integer("stat_frames", "frames per system for the davg/dstd statistics")
      .at_least(1)
      .fallback("50");
  root.section("data", data, "training data");
  root.section("model", dp_model_schema(), "the deep potential");
  Schema t("Steps of Adam (by default) with DeePMD's exponential decay lr₀·r^⌊t/decay_steps⌋.");
  t.integer("steps", "training steps (DeePMD numb_steps)").at_least(1).fallback("2000");
  t.integer("batch_size", "frames per step, all from one system; split over data-parallel ranks")
      .at_least(1)
      .fallback("1");
  t.integer("decay_steps", "steps between learning-rate decays").at_least(1).fallback("100");
  t.real("stop_lr", "learning rate reached at the last step").above(0).fallback("1e-6");
  t.component("optimizer", optimizers(), "optimizer; its lr is the start rate lr₀")
      .default_type("adam");
  t.section("loss", dp_loss_schema(), "loss prefactors");
  t.integer("disp_freq", "steps between metrics.csv rows (validation metrics)")
      .at_least(1)
      .fallback("100");
  t.integer("validation_frames", "validation frames per system at each row (all at the end)")
      .at_least(1)
      .fallback("8");
  t.integer("seed", "batch selection seed").at_least(0).fallback("1");
  t.boolean("change_bias_after_training",
            "DeePMD-kit's option: after the last step, shift the per-type energy bias by the "
            "least-squares fit of the energy errors on the first data.stat_frames frames of "
            "each training system (Adam leaves the energy offset wandering at small rates)")
      .fallback("false");
  t.input_path("init_model",
               "DeePMD-kit's --init-model (DP-GEN's training_init_model): start from this "
               "model.pt's weights, statistics and energy bias instead of fresh ones (same "
               "architecture; model.seed may differ); the schedule starts over")
      .optional();
  t.integer("save_freq",
            "steps between checkpoints (DeePMD save_freq); one is always written at the end")
      .at_least(1)
      .fallback("1000");
  root.section("training", t, "the schedule");
  return root;
}

std::vector<std::filesystem::path> dp_paths(const CaseNode& data, const std::string& key) {
  std::vector<std::filesystem::path> out;
  for (const auto& p : data.strings(key)) out.emplace_back(p);
  return out;
}

// training.init_model: every parameter and buffer (davg, dstd, bias, ...) of a trained model of
// the same architecture replaces the fresh ones.
void init_from_model(dp::SeE2aModel& model, const CaseNode& t) {
  const std::string path = t.string("init_model");
  dp::SeE2aModel init = dp::load_model(path);
  if (init->compressed() || init->three_body_compressed())
    t.fail("init_model",
           path + " is compressed (for inference); give the model before compression");
  nlohmann::json mine = model->config().to_json(), theirs = init->config().to_json();
  mine.erase("seed");
  theirs.erase("seed");
  if (mine != theirs)
    t.fail("init_model", fmt::format("{} has another architecture: {} where this config has {}",
                                     path, theirs.dump(), mine.dump()));
  torch::NoGradGuard no_grad;
  const auto parameters = init->named_parameters();
  for (auto& p : model->named_parameters()) p.value().copy_(parameters[p.key()]);
  const auto buffers = init->named_buffers();
  for (auto& b : model->named_buffers()) b.value().copy_(buffers[b.key()]);
  spdlog::info("deep_potential: initialised from {}", path);
}

dp::SeE2aConfig dp_model_config(const CaseNode& m) {
  dp::SeE2aConfig c;
  c.type_map = m.strings("type_map");
  c.rcut = m.real("rcut");
  c.rcut_smth = m.real("rcut_smth");
  c.sel.clear();
  c.embedding.clear();
  c.fitting.clear();
  for (long s : m.integers("sel")) c.sel.push_back(static_cast<int>(s));
  for (long long w : m.integers("embedding")) c.embedding.push_back(static_cast<long>(w));
  c.axis_neuron = m.integer("axis_neuron");
  c.angular_order = m.integer("angular_order");
  for (long long w : m.integers("fitting")) c.fitting.push_back(static_cast<long>(w));
  c.resnet_dt = m.boolean("resnet_dt");
  c.seed = m.integer("seed");
  c.precision = m.string("precision");
  if (c.sel.size() != c.type_map.size())
    m.fail("sel",
           fmt::format("{} entries for {} types in type_map", c.sel.size(), c.type_map.size()));
  if (!(c.rcut_smth < c.rcut)) m.fail("rcut_smth", "must be smaller than rcut");
  if (c.axis_neuron > c.embedding.back())
    m.fail("axis_neuron", "must not exceed the last embedding width");
  for (long long w : m.integers("radial_embedding"))
    c.radial_embedding.push_back(static_cast<long>(w));
  const CaseNode t = m.section("three_body");
  for (long s : t.integers("sel")) c.three_body.sel.push_back(static_cast<int>(s));
  if (c.three_body.enabled()) {
    c.three_body.rcut = t.real("rcut");
    c.three_body.rcut_smth = t.real("rcut_smth");
    c.three_body.embedding.clear();
    for (long long w : t.integers("embedding"))
      c.three_body.embedding.push_back(static_cast<long>(w));
    if (c.three_body.sel.size() != c.type_map.size())
      t.fail("sel", fmt::format("{} entries for {} types in type_map", c.three_body.sel.size(),
                                c.type_map.size()));
    for (std::size_t k = 0; k < c.sel.size(); ++k)
      if (c.three_body.sel[k] > c.sel[k])
        t.fail("sel", fmt::format("entry {} is {}, more than the model's sel ({}): the three-body "
                                  "slots are the nearest of its slots",
                                  k, c.three_body.sel[k], c.sel[k]));
    if (c.three_body.rcut > c.rcut)
      t.fail("rcut", fmt::format("must not exceed the model's rcut ({})", c.rcut));
    if (!(c.three_body.rcut_smth < c.three_body.rcut))
      t.fail("rcut_smth", "must be smaller than three_body.rcut");
  }
  return c;
}

// DeePMD-kit's change_bias_after_training: the energy errors E_label − E_model of the first
// `frames` frames of each system fitted by least squares on the frames' type counts, the fit
// added to the per-type bias. Every rank computes it alike (same model, same frames), so the
// ranks stay equal. Returns the shift per type (eV).
std::vector<double> change_energy_bias(dp::SeE2aModel& model,
                                       const std::vector<dp::SystemData>& systems, long frames) {
  torch::NoGradGuard no_grad;
  const int nt = model->config().ntypes();
  std::vector<std::vector<long>> counts;
  std::vector<double> errors;
  for (const auto& s : systems) {
    for (const std::vector<long>& chunk :
         dp::frame_chunks(0, std::min(frames, s.frames.frames), 8)) {
      const dp::EnvBatch b = dp::batch_frames(s, chunk, nt);
      const torch::Tensor e =
          model->atomic_energy_of_env(b.env, b.env3, b).view({b.frames, b.atoms}).sum(1);
      for (std::size_t k = 0; k < chunk.size(); ++k) {
        counts.push_back(s.type_counts(nt));
        errors.push_back(s.frames.energy[chunk[k]] - e[static_cast<long>(k)].item<double>());
      }
    }
  }
  const torch::Tensor before = model->bias.clone();
  model->fit_energy_bias(counts, errors);  // the bias now holds the fit of the errors
  const torch::Tensor shift = model->bias.clone();
  model->bias.add_(before);
  return std::vector<double>(shift.data_ptr<double>(), shift.data_ptr<double>() + nt);
}

class DeepPotentialFamily final : public SurrogateFamily {
 public:
  void train(const TrainRequest& request, nlohmann::json& results) override;
  void evaluate(const EvaluateRequest& request, nlohmann::json& results) override;
};

void DeepPotentialFamily::train(const TrainRequest& request, nlohmann::json& results) {
  const CaseNode root = request.config.root;
  const CaseNode data = root.section("data"), t = root.section("training");
  const dp::SeE2aConfig config = dp_model_config(root.section("model"));
  if (data.strings("train").empty()) data.fail("train", "give at least one training system");
  auto train = dp::load_systems(dp_paths(data, "train"), config);
  // The frames are fixed: their environment matrices and derivatives are computed once.
  for (auto& s : train) dp::precompute_environments(s, config);
  const auto valid = dp::load_systems(dp_paths(data, "validation"), config);
  long train_frames = 0, valid_frames = 0;
  for (const auto& s : train) train_frames += s.frames.frames;
  for (const auto& s : valid) valid_frames += s.frames.frames;
  // Data parallel: every rank draws the same batches; each takes its share of a batch's frames
  // and the gradients are summed, so N ranks reproduce one rank with the same batch_size.
  const std::unique_ptr<DataParallel> parallel = collective_data_parallel(request.runtime.comm());
  spdlog::info(
      "deep_potential: {} training systems ({} frames), {} validation ({} frames), {} rank(s)",
      train.size(), train_frames, valid.size(), valid_frames, parallel->size());

  dp::SeE2aModel model(config);
  if (t.has("init_model")) {
    init_from_model(model, t);  // its statistics and bias too: fresh ones would be overwritten
  } else {
    // DeePMD's statistics: davg/dstd of the environment matrix, energy bias by least squares.
    std::vector<dp::EnvBatch> stat;
    std::vector<std::vector<long>> counts;
    std::vector<double> energies;
    for (const auto& s : train) {
      std::vector<long> frames(std::min<long>(data.integer("stat_frames"), s.frames.frames));
      std::iota(frames.begin(), frames.end(), 0L);
      stat.push_back(dp::batch_frames(s, frames, config.ntypes()));
      for (long f = 0; f < s.frames.frames; ++f) {
        counts.push_back(s.type_counts(config.ntypes()));
        energies.push_back(s.frames.energy[f]);
      }
    }
    model->compute_statistics(stat);
    model->fit_energy_bias(counts, energies);
  }
  DeepPotentialTask task(model, train, valid, root, *parallel);
  TrainingLoopOptions options;
  options.optimizer = configured_optimizer(t.section("optimizer"));
  // A type absent from a step's system leaves its networks without gradients on every rank.
  options.step.unused_keep_no_gradient = true;
  options.checkpoint_interval = t.integer("save_freq");
  options.checkpoint = request.output_dir / "checkpoint.pt";
  options.resume = request.resume;
  options.stop_after = request.max_epochs;  // --max-epochs: at most that many more steps
  model->train();
  run_training(*model, task, *parallel, options);
  const DpTrainingState& state = task.state();
  const long total_steps = t.integer("steps");
  const double seconds = task.elapsed();
  const auto& checkpoint_path = options.checkpoint;
  model->eval();
  // After the checkpoint, so that resuming a finished run shifts the same weights again.
  if (t.boolean("change_bias_after_training") && state.step == total_steps) {
    const std::vector<double> shift = change_energy_bias(model, train, data.integer("stat_frames"));
    spdlog::info("deep_potential: energy bias changed after training by [{:.6g}] eV",
                 fmt::join(shift, ", "));
    results["energy_bias_change"] = shift;
  }
  const dp::ErrorSums train_all = dp_measure(model, train, -1, *parallel);
  const dp::ErrorSums valid_all = dp_measure(model, valid, -1, *parallel);
  long n_parameters = 0;
  for (const auto& p : model->parameters()) n_parameters += p.numel();
  results["model"] = config.to_json();
  results["parameters"] = n_parameters;
  results["steps"] = state.step;
  results["finished"] = state.step == total_steps;
  results["data_parallel_ranks"] = parallel->size();
  results["train"] = train_all.metrics();
  results["validation"] = valid.empty() ? nlohmann::json() : valid_all.metrics();
  results["training_seconds"] = seconds;
  results["steps_per_second"] =
      (state.step - task.first_step()) / std::max(seconds - task.first_seconds(), 1e-9);
  if (request.runtime.root()) {
    const auto& out = request.output_dir;
    dp::save_model(out / "model.pt", model,
                   {{"config", request.config_path},
                    {"steps", state.step},
                    {"train", dp_paths(data, "train")},
                    {"validation", dp_paths(data, "validation")}});
    write_text_atomically(out / "metrics.csv", state.csv);
    results["outputs"] = {{"model", (out / "model.pt").string()},
                          {"metrics_csv", (out / "metrics.csv").string()},
                          {"checkpoint", checkpoint_path.string()}};
    const std::string why = plot_loss_curves(out / "metrics.csv", out / "loss.png");
    if (why.empty())
      results["outputs"]["loss_png"] = (out / "loss.png").string();
    else
      spdlog::warn("no loss.png: {}", why);
  }
}

void DeepPotentialFamily::evaluate(const EvaluateRequest& request, nlohmann::json& results) {
  dp::SeE2aModel model = dp::load_model(request.model);
  model->eval();
  const auto systems = dp::load_systems({request.data}, model->config());
  dp::ErrorSums all;
  nlohmann::json per_system = nlohmann::json::array();
  std::vector<NamedParity> parity;
  for (const auto& s : systems) {
    parity.push_back({s.path, {}});
    const dp::ErrorSums e = dp::evaluate_system(model, s, 8, 0, -1, &parity.back().rows);
    all.add(e);
    nlohmann::json j = e.metrics();
    j["system"] = s.path;
    per_system.push_back(j);
  }
  const nlohmann::json overall = all.metrics();
  results["overall"] = overall;
  for (auto it = overall.begin(); it != overall.end(); ++it) results[it.key()] = it.value();
  results["systems"] = per_system;
  if (request.runtime.root() && !request.output_dir.empty())
    results["outputs"] = write_parity(request.output_dir, parity);
}

}  // namespace

FamilyRegistry::Entry deep_potential_family_entry() {
  return {[] { return std::make_unique<DeepPotentialFamily>(); }, dp_config_schema(),
          "DeePMD-kit se_e2_a deep potentials trained on DeePMD npy systems (MD frames)"};
}

}  // namespace surrox::training

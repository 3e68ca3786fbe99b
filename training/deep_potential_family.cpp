#include "training/deep_potential_family.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/training_data.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/deep_potential_family_checkpoint.hpp"
#include "training/deep_potential_parity.hpp"
#include "training/loss_plot.hpp"
#include "training/optimizer.hpp"

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

struct DpPrefactors {
  double e, f, v;
};

// This rank's share [begin, end) of n items.
std::pair<long, long> dp_share(long n, int rank, int size) {
  return {n * rank / size, n * (rank + 1) / size};
}

// This rank's part of one global batch's loss: its frames' squared errors divided by the global
// counts, so that the parts summed over ranks are DeePMD's loss of the whole batch.
torch::Tensor dp_loss_part(const dp::Prediction& p, const dp::Labels& l, double atoms,
                           long global_frames, const DpPrefactors& pref) {
  const double frames = static_cast<double>(global_frames);
  torch::Tensor loss = pref.e * (p.energy - l.energy).pow(2).sum() / (frames * atoms) +
                       pref.f * (p.force - l.force).pow(2).sum() / (frames * atoms * 3);
  if (pref.v > 0 && l.virial.defined())
    loss = loss + pref.v * (p.virial - l.virial).pow(2).sum() / (frames * 9 * atoms);
  return loss;
}

// `dp test` metrics over the first `frames` frames of each system (all when frames < 0), the
// frames split over the ranks and the sums combined.
dp::ErrorSums dp_measure(dp::SeE2aModel& model, const std::vector<dp::SystemData>& systems,
                         long frames, DataParallel& parallel) {
  dp::ErrorSums mine;
  for (const auto& s : systems) {
    const long n = frames < 0 ? s.frames.frames : std::min(frames, s.frames.frames);
    const auto [begin, end] = dp_share(n, parallel.rank(), parallel.size());
    if (end > begin) mine.add(dp::evaluate_system(model, s, 8, begin, end));
  }
  dp::ErrorSums all;
  all.energy2 = parallel.sum(mine.energy2);
  all.force2 = parallel.sum(mine.force2);
  all.virial2 = parallel.sum(mine.virial2);
  all.frames = std::lround(parallel.sum(static_cast<double>(mine.frames)));
  all.force_values = std::lround(parallel.sum(static_cast<double>(mine.force_values)));
  all.virial_values = std::lround(parallel.sum(static_cast<double>(mine.virial_values)));
  all.atoms = std::lround(parallel.sum(static_cast<double>(mine.atoms)));
  return all;
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
  auto parameters = model->parameters();
  auto optimizer = optimizers()
                       .at(t.section("optimizer").type(), t.section("optimizer").context("type"))
                       .make(parameters, t.section("optimizer"));
  const double lr0 = t.section("optimizer").real("lr"), stop_lr = t.real("stop_lr");
  const long total_steps = t.integer("steps");
  const long decay_steps = t.integer("decay_steps"), batch_size = t.integer("batch_size");
  const long save_freq = t.integer("save_freq");
  // r such that lr₀·r^(steps/decay_steps) = stop_lr (DeePMD-kit LearningRateExp).
  const double decay_rate =
      std::exp(std::log(stop_lr / lr0) / (static_cast<double>(total_steps) / decay_steps));
  const CaseNode lp = t.section("loss");
  const long disp = t.integer("disp_freq"), vframes = t.integer("validation_frames");
  // Systems drawn in proportion to their frames (DeePMD's default auto_prob "prob_sys_size").
  std::vector<double> weights;
  for (const auto& s : train) weights.push_back(static_cast<double>(s.frames.frames));
  std::mt19937_64 rng(static_cast<std::uint64_t>(t.integer("seed")));
  std::discrete_distribution<int> pick_system(weights.begin(), weights.end());

  const nlohmann::json identity = dp_checkpoint_identity(root);
  const auto checkpoint_path = request.output_dir / "checkpoint.pt";
  DpTrainingState state;
  state.csv =
      "epoch,train_loss,validation_loss,learning_rate,pref_e,pref_f,train_energy_rmse_per_atom,"
      "train_force_rmse,validation_energy_rmse_per_atom,validation_force_rmse,seconds\n";
  if (request.resume) {
    state = load_dp_checkpoint(*request.resume, model, *optimizer, identity);
    std::istringstream in(state.rng);
    in >> rng;
    if (!in) throw InputError("--resume " + request.resume->string() + ": corrupt generator state");
    spdlog::info("deep_potential: resumed from {} after step {}", request.resume->string(),
                 state.step);
  }
  // --max-epochs: this invocation trains at most that many more steps (then resume).
  const long first_step = state.step;
  const long last_step =
      request.max_epochs > 0 ? std::min(total_steps, first_step + request.max_epochs) : total_steps;
  auto save_checkpoint = [&](double seconds) {
    if (!request.runtime.root()) return;
    std::ostringstream out;
    out << rng;
    DpTrainingState s = state;
    s.rng = out.str();
    s.seconds = seconds;
    std::filesystem::create_directories(request.output_dir);
    save_dp_checkpoint(checkpoint_path, model, *optimizer, identity, s);
  };

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return state.seconds +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  model->train();
  for (long step = first_step; step < last_step; ++step) {
    const double lr = lr0 * std::pow(decay_rate, static_cast<double>(step / decay_steps));
    set_learning_rate(*optimizer, lr);
    const double coef = lr / lr0;
    const DpPrefactors pref{
        lp.real("limit_pref_e") + (lp.real("start_pref_e") - lp.real("limit_pref_e")) * coef,
        lp.real("limit_pref_f") + (lp.real("start_pref_f") - lp.real("limit_pref_f")) * coef,
        lp.real("limit_pref_v") + (lp.real("start_pref_v") - lp.real("limit_pref_v")) * coef};
    const auto& s = train[pick_system(rng)];
    std::vector<long> frames(std::min(batch_size, s.frames.frames));
    std::uniform_int_distribution<long> pick_frame(0, s.frames.frames - 1);
    for (auto& f : frames) f = pick_frame(rng);
    const auto [begin, end] =
        dp_share(static_cast<long>(frames.size()), parallel->rank(), parallel->size());
    optimizer->zero_grad();
    double loss_part = 0;
    if (end > begin) {
      const std::vector<long> mine(frames.begin() + begin, frames.begin() + end);
      const dp::EnvBatch batch = dp::batch_frames(s, mine, config.ntypes());
      const dp::Prediction p = dp::predict(model, batch, true);
      const torch::Tensor loss =
          dp_loss_part(p, dp::labels_of(s, mine), static_cast<double>(s.atoms()),
                       static_cast<long>(frames.size()), pref);
      loss.backward();
      loss_part = loss.item<double>();
    }
    if (parallel->size() > 1) {
      // A parameter no rank used (a type absent from the system) keeps no gradient, as on one
      // rank, so that Adam leaves it alone there too.
      std::vector<torch::Tensor> used{
          torch::zeros({static_cast<long>(parameters.size())}, torch::kFloat64)};
      for (std::size_t i = 0; i < parameters.size(); ++i)
        used[0][static_cast<long>(i)] = parameters[i].grad().defined() ? 1.0 : 0.0;
      parallel->sum_gradients(used);
      std::vector<torch::Tensor> gradients;
      for (auto& p : parameters) {
        if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
        gradients.push_back(p.grad());
      }
      parallel->sum_gradients(gradients);
      for (std::size_t i = 0; i < parameters.size(); ++i)
        if (used[0][static_cast<long>(i)].item<double>() == 0)
          parameters[i].mutable_grad() = torch::Tensor();
    }
    optimizer->step();
    state.running_loss += parallel->sum(loss_part);
    ++state.running;
    state.step = step + 1;
    if (state.step % disp == 0 || state.step == total_steps) {
      const dp::ErrorSums tr = dp_measure(model, train, vframes, *parallel);
      const dp::ErrorSums va = dp_measure(model, valid, vframes, *parallel);
      const auto trm = tr.metrics(), vam = va.metrics();
      const double seconds = elapsed();
      const double va_loss = valid.empty()
                                 ? NAN
                                 : pref.e * va.energy2 / std::max<long>(va.frames, 1) *
                                           (va.atoms / std::max<double>(va.frames, 1)) +
                                       pref.f * va.force2 / std::max<long>(va.force_values, 1);
      const double running_loss = state.running_loss / state.running;
      state.csv += fmt::format(
          "{},{:.10g},{:.10g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{},{},{:.3f}\n", state.step,
          running_loss, va_loss, lr, pref.e, pref.f, trm["energy_rmse_per_atom"].get<double>(),
          trm["force_rmse"].get<double>(),
          valid.empty() ? "nan" : fmt::format("{:.6g}", vam["energy_rmse_per_atom"].get<double>()),
          valid.empty() ? "nan" : fmt::format("{:.6g}", vam["force_rmse"].get<double>()), seconds);
      const double eta = (seconds - state.seconds) / (state.step - first_step) *
                         static_cast<double>(total_steps - state.step);
      spdlog::info(
          "step {}/{}: loss {:.4g}, lr {:.3g}, train E {:.3g} eV/atom F {:.3g} eV/Å{}, ETA {:.0f} s",
          state.step, total_steps, running_loss, lr, trm["energy_rmse_per_atom"].get<double>(),
          trm["force_rmse"].get<double>(),
          valid.empty() ? std::string()
                        : fmt::format(", validation E {:.3g} F {:.3g}",
                                      vam["energy_rmse_per_atom"].get<double>(),
                                      vam["force_rmse"].get<double>()),
          eta);
      state.running_loss = 0;
      state.running = 0;
    }
    if (state.step % save_freq == 0 && state.step != last_step) save_checkpoint(elapsed());
  }
  const double seconds = elapsed();
  save_checkpoint(seconds);  // at the end, and where --max-epochs paused the run
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
  for (const auto& p : parameters) n_parameters += p.numel();
  results["model"] = config.to_json();
  results["parameters"] = n_parameters;
  results["steps"] = state.step;
  results["finished"] = state.step == total_steps;
  results["data_parallel_ranks"] = parallel->size();
  results["train"] = train_all.metrics();
  results["validation"] = valid.empty() ? nlohmann::json() : valid_all.metrics();
  results["training_seconds"] = seconds;
  results["steps_per_second"] = (state.step - first_step) / std::max(seconds - state.seconds, 1e-9);
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

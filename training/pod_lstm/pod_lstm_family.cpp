#include "training/pod_lstm/pod_lstm_family.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <fstream>
#include <functional>
#include <memory>
#include <optional>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/loss_plot.hpp"
#include "training/pod_lstm/pod_lstm_members.hpp"
#include "training/pod_lstm/pod_lstm_metrics.hpp"
#include "training/pod_lstm/pod_lstm_model.hpp"
#include "training/pod_lstm/pod_lstm_search.hpp"
#include "training/trainer.hpp"

namespace surrox::training {
namespace pod_lstm {
namespace {

std::vector<double> pod_to_vector(const torch::Tensor& x) {
  const torch::Tensor c = x.to(torch::kFloat64).contiguous();
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

// The true snapshots of every window's output steps: [W, output, n].
torch::Tensor pod_output_fields(const Snapshots& s, const std::vector<long>& starts, long input,
                                long output) {
  std::vector<torch::Tensor> rows;
  for (const long st : starts) rows.push_back(s.values.slice(0, st + input, st + input + output));
  return torch::stack(rows);
}

// Every forecaster's skill on the windows at `starts`, and a CSV of the forecasts.
nlohmann::json pod_skill_report(const PodLstmModel& m, const Snapshots& s,
                                const torch::Tensor& coefficients, const std::vector<long>& starts,
                                const std::filesystem::path& csv) {
  const long in = m.options.input_steps, out = m.options.output_steps, n = m.basis.size();
  const Windows w = make_windows(coefficients, starts, in, out);
  const torch::Tensor fields = pod_output_fields(s, starts, in, out);
  // Each member's forecast once: the ensemble's is their mean.
  std::vector<torch::Tensor> members;
  for (std::size_t k = 0; k < m.members.size(); ++k)
    members.push_back(m.member_forecast(k, w.inputs));
  const std::vector<std::pair<std::string, torch::Tensor>> forecasts = {
      {"lstm", PodLstmModel::ensemble_mean(members)},
      {"persistence", persistence_forecast(w.inputs, n, out)},
      {"climatology", climatology_forecast(m.climatology, w.count(), out)},
      {"linear", m.linear.forecast(w.inputs)}};
  nlohmann::json report;
  for (const auto& [name, f] : forecasts)
    report[name] = measure_skill(f, w.targets, fields, m.basis).to_json();
  if (m.members.size() > 1) {
    // Each member alone: how much the ensemble mean gains over its members.
    std::vector<double> member_r2;
    for (const torch::Tensor& f : members)
      member_r2.push_back(measure_skill(f, w.targets, fields, m.basis).mean_r2);
    report["lstm_members_mean_r2"] = member_r2;
  }
  report["windows"] = w.count();
  report["first_time"] = s.times[static_cast<std::size_t>(starts.front())];
  report["last_time"] = s.times[static_cast<std::size_t>(starts.back() + in + out - 1)];
  // Truncation floor: the RMSE of the truth's own N-mode reconstruction per lead.
  const torch::Tensor truth_recon = m.basis.reconstruct(w.targets.view({w.count(), out, n}));
  report["projection_rmse_per_lead"] =
      pod_to_vector((truth_recon - fields).pow(2).mean(std::vector<long>{0, 2}).sqrt());
  if (!csv.empty()) {
    AtomicFile file(csv);
    std::ofstream o(file.temporary());
    o << "window,lead,mode,time,truth";
    for (const auto& [name, f] : forecasts) o << "," << name;
    o << "\n";
    o.precision(10);
    std::vector<torch::Tensor> views;
    for (const auto& entry : forecasts) views.push_back(entry.second.view({w.count(), out, n}));
    const torch::Tensor truth = w.targets.view({w.count(), out, n});
    for (long k = 0; k < w.count(); ++k)
      for (long l = 0; l < out; ++l)
        for (long j = 0; j < n; ++j) {
          o << k << "," << l + 1 << "," << j + 1 << ","
            << s.times[static_cast<std::size_t>(starts[k] + in + l)] << ","
            << truth[k][l][j].item<double>();
          for (const auto& v : views) o << "," << v[k][l][j].item<double>();
          o << "\n";
        }
    o.close();
    file.commit();
  }
  return report;
}

void pod_require_windows(const std::vector<long>& starts, const std::string& what, long begin,
                         long end, long window, const std::string& source) {
  if (starts.empty())
    throw InputError(fmt::format(
        "{}: too few snapshots for the window: the {} part holds {} (snapshots {}..{}), a "
        "window needs {} (input + output steps)",
        source, what, end - begin, begin, end, window));
}

class PodLstmFamily final : public SurrogateFamily {
 public:
  void train(const TrainRequest& r, nlohmann::json& results) override;
  void evaluate(const EvaluateRequest& r, nlohmann::json& results) override;
};

// The model's configuration from the data and network sections (no weights yet).
PodLstmModel pod_model_config(const CaseNode& data, const CaseNode& network) {
  PodLstmModel m;
  m.field = data.string("field");
  m.train_fraction = data.real("split_train");
  m.validation_fraction = data.real("split_validation");
  if (m.train_fraction + m.validation_fraction > 1 + 1e-12)
    data.fail("split_validation", "split_train + split_validation must be at most 1");
  m.options.input_steps = data.integer("input_steps");
  m.options.output_steps = data.integer("output_steps");
  m.options.layers.clear();
  for (const auto w : network.integers("layers")) {
    if (w < 1) network.fail("layers", "every layer width must be at least 1");
    m.options.layers.push_back(static_cast<long>(w));
  }
  if (m.options.layers.empty()) network.fail("layers", "needs at least one layer width");
  m.options.skip = network.boolean("skip");
  m.options.highway = network.boolean("highway");
  return m;
}

// What training needs after the POD: the snapshots, their coefficients, the windows of each
// part and the scaled training and validation sets.
struct PodTrainingData {
  Snapshots snapshots;
  TimeSplit split;
  torch::Tensor coefficients;
  std::vector<long> train_starts, validation_starts, test_starts;
  TensorSet train, validation;
  torch::Tensor linear_start;  // the highway's start (scaled units), or undefined
};

// POD, scaling, the linear baseline and the windows; fills m's basis, scaling, climatology
// and linear model (all from the training snapshots only).
PodTrainingData prepare_pod_training(PodLstmModel& m, const CaseNode& data,
                                     const std::filesystem::path& path) {
  PodTrainingData d{read_snapshots(path, m.field), {}, {}, {}, {}, {}, {}, {}, {}};
  const Snapshots& s = d.snapshots;
  d.split = TimeSplit::from_fractions(s.steps(), m.train_fraction, m.validation_fraction);
  const TimeSplit& split = d.split;
  const long in = m.options.input_steps, out = m.options.output_steps;
  d.train_starts = window_starts(0, split.train_end, in, out);
  d.validation_starts = window_starts(split.train_end, split.validation_end, in, out);
  d.test_starts = window_starts(split.test_begin(), split.steps, in, out);
  pod_require_windows(d.train_starts, "training", 0, split.train_end, in + out, path.string());

  // POD and scaling see the training snapshots only.
  m.basis =
      surrogates::pod::compute_pod(s.values.slice(0, 0, split.train_end), data.integer("modes"));
  m.options.modes = m.basis.size();
  d.coefficients = m.basis.project(s.values);
  m.scaling = Scaling::fit(d.coefficients, 0, split.train_end);
  m.climatology = m.scaling.mean.clone();
  const Windows train_raw = make_windows(d.coefficients, d.train_starts, in, out);
  m.linear = LinearForecaster::fit(train_raw.inputs, train_raw.targets);
  const auto scaled = [&](const std::vector<long>& starts) {
    const Windows w = make_windows(d.coefficients, starts, in, out);
    if (w.count() == 0) return TensorSet{};
    return TensorSet{m.scaling.apply(w.inputs).to(torch::kFloat32),
                     m.scaling.apply(w.targets).to(torch::kFloat32), torch::Tensor()};
  };
  d.train = scaled(d.train_starts);
  d.validation = scaled(d.validation_starts);
  spdlog::info(
      "pod_lstm: {} snapshots of '{}' ({} points); {} POD modes capture {:.4f} of the training "
      "energy; windows: {} training, {} validation, {} test",
      s.steps(), m.field, m.basis.points(), m.basis.size(), m.basis.captured_energy(),
      d.train.rows(), d.validation.rows(), d.test_starts.size());
  // With the highway, training starts from the least-squares linear model (in scaled units).
  if (m.options.highway)
    d.linear_start =
        LinearForecaster::fit(d.train.inputs, d.train.targets).weights.to(torch::kFloat32);
  return d;
}

// The architecture search (pod_lstm_search.hpp): candidates scored on the validation windows;
// m gets the best architecture; the report goes to results["search"].
void run_pod_search(const TrainRequest& r, PodLstmModel& m, const PodTrainingData& d,
                    const PodNetworkFactory& new_network, nlohmann::json& results) {
  const CaseNode root = r.config.root;
  const CaseNode search = root.section("search"), training = root.section("training");
  const long in = m.options.input_steps, out = m.options.output_steps;
  // Candidates are scored on the validation windows; the test part stays unseen.
  if (d.validation_starts.empty())
    search.fail("budget",
                "the search scores candidates on the validation part, which holds no "
                "window (raise data.split_validation)");
  const Windows vw = make_windows(d.coefficients, d.validation_starts, in, out);
  const torch::Tensor validation_fields =
      pod_output_fields(d.snapshots, d.validation_starts, in, out);
  const auto seed = static_cast<std::uint64_t>(search.integer("seed"));
  // The training section with the search's epochs: a candidate ends as a full run does
  // (early stopping, the best epoch's weights restored).
  YAML::Node short_run = YAML::Clone(training.yaml());
  short_run["epochs"] = search.integer("epochs");
  const CaseNode candidate_training(short_run, training.origin_ptr(), training.path());
  nlohmann::json report;
  const Candidate best = search_architecture(
      search, r.runtime.comm(), r.output_dir,
      [&](const Candidate& c) {
        PodLstmModel candidate = m;
        candidate.options.layers = c.architecture.layers;
        candidate.options.skips = c.architecture.skips;
        candidate.members = {
            new_network(candidate.options, seed * 100003 + static_cast<std::uint64_t>(c.id))};
        Trainer single(candidate_training);  // this rank alone
        single.fit(*candidate.members[0], d.train, d.validation,
                   r.output_dir / "search" / fmt::format("candidate_{:03d}", c.id));
        return measure_skill(candidate.forecast(vw.inputs), vw.targets, validation_fields, m.basis)
            .mean_r2;
      },
      report);
  m.options.layers = best.architecture.layers;
  m.options.skips = best.architecture.skips;
  results["search"] = report;
}

void PodLstmFamily::train(const TrainRequest& r, nlohmann::json& results) {
  const CaseNode root = r.config.root;
  const CaseNode data = root.section("data"), network = root.section("network");
  PodLstmModel m = pod_model_config(data, network);
  const std::filesystem::path path = data.string("path");
  const PodTrainingData d = prepare_pod_training(m, data, path);
  const Snapshots& s = d.snapshots;
  const TimeSplit& split = d.split;
  const PodNetworkFactory new_network = [&](const surrogates::pod::StackedLstmOptions& options,
                                            std::uint64_t seed) {
    torch::manual_seed(seed);
    auto network = std::make_shared<surrogates::pod::StackedLstm>(options);
    if (options.highway) network->start_from_linear(d.linear_start);
    return network;
  };
  if (r.runtime.root()) std::filesystem::create_directories(r.output_dir);
  if (search_requested(root.section("search"))) run_pod_search(r, m, d, new_network, results);
  PodMembers members = train_pod_members(r, m.options, d.train, d.validation, new_network);
  m.members = std::move(members.networks);
  const nlohmann::json& fit = members.first;  // member 0's figures
  const long ensemble = network.integer("ensemble");
  m.training = {{"config", r.config_path},
                {"data", path.string()},
                {"snapshots", s.steps()},
                {"split_steps",
                 {{"train", split.train_end},
                  {"validation", split.validation_end - split.train_end},
                  {"test", split.steps - split.validation_end}}},
                {"epochs", fit.at("epochs")},
                {"best_epoch", fit.at("best_epoch")},
                {"best_validation_loss", fit.at("best_validation_loss")},
                {"members", members.reports}};

  results["family"] = kFamilyName;
  results["parameters"] = m.members[0]->parameter_count() * static_cast<long>(m.members.size());
  results["ensemble"] = {{"members", m.members.size()}, {"requested", ensemble}};
  if (!members.failed.empty()) results["ensemble"]["failed"] = members.failed;
  results["pod"] = {{"modes", m.basis.size()},
                    {"energy_fractions", pod_to_vector(m.basis.energy_fractions())},
                    {"captured_energy", m.basis.captured_energy()}};
  results["windows"] = {{"train", d.train.rows()},
                        {"validation", d.validation.rows()},
                        {"test", static_cast<long>(d.test_starts.size())}};
  results["split_steps"] = m.training["split_steps"];
  results["epochs_trained"] = fit.at("epochs");
  results["best_epoch"] = fit.at("best_epoch");
  results["best_validation_loss"] = fit.at("best_validation_loss");
  results["final_train_loss"] = fit.at("final_train_loss");
  results["samples_per_second"] = fit.at("samples_per_second");
  results["finished"] = members.finished && static_cast<long>(m.members.size()) == ensemble;
  if (!d.validation_starts.empty())
    results["validation"] = pod_skill_report(m, s, d.coefficients, d.validation_starts, {});
  if (!d.test_starts.empty())
    results["test"] = pod_skill_report(m, s, d.coefficients, d.test_starts, {});
  if (r.runtime.root()) {
    m.save(r.output_dir / "model.pt");
    results["outputs"] = {{"model", (r.output_dir / "model.pt").string()},
                          {"metrics_csv", (r.output_dir / "metrics.csv").string()},
                          {"checkpoint", (r.output_dir / "checkpoint.pt").string()}};
    const std::string why =
        plot_loss_curves(r.output_dir / "metrics.csv", r.output_dir / "loss.png");
    if (why.empty())
      results["outputs"]["loss_png"] = (r.output_dir / "loss.png").string();
    else
      results["outputs"]["loss_png_missing"] = why;
  }
}

void PodLstmFamily::evaluate(const EvaluateRequest& r, nlohmann::json& results) {
  const PodLstmModel m = PodLstmModel::load(r.model);
  const Snapshots s = read_snapshots(r.data, m.field);
  if (s.values.size(1) != m.basis.points())
    throw InputError(fmt::format("{}: '{}' has {} values per snapshot, the model's POD basis {}",
                                 r.data.string(), m.field, s.values.size(1), m.basis.points()));
  const TimeSplit split =
      TimeSplit::from_fractions(s.steps(), m.train_fraction, m.validation_fraction);
  const long in = m.options.input_steps, out = m.options.output_steps;
  const auto starts = window_starts(split.test_begin(), split.steps, in, out);
  pod_require_windows(starts, "test", split.test_begin(), split.steps, in + out, r.data.string());
  const torch::Tensor coefficients = m.basis.project(s.values);
  const std::filesystem::path csv = r.runtime.root() && !r.output_dir.empty()
                                        ? r.output_dir / "forecasts.csv"
                                        : std::filesystem::path();
  if (!csv.empty()) std::filesystem::create_directories(r.output_dir);
  results["pod"] = {{"modes", m.basis.size()},
                    {"energy_fractions", pod_to_vector(m.basis.energy_fractions())},
                    {"captured_energy", m.basis.captured_energy()}};
  results["test_steps"] = {{"first", split.test_begin()},
                           {"count", split.steps - split.test_begin()}};
  results["test"] = pod_skill_report(m, s, coefficients, starts, csv);
  if (!csv.empty()) results["outputs"] = {{"forecasts_csv", csv.string()}};
  const auto& t = results["test"];
  spdlog::info(
      "pod_lstm on {} test windows: mean R² lstm {:.4f}, persistence {:.4f}, linear {:.4f}, "
      "climatology {:.4f}",
      t["windows"].get<long>(), t["lstm"]["mean_r2"].get<double>(),
      t["persistence"]["mean_r2"].get<double>(), t["linear"]["mean_r2"].get<double>(),
      t["climatology"]["mean_r2"].get<double>());
}

}  // namespace

Schema pod_lstm_schema() {
  Schema root(
      "A POD-LSTM emulator config (family: pod_lstm): POD of one field's snapshots, a stacked "
      "LSTM forecasting the coefficients (docs/validation/qg.md).");
  root.section("runtime", runtime_config_schema(), "threads and logging");
  Schema data(
      "The snapshot series (a surrox dataset, e.g. the QG emulation dataset) and its split in "
      "time: training, validation, then test; windows never straddle a boundary.");
  data.input_path("path", "the dataset (fields.h5 of `surrox run`); relative to this file");
  data.string("field", "the scalar field to emulate").fallback("psi");
  data.integer("modes", "POD modes kept (fewer when the training part has fewer snapshots)")
      .at_least(1)
      .fallback("5");
  data.integer("input_steps", "snapshots in per forecast (SC20: 8)").at_least(1).fallback("8");
  data.integer("output_steps", "snapshots forecast (SC20: 8)").at_least(1).fallback("8");
  data.real("split_train", "fraction of the snapshots in the training part (the first ones)")
      .above(0)
      .at_most(1)
      .fallback("0.7");
  data.real("split_validation", "fraction in the validation part (next); the test part is the rest")
      .at_least(0)
      .below(1)
      .fallback("0.15");
  root.section("data", data, "the snapshots and the split");
  Schema network("The stacked LSTM.");
  network.integers("layers", "hidden width of each LSTM layer, bottom first").fallback("[32]");
  network.boolean("skip", "layer l ≥ 2 also reads layer l − 2's output (SC20's skip connections)")
      .fallback("false");
  network
      .boolean("highway",
               "add a linear map of the whole input window to the output (LSTNet's "
               "autoregressive component), started from the least-squares fit with the LSTM "
               "head at zero: training starts from the linear model and learns a correction")
      .fallback("false");
  network
      .integer("ensemble",
               "members trained from the seeds training.seed, training.seed + 1, …; the forecast "
               "is their mean (member k ≥ 1 trains in OUTDIR/member_k)")
      .at_least(1)
      .fallback("1");
  network
      .integer("ranks_per_member",
               "ranks that train one member: 0, every rank (members one after another, each "
               "data-parallel over all ranks); n, members side by side on groups of n ranks (n "
               "must divide the rank count; results then depend on n as on a rank count)")
      .at_least(0)
      .fallback("0");
  root.section("network", network, "the forecaster");
  root.section("training", Trainer::schema(), "optimizer, schedule, loss, epochs, checkpoints");
  root.section("search", search_schema(),
               "architecture search over the network's layers and skips (off by default)");
  return root;
}

}  // namespace pod_lstm

FamilyRegistry::Entry pod_lstm_family_entry() {
  return {[] { return std::make_unique<pod_lstm::PodLstmFamily>(); }, pod_lstm::pod_lstm_schema(),
          "POD-LSTM emulator of a field's time series (QG double gyre), with baselines"};
}

}  // namespace surrox::training

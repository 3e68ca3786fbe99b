#include "couplers/neural_step/neural_step.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "core/statistics.hpp"
#include "core/timer.hpp"
#include "couplers/neural_step/neural_step_report.hpp"

namespace surrox::couplers {
namespace {

using solvers::qg::QgSolver;

struct NeuralStepSettings {
  NeuralStepOptions model;
  GuardTolerances guard;
  std::vector<double> tolerances;
  long k = 10, repeats = 1, samples = 50, blocks = 5;
  double start_time = 0, training_time = 0;
  bool online = true;
  std::filesystem::path model_file;  // a trained network (surrox train, family neural_step)
};

NeuralStepSettings neural_step_settings(const Runtime& runtime, const CaseNode& section) {
  if (runtime.size() > 1)
    throw InputError(fmt::format("the neural-step coupler runs on one MPI rank (got {}): its wall "
                                 "times compare runs on the same core",
                                 runtime.size()),
                     section.context());
  NeuralStepSettings s;
  s.k = section.integer("steps");
  s.model.modes = section.integer("modes");
  s.model.change_modes = section.integer("change_modes");
  s.model.hidden.clear();
  for (long long h : section.integers("hidden")) {
    if (h < 1) section.fail("hidden", "layer widths are at least 1");
    s.model.hidden.push_back(h);
  }
  s.model.epochs = section.integer("epochs");
  s.model.batch = section.integer("batch");
  s.model.learning_rate = section.real("learning_rate");
  s.model.buffer = section.integer("buffer");
  s.model.updates = section.integer("updates");
  s.model.seed = static_cast<std::uint64_t>(section.integer("seed"));
  s.tolerances = section.reals("tolerances");
  if (s.tolerances.empty()) section.fail("tolerances", "needs at least one residual tolerance");
  for (double t : s.tolerances)
    if (!(t > 0)) section.fail("tolerances", "residual tolerances are positive");
  s.guard.bounds = section.real("bounds");
  s.guard.projection = section.real("projection");
  s.start_time = section.real("start_time");
  s.training_time = section.real("training_time");
  s.online = section.boolean("online");
  s.repeats = section.integer("repeats");
  s.samples = section.integer("samples");
  s.blocks = section.integer("blocks");
  if (section.has("model")) s.model_file = section.string("model");
  return s;
}

// The windows of one case; InputError at the case's keys where it does not fit.
NeuralStepWindows neural_step_windows(const NeuralStepSettings& s, const CoupledCase& c,
                                      const CaseNode& section) {
  const CaseNode& solver = c.solver;
  if (solver.type() != "qg")
    solver.fail("type",
                "the neural-step coupler drives the QG solver (qg); this case's solver "
                "is '" +
                    solver.type() + "'");
  NeuralStepWindows w;
  w.k = s.k;
  w.dt = solver.real("dt");
  if (!(w.dt > 0))
    solver.fail("dt",
                "the neural-step coupler needs a fixed time step (a window is k equal "
                "steps): set solver.dt");
  const double tau = double(w.k) * w.dt;
  const double end = solver.real("end_time");
  const double compare_from = s.start_time + s.training_time;
  if (std::floor(s.training_time / tau + 1e-9) < 2)
    section.fail("training_time", fmt::format("holds fewer than 2 windows of k Δt = {:.6g}", tau));
  w.windows = static_cast<long>(std::floor((end - compare_from) / tau + 1e-9));
  if (w.windows < 1)
    solver.fail("end_time", fmt::format("leaves no window of k Δt = {:.6g} after start_time + "
                                        "training_time = {:.6g}",
                                        tau, compare_from));
  if (solver.real("steady_tolerance") > 0)
    solver.fail("steady_tolerance", "a run that may stop early has no fixed window count: set 0");
  w.sample_every = std::max(1L, w.windows / s.samples);
  w.blocks = std::min(s.blocks, w.windows);
  return w;
}

// Advances the solver to `time` (steps landing on it).
void run_solver_to(QgSolver& solver, double time) {
  solver.limit_step_to(time);
  while (solver.time() < time * (1 - 1e-12)) solver.advance();
  solver.limit_step_to(INFINITY);
}

// ω every k steps over `windows` windows ([windows + 1, n]: the POD and pretraining data) and
// the ranges of energy and enstrophy they went through (the guard's bounds).
struct TrainingRun {
  torch::Tensor snapshots;
  double energy_min = INFINITY, energy_max = -INFINITY;
  double enstrophy_min = INFINITY, enstrophy_max = -INFINITY;
};

TrainingRun training_run(QgSolver& solver, long k, long windows) {
  const long n = solver.owned_nodes();
  const double area = solver.hx() * solver.hy();
  TrainingRun t{torch::empty({windows + 1, n}, torch::kFloat64)};
  for (long w = 0; w <= windows; ++w) {
    if (w > 0)
      for (long s = 0; s < k; ++s) solver.advance();
    const std::vector<double> omega = solver.vorticity();
    t.snapshots[w].copy_(torch::from_blob(const_cast<double*>(omega.data()), {n}, torch::kFloat64));
    const double e = qg_energy(solver.streamfunction(), omega, area);
    const double z = qg_enstrophy(omega, area);
    t.energy_min = std::min(t.energy_min, e), t.energy_max = std::max(t.energy_max, e);
    t.enstrophy_min = std::min(t.enstrophy_min, z), t.enstrophy_max = std::max(t.enstrophy_max, z);
  }
  return t;
}

// The comparison start with ω perturbed by 1e-8 of itself (a deterministic pattern): the pure
// solver from there measures how far round-off alone moves the chaotic flow.
QgStartState perturbed(QgSolver& solver, const QgStartState& start) {
  std::vector<double> omega = start.omega;
  for (std::size_t n = 0; n < omega.size(); ++n)
    omega[n] *= 1 + 1e-8 * std::sin(0.7 * double(n) + 0.3);
  solver.set_vorticity(omega);
  QgStartState p = qg_start_state(solver);
  p.time = start.time;
  p.step = start.step;
  return p;
}

// The trained network of `coupler.model`, checked against this case: the same points and one
// window = k dt.
NeuralStepNetwork trained_network(const NeuralStepSettings& s, const NeuralStepWindows& w,
                                  long points, const CaseNode& section) {
  NeuralStepNetwork network = NeuralStepNetwork::load(s.model_file);
  const nlohmann::json& meta = network.stored_metadata();
  if (network.points() != points)
    section.fail("model", fmt::format("{} advances {} points, this case's grid has {}",
                                      s.model_file.string(), network.points(), points));
  const double window = meta.at("window_time").get<double>(), tau = double(w.k) * w.dt;
  if (!(std::abs(window - tau) <= 1e-6 * tau))
    section.fail("model", fmt::format("{} steps {:.9g} per window, this case k dt = {} × {:.6g} "
                                      "= {:.9g}: set steps or solver.dt to match",
                                      s.model_file.string(), window, w.k, w.dt, tau));
  return network;
}

nlohmann::json run_neural_step_case(Runtime& runtime, const NeuralStepSettings& s,
                                    const NeuralStepWindows& w, const CoupledCase& c,
                                    const CaseNode& section, const std::filesystem::path& dir) {
  // The solver itself runs past the case's end_time: steps that land on it would shorten the
  // last window's steps (the windows stop at or before it).
  YAML::Node open_ended = YAML::Clone(c.solver.yaml());
  open_ended["end_time"] = 2 * c.solver.real("end_time") + 1;
  QgSolver solver;
  solver.initialize(CaseNode(open_ended, c.solver.origin_ptr(), c.solver.path()), runtime);
  Stopwatch spin_up;
  run_solver_to(solver, s.start_time);
  const double spin_up_s = spin_up.seconds();
  const double tau = double(w.k) * w.dt;
  const long training_windows = static_cast<long>(std::floor(s.training_time / tau + 1e-9));
  Stopwatch data_watch;
  const TrainingRun training = training_run(solver, w.k, training_windows);
  const double data_s = data_watch.seconds();
  Stopwatch fit_watch;
  // Pretrained in this run on its training windows, or read from a trained model file (its
  // bases and weights; the training run then only sets the guard's bounds).
  std::optional<NeuralStepModel> trained;
  if (s.model_file.empty())
    trained.emplace(training.snapshots, s.model);
  else
    trained.emplace(trained_network(s, w, solver.owned_nodes(), section), s.model);
  NeuralStepModel& model = *trained;
  const double fit_s = fit_watch.seconds();
  spdlog::info(
      "neural step: spin-up to t = {:.4g} ({:.1f} s); {} training windows of k = {} steps "
      "({:.1f} s); POD of ω: {} modes ({:.1f} % of the variance), of its change: {} modes "
      "({:.1f} %); {} parameters, pretraining loss {:.4g} ({:.1f} s)",
      s.start_time, spin_up_s, training_windows, w.k, data_s, model.basis().size(),
      100 * model.basis().captured_energy(), model.change_basis().size(),
      100 * model.change_basis().captured_energy(), model.parameter_count(),
      model.pretraining_loss(), fit_s);

  const QgStartState start = qg_start_state(solver);
  std::vector<NeuralStepRow> rows;
  std::vector<GuardedRecord> guarded;
  guarded.reserve(s.tolerances.size() * 2);
  const auto timed_pure = [&](const char* label, const QgStartState& from) {
    NeuralStepRow row{label};
    for (long r = 0; r < s.repeats; ++r) {
      QgRunRecord run = run_pure_solver(solver, from, w,
                                        r == 0 && rows.empty() ? &model.change_basis() : nullptr);
      row.work_s.push_back(run.work_s);
      if (r == 0) row.run = std::move(run);
    }
    spdlog::info("  {}: {} windows, {:.3f} s (median of {})", label, w.windows, median(row.work_s),
                 s.repeats);
    rows.push_back(std::move(row));
  };
  timed_pure("solver", start);
  timed_pure("solver_perturbed", perturbed(solver, start));
  for (bool online : {false, true}) {
    if (online && !s.online) continue;
    for (double tolerance : s.tolerances) {
      GuardTolerances t = s.guard;
      t.residual = tolerance;
      t.energy_min = training.energy_min, t.energy_max = training.energy_max;
      t.enstrophy_min = training.enstrophy_min, t.enstrophy_max = training.enstrophy_max;
      NeuralStepRow row{online ? "online" : "frozen", tolerance};
      for (long r = 0; r < s.repeats; ++r) {
        GuardedRecord g = run_guarded(solver, model, start, w, t, online);
        row.work_s.push_back(g.run.work_s);
        if (r == 0) guarded.push_back(std::move(g));
      }
      row.run = guarded.back().run;
      row.guarded = &guarded.back();
      spdlog::info("  {} at tolerance {:.3g}: accepted {} of {} windows, {:.3f} s", row.label,
                   tolerance, guarded.back().accepted, w.windows, median(row.work_s));
      rows.push_back(std::move(row));
    }
  }
  nlohmann::json entry = write_neural_step_report(dir, rows, w, start.time);
  entry["case"] = c.name;
  entry["parameters"] = c.parameters;
  entry["windows"] = {{"k", w.k}, {"dt", w.dt}, {"count", w.windows}, {"from", start.time}};
  entry["pod"] = {{"modes", model.basis().size()},
                  {"captured_energy", model.basis().captured_energy()},
                  {"change_modes", model.change_basis().size()},
                  {"change_captured_energy", model.change_basis().captured_energy()}};
  entry["network"] = {{"parameters", model.parameter_count()},
                      {"pretraining_loss", model.pretraining_loss()}};
  if (!s.model_file.empty()) entry["network"]["model"] = s.model_file.string();
  entry["training_ranges"] = {{"energy", {training.energy_min, training.energy_max}},
                              {"enstrophy", {training.enstrophy_min, training.enstrophy_max}}};
  entry["setup_s"] = {{"spin_up", spin_up_s}, {"training_data", data_s}, {"fit", fit_s}};
  return entry;
}

}  // namespace

Schema NeuralStepCoupler::schema() {
  Schema s(
      "Guarded neural time steps for the QG double gyre with online training: a network "
      "advances ω by `steps` solver steps in POD space, a guard checks each proposal and the "
      "solver takes the steps where it fails; compared with the pure solver over guard "
      "tolerances (curve.md/.csv, blocks.csv, energy.csv). The solver section needs a fixed `dt`.");
  s.integer("steps", "k: solver steps per neural step (a window)").at_least(1).fallback("10");
  s.integer("modes", "POD modes of ω: the network's input").at_least(1).fallback("32");
  s.integer("change_modes", "POD modes of the change of ω over k steps: the network's output")
      .at_least(1)
      .fallback("64");
  s.integers("hidden", "hidden layer widths of the MLP beside the linear layer")
      .fallback("[64, 64]");
  s.real("start_time", "solver spin-up before the training data (no output)")
      .at_least(0)
      .fallback("10");
  s.real("training_time",
         "solver time after the spin-up whose ω every k steps are the POD snapshots and the "
         "pretraining pairs; the comparison starts at its end")
      .above(0)
      .fallback("2");
  s.integer("epochs",
            "pretraining epochs (Adam, after a least-squares start of the linear "
            "layer); 0: no pretraining, the network starts at zero increment")
      .at_least(0)
      .fallback("200");
  s.integer("batch", "minibatch size (pretraining and online)").at_least(1).fallback("64");
  s.real("learning_rate", "Adam's learning rate").above(0).fallback("1e-3");
  s.integer("buffer", "replay buffer of online training (pairs; pretraining pairs first)")
      .at_least(1)
      .fallback("4000");
  s.integer("updates", "Adam steps per fallback in online training").at_least(1).fallback("2");
  s.integer("seed", "seed of the network's initial weights and of the minibatches")
      .at_least(0)
      .fallback("1");
  s.reals("tolerances",
          "the guard's residual tolerances, one run each: the vorticity equation's trapezoid "
          "residual over the window relative to its tendency term (persistence scores 1)")
      .fallback("[0.05, 0.1, 0.2, 0.4]");
  s.real("bounds",
         "margin b of the energy and enstrophy bounds: a proposal's must lie in [min (1 − b), "
         "max (1 + b)] of the training run's")
      .above(0)
      .fallback("0.1");
  s.real("projection", "largest relative POD projection error of the input ω (minus the POD mean)")
      .above(0)
      .fallback("0.8");
  s.boolean("online", "also run every tolerance with online training (false: frozen only)")
      .fallback("true");
  s.input_path("model",
               "a trained network (model.pt of `surrox train`, family neural_step) to start from "
               "instead of pretraining in the run: its bases and weights replace modes, "
               "change_modes, hidden and epochs; its window must be steps × solver.dt, its "
               "field this grid's interior nodes; online training starts with an empty replay "
               "buffer")
      .optional();
  s.integer("repeats", "timed repeats of every run (wall times are medians)")
      .at_least(1)
      .fallback("1");
  s.integer("samples", "ω snapshots per run for the RMSE against the pure solver")
      .at_least(1)
      .fallback("50");
  s.integer("blocks", "blocks of windows with their own accepted fraction")
      .at_least(1)
      .fallback("5");
  return s;
}

void NeuralStepCoupler::run(Runtime& runtime, const CaseNode& section,
                            const std::vector<CoupledCase>& cases,
                            const std::filesystem::path& output_dir, nlohmann::json& results) {
  const NeuralStepSettings s = neural_step_settings(runtime, section);
  std::vector<NeuralStepWindows> windows;
  for (const auto& c : cases) windows.push_back(neural_step_windows(s, c, section));
  nlohmann::json per_case = nlohmann::json::array();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    spdlog::info("neural step: case {}", cases[i].name);
    const auto dir = cases.size() == 1 ? output_dir : output_dir / cases[i].name;
    std::filesystem::create_directories(dir);
    per_case.push_back(run_neural_step_case(runtime, s, windows[i], cases[i], section, dir));
  }
  results["cases"] = per_case;
  if (per_case.size() == 1) results["table"] = per_case[0]["table"];
}

}  // namespace surrox::couplers

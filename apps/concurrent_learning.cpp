#include "apps/concurrent_learning.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mpi.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <optional>

#include "apps/candidate_selection.hpp"
#include "apps/lammps_exploration.hpp"
#include "apps/reference_labels.hpp"
#include "apps/run_case.hpp"
#include "apps/run_driver.hpp"
#include "core/atomic_file.hpp"
#include "core/case_path.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "io/deepmd_system.hpp"
#include "solvers/md/exploration_run.hpp"
#include "surrogates/deep_potential/model_deviation.hpp"
#include "training/surrogate_family.hpp"
#include "workflows/job_runner.hpp"

namespace surrox::apps {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> data_paths(const CaseNode& node, const std::string& key) {
  std::vector<fs::path> out;
  for (const std::string& text : node.strings(key)) {
    const fs::path p = resolve_case_path(node, text).lexically_normal();
    if (!fs::exists(p)) node.fail(key, "no such file or folder: " + p.string());
    out.push_back(p);
  }
  return out;
}

std::vector<std::string> absolute_paths(const std::vector<fs::path>& paths) {
  std::vector<std::string> out;
  for (const fs::path& p : paths) out.push_back(fs::absolute(p).string());
  return out;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// A stage is done when its result.json exists; every rank sees the same files.
bool done(const fs::path& dir) { return fs::exists(dir / "result.json"); }

void finish(const Runtime& runtime, const fs::path& dir, const json& result) {
  if (runtime.root()) {
    fs::create_directories(dir);
    write_text_atomically(dir / "result.json", result.dump(1));
  }
  MPI_Barrier(runtime.comm());
}

// The resolved config without the keys that may change between continuations of one loop.
std::string loop_identity(const std::string& resolved_yaml) {
  YAML::Node node = YAML::Load(resolved_yaml);
  for (const char* key : {"iterations", "converged_accurate", "runtime"}) node.remove(key);
  YAML::Emitter out;
  out << node;
  return out.c_str();
}

// Where one exploration runs: a temperature, and a pressure for a constant-pressure run.
struct ExplorationPoint {
  double temperature = 0;
  std::optional<double> pressure;
  std::string name() const {
    return pressure ? fmt::format("T{:g}_P{:g}", temperature, *pressure)
                    : fmt::format("T{:g}", temperature);
  }
};

// One iteration's exploration runs, one per point explored.
struct Explorations {
  std::vector<ExplorationPoint> points;
  std::vector<fs::path> dirs;
  std::vector<std::vector<surrogates::deep_potential::ModelDeviRow>>
      rows;                           // a failed run's: all NaN (failed)
  std::vector<std::string> failures;  // the run's error, or empty
};

class Loop {
 public:
  Loop(Runtime& runtime, const io::CaseFile& config, fs::path out)
      : runtime_(runtime), root_(config.root), out_(std::move(out)) {
    const CaseNode t = root_.section("training");
    train_config_ = t.string("config");
    if (training::config_family(train_config_, {}) != "deep_potential")
      t.fail("config", "needs a training config of family deep_potential");
    models_ = t.integer("models");
    train_set_ = t.strings("set");
    const CaseNode data = root_.section("data");
    initial_ = data_paths(data, "initial");
    if (initial_.empty()) data.fail("initial", "give at least one system of labelled frames");
    validation_ = data_paths(data, "validation");
    const CaseNode e = root_.section("exploration");
    temperatures_ = e.reals("temperatures");
    if (temperatures_.empty()) e.fail("temperatures", "give at least one temperature");
    for (double t : temperatures_)
      if (!(t > 0)) e.fail("temperatures", fmt::format("{} K is not a temperature", t));
    pressures_ = e.reals("pressures");
    lammps_ = e.string("engine") == "lammps";
    if (lammps_) {
      if (!e.has("lammps_input")) e.fail("engine", "engine lammps needs exploration.lammps_input");
      std::ifstream in(e.string("lammps_input"));
      if (!in) e.fail("lammps_input", "cannot read " + e.string("lammps_input"));
      const std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
      const auto problems = check_lammps_template(text);
      if (!problems.empty())
        e.fail("lammps_input",
               fmt::format("{}: {}", e.string("lammps_input"), fmt::join(problems, "; ")));
      // The frames' element names: the reference case's DeePMD type map.
      const io::CaseFile reference =
          io::load_case(root_.string("reference"), run_case_schema(), {});
      type_map_ = reference.root.section("solver").section("deepmd").strings("type_map");
    }
    const CaseNode sel = root_.section("selection");
    rule_.lo = sel.real("lo");
    rule_.hi = sel.real("hi");
    if (!(rule_.lo < rule_.hi)) sel.fail("hi", "must be above lo");
    rule_.max_candidates = sel.integer("max_candidates");
    rule_.first_step = e.integer("first_step");
  }

  json run() {
    const long iterations = root_.integer("iterations");
    json rows = json::array();
    std::vector<fs::path> labelled;  // systems labelled so far
    fs::path final_model;
    for (long it = 0; it < iterations; ++it) {
      const auto start = std::chrono::steady_clock::now();
      const fs::path dir = out_ / fmt::format("iter.{:03d}", it);
      json row = {{"iteration", it}};
      std::vector<fs::path> train_data = initial_;
      train_data.insert(train_data.end(), labelled.begin(), labelled.end());
      const std::vector<fs::path> models = train_ensemble(it, dir, train_data, row);
      final_model = models[0];
      measure_held_out(models[0], dir / "held_out", row);
      const Explorations explored = explore(it, dir / "explore", models);
      SelectionRule rule = rule_;
      rule.seed = static_cast<std::uint64_t>(root_.section("selection").integer("seed") + it);
      const Selection s = select_candidates(explored.rows, rule);
      row["explored"] = json::array();  // the same counts per temperature
      SelectionRule count_only = rule;
      count_only.max_candidates = 0;
      for (std::size_t k = 0; k < explored.rows.size(); ++k) {
        const Selection one = select_candidates({explored.rows[k]}, count_only);
        json entry = {{"temperature", explored.points[k].temperature},
                      {"rows", one.rows()},
                      {"accurate_fraction", one.fraction(one.accurate)},
                      {"candidate_fraction", one.fraction(one.candidates)},
                      {"failed_fraction", one.fraction(one.failed)}};
        if (explored.points[k].pressure) entry["pressure"] = *explored.points[k].pressure;
        if (!explored.failures[k].empty()) entry["run_failed"] = explored.failures[k];
        row["explored"].push_back(entry);
      }
      row["explored_rows"] = s.rows();
      row["accurate_fraction"] = s.fraction(s.accurate);
      row["candidate_fraction"] = s.fraction(s.candidates);
      row["failed_fraction"] = s.fraction(s.failed);
      row["candidates"] = s.candidates;
      const bool last =
          it + 1 == iterations || s.fraction(s.accurate) >= root_.real("converged_accurate");
      long added = 0;
      if (!last) {
        for (const fs::path& system : label(dir / "label", explored.dirs, s)) {
          added += io::read_deepmd_system(system).frames;
          labelled.push_back(system);
        }
      }
      row["labelled_frames"] = added;
      row["seconds"] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      spdlog::info(
          "iteration {}: {} training frames, held-out force RMSE {:.1f} meV/Å; explored {} rows: "
          "accurate {:.1f} %, candidates {:.1f} %, failed {:.1f} %; labelled {}",
          it, row["training_frames"].get<long>(),
          1000 * row.value("held_out_force_rmse", std::nan("")), s.rows(),
          100 * s.fraction(s.accurate), 100 * s.fraction(s.candidates), 100 * s.fraction(s.failed),
          added);
      rows.push_back(row);
      if (last) break;
    }
    write_table(rows);
    if (runtime_.root()) {
      AtomicFile model(out_ / "model.pt");
      fs::copy_file(final_model, model.temporary(), fs::copy_options::overwrite_existing);
      model.commit();
    }
    MPI_Barrier(runtime_.comm());
    json results = {{"iterations", rows},
                    {"model", (out_ / "model.pt").string()},
                    {"table", (out_ / "iterations.csv").string()}};
    return results;
  }

 private:
  // The loop's independent jobs over the ranks, one rank each (workflows/job_runner.hpp).
  workflows::JobsDone run_jobs(const std::vector<workflows::Job>& jobs, const char* what) {
    workflows::JobOptions options;
    options.label = "concurrent learning";
    options.what = what;
    options.show_progress = false;  // each job logs its own lines
    options.rerun_failed = false;   // a blown-up exploration is a result (its rows count failed)
    return workflows::run_jobs(runtime_, jobs, options);
  }

  std::vector<fs::path> train_ensemble(long it, const fs::path& dir,
                                       const std::vector<fs::path>& data, json& row) {
    std::vector<fs::path> models;
    // The models are independent (DP-GEN trains them as separate jobs): with several ranks,
    // model m trains on rank m mod size alone; a single rank trains them one after another.
    std::vector<workflows::Job> jobs;
    for (long m = 0; m < models_; ++m) {
      workflows::Job job;
      job.name = fmt::format("train.{}", m);
      job.description = fmt::format("iteration {}: model {}/{}", it, m + 1, models_);
      job.dir = dir / job.name;
      models.push_back(job.dir / "model.pt");
      job.run = [this, it, m, &data, mdir = job.dir](Runtime& one_rank) {
        io::CaseOverrides set;
        set.source("concurrent learning")
            .strings("data.train", absolute_paths(data))
            .strings("data.validation", absolute_paths(validation_))
            .integer("model.seed", 1 + m + models_ * it)
            .texts(train_set_);
        if (it > 0 && root_.section("training").boolean("init_from_previous")) {
          const fs::path previous =
              out_ / fmt::format("iter.{:03d}", it - 1) / fmt::format("train.{}", m) / "model.pt";
          set.source("concurrent learning")
              .string("training.init_model", fs::absolute(previous).string());
          set.texts(root_.section("training").strings("reuse_set"));
        }
        const io::CaseFile config =
            io::load_case(train_config_, training::train_config_schema("deep_potential"), set);
        // An interrupted training continues from its checkpoint.
        const fs::path checkpoint = mdir / "checkpoint.pt";
        const training::TrainRequest request{
            config, one_rank,
            mdir,   fs::exists(checkpoint) ? std::optional<fs::path>(checkpoint) : std::nullopt,
            0,      train_config_};
        write_text_atomically(mdir / "config.resolved.yaml", config.resolved_yaml());
        json results;  // the training logs its own progress (rank 0's models only)
        training::surrogate_families().create("deep_potential")->train(request, results);
        return results;
      };
      jobs.push_back(std::move(job));
    }
    const workflows::JobsDone trained = run_jobs(jobs, "models");
    const json& r = trained.records[0]["results"];
    row["training_frames"] = r["train"]["frames"];
    row["training_force_rmse"] = r["train"]["force_rmse"];
    // Models differ by seed alone, and so do their errors: the ensemble's mean says more about
    // the data than model 0's one draw.
    if (!validation_.empty()) {
      double sum = 0;
      for (const json& record : trained.records)
        sum += record["results"]["validation"]["force_rmse"].get<double>();
      row["ensemble_held_out_force_rmse"] = sum / static_cast<double>(models_);
    }
    return models;
  }

  void measure_held_out(const fs::path& model, const fs::path& dir, json& row) {
    if (validation_.empty()) return;
    if (!done(dir)) {
      json result = {{"systems", json::array()}};
      double f2 = 0, e2 = 0;
      long atoms = 0, frames = 0;
      for (const fs::path& data : validation_) {
        json r;
        const training::EvaluateRequest request{model, data, runtime_, dir};
        training::surrogate_families().create("deep_potential")->evaluate(request, r);
        // Pooled like `surrox evaluate` pools the systems of a folder.
        const long a = r["atoms"], f = r["frames"];
        f2 += std::pow(r["force_rmse"].get<double>(), 2) * static_cast<double>(a);
        e2 += std::pow(r["energy_rmse_per_atom"].get<double>(), 2) * static_cast<double>(f);
        atoms += a;
        frames += f;
        result["systems"].push_back({{"data", data.string()},
                                     {"force_rmse", r["force_rmse"]},
                                     {"energy_rmse_per_atom", r["energy_rmse_per_atom"]},
                                     {"frames", f}});
      }
      result["force_rmse"] = std::sqrt(f2 / static_cast<double>(atoms));
      result["energy_rmse_per_atom"] = std::sqrt(e2 / static_cast<double>(frames));
      finish(runtime_, dir, result);
    }
    const json r = read_json(dir / "result.json");
    row["held_out_force_rmse"] = r["force_rmse"];
    row["held_out_energy_rmse_per_atom"] = r["energy_rmse_per_atom"];
    row["held_out_systems"] = r["systems"];
  }

  Explorations explore(long it, const fs::path& dir, const std::vector<fs::path>& models) {
    const CaseNode e = root_.section("exploration");
    const long out_freq = e.integer("out_freq");
    Explorations explored;
    // As the models: run k on rank k mod size alone (64-atom cells gain nothing from a split).
    const std::size_t start = static_cast<std::size_t>(e.integer("start_with"));
    const std::size_t count =
        start == 0 ? temperatures_.size()
                   : std::min(temperatures_.size(), start + static_cast<std::size_t>(it));
    for (std::size_t k = 0; k < count; ++k) {
      if (pressures_.empty()) explored.points.push_back({temperatures_[k], std::nullopt});
      for (double p : pressures_) explored.points.push_back({temperatures_[k], p});
    }
    const std::size_t per_iteration =
        temperatures_.size() * std::max<std::size_t>(1, pressures_.size());
    std::vector<workflows::Job> jobs;
    for (std::size_t k = 0; k < explored.points.size(); ++k) {
      const ExplorationPoint point = explored.points[k];
      const double t = point.temperature;
      workflows::Job job;
      job.name = point.name();
      job.description = point.pressure ? fmt::format("iteration {}: exploring at {:g} K, {:g} bar",
                                                     it, t, *point.pressure)
                                       : fmt::format("iteration {}: exploring at {:g} K", it, t);
      job.dir = dir / job.name;
      explored.dirs.push_back(job.dir);
      job.run = [this, k, t, point, per_iteration, it, &e, &models, out_freq,
                 tdir = job.dir](Runtime& one_rank) {
        const long seed = 1 + static_cast<long>(k) + static_cast<long>(per_iteration) * it;
        if (lammps_) {
          LammpsExplorationRun run;
          run.input_template = e.string("lammps_input");
          run.models = models;
          run.type_map = type_map_;
          run.out_freq = out_freq;
          run.steps = e.integer("steps");
          run.seed = 1000 + seed;
          run.temperature = t;
          run.pressure = point.pressure;
          run.dir = tdir;
          return run_lammps_exploration(run);
        }
        solvers::md::ExplorationRun run;
        run.models = models;
        run.out_freq = out_freq;
        run.steps = e.integer("steps");
        run.temperature = t;
        run.pressure = point.pressure;
        run.thermostat_seed = 1000 + seed;
        run.velocity_seed = 2000 + seed;
        run.barostat_seed = 3000 + seed;
        io::CaseOverrides set;
        solvers::md::add_exploration_run(run, set);
        set.texts(e.strings("set"));  // the user's own, as typed, after ours
        const io::CaseFile md = io::load_case(root_.string("reference"), run_case_schema(), set);
        RunOptions options;
        options.output_dir = tdir;
        options.show_progress = false;
        json results;
        quietly([&] { results = run_solver(one_rank, md, options); });
        return results;
      };
      jobs.push_back(std::move(job));
    }
    // An ensemble that drives the MD to a blow-up has failed there as a whole (DP-GEN's view of
    // a crashed exploration): the job is recorded as failed, and every row of the run counts as
    // failed; a wrong exploration setting (InputError) stops the loop.
    const workflows::JobsDone runs = run_jobs(jobs, "explorations");
    for (std::size_t k = 0; k < explored.dirs.size(); ++k) {
      const json& record = runs.records[k];
      explored.failures.push_back(record["status"] == "ok" ? "" : record.value("error", "failed"));
      const fs::path& tdir = explored.dirs[k];
      if (explored.failures.back().empty()) {
        explored.rows.push_back(
            surrogates::deep_potential::read_model_devi(tdir / "model_devi.csv"));
        continue;
      }
      std::vector<surrogates::deep_potential::ModelDeviRow>
          failed;  // the rows the run would have written
      for (long step = 0; step <= e.integer("steps"); step += out_freq) {
        surrogates::deep_potential::ModelDeviRow row;
        row.step = step;
        row.max_devi_f = std::nan("");
        failed.push_back(row);
      }
      explored.rows.push_back(failed);
    }
    return explored;
  }

  // Labels the chosen frames of each trajectory into DIR/<trajectory>/deepmd.
  std::vector<fs::path> label(const fs::path& dir, const std::vector<fs::path>& trajectories,
                              const Selection& s) {
    std::vector<fs::path> systems;
    if (!done(dir)) {
      const CaseNode e = root_.section("exploration");
      for (std::size_t k = 0; k < trajectories.size(); ++k) {
        const auto in_k = [&](const ExplorationFrame& f) {
          return f.trajectory == static_cast<int>(k);
        };
        if (std::none_of(s.chosen.begin(), s.chosen.end(), in_k)) continue;  // (failed runs too)
        const io::DeepmdFrames explored = io::read_deepmd_system(trajectories[k] / "deepmd");
        io::DeepmdFrames chosen;
        chosen.type_map = explored.type_map;
        chosen.types = explored.types;
        const long n3 = 3 * explored.atoms();
        for (const ExplorationFrame& f : s.chosen) {
          if (f.trajectory != static_cast<int>(k)) continue;
          // Row r of model_devi.csv and frame r of the recording are the same step.
          if (f.row >= explored.frames || f.step != f.row * e.integer("out_freq"))
            throw Error(fmt::format("{}: model_devi row {} (step {}) has no recorded frame",
                                    trajectories[k].string(), f.row, f.step));
          chosen.coord.insert(chosen.coord.end(), explored.coord.begin() + n3 * f.row,
                              explored.coord.begin() + n3 * (f.row + 1));
          chosen.box.insert(chosen.box.end(), explored.box.begin() + 9 * f.row,
                            explored.box.begin() + 9 * (f.row + 1));
          ++chosen.frames;
        }
        if (chosen.frames == 0) continue;
        const fs::path system = dir / trajectories[k].filename() / "deepmd";
        spdlog::info("labelling {} frames of {} with the reference", chosen.frames,
                     trajectories[k].filename().string());
        const io::DeepmdFrames labels =
            label_with_reference(runtime_, root_.string("reference"), {}, chosen, dir / "scratch");
        if (runtime_.root()) io::write_deepmd_system(system, labels);
        MPI_Barrier(runtime_.comm());
        systems.push_back(system);
      }
      json list = json::array();
      for (const auto& p : systems) list.push_back(p.string());
      finish(runtime_, dir, {{"systems", list}});
    }
    systems.clear();
    const json done_list = read_json(dir / "result.json");  // kept alive for the loop below
    for (const auto& p : done_list["systems"]) systems.emplace_back(p.get<std::string>());
    return systems;
  }

  void write_table(const json& rows) const {
    if (!runtime_.root()) return;
    std::string csv =
        "iteration,training_frames,held_out_energy_rmse_per_atom,held_out_force_rmse,"
        "ensemble_held_out_force_rmse,explored_rows,accurate_fraction,candidate_fraction,"
        "failed_fraction,labelled_frames\n";
    const double none = std::nan("");
    for (const json& r : rows)
      csv += fmt::format(
          "{},{},{:.10g},{:.10g},{:.10g},{},{:.10g},{:.10g},{:.10g},{}\n",
          r["iteration"].get<long>(), r["training_frames"].get<long>(),
          r.value("held_out_energy_rmse_per_atom", none), r.value("held_out_force_rmse", none),
          r.value("ensemble_held_out_force_rmse", none), r["explored_rows"].get<long>(),
          r["accurate_fraction"].get<double>(), r["candidate_fraction"].get<double>(),
          r["failed_fraction"].get<double>(), r["labelled_frames"].get<long>());
    write_text_atomically(out_ / "iterations.csv", csv);
  }

  // The MD runs would log every run's set-up at info; the loop reports per stage instead.
  template <class F>
  void quietly(F&& f) {
    const log::RaisedLevel quiet(spdlog::level::warn);
    f();
  }

  Runtime& runtime_;
  CaseNode root_;
  fs::path out_;
  std::string train_config_;
  long models_ = 4;
  std::vector<std::string> train_set_;
  std::vector<fs::path> initial_, validation_;
  std::vector<double> temperatures_, pressures_;
  bool lammps_ = false;                // explorations in LAMMPS
  std::vector<std::string> type_map_;  // their frames' elements (engine lammps)
  SelectionRule rule_;
};

}  // namespace

nlohmann::json run_concurrent_learning(Runtime& runtime, const io::CaseFile& config,
                                       const std::filesystem::path& output_dir) {
  // Checked before anything is written, so that a mistake does not claim the folder.
  Loop loop(runtime, config, output_dir);
  // A folder holds one loop: continuing it with another config would mix two experiments.
  const fs::path resolved = output_dir / "config.resolved.yaml";
  if (fs::exists(resolved)) {
    std::ifstream in(resolved);
    const std::string before((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    if (loop_identity(before) != loop_identity(config.resolved_yaml()))
      throw InputError(output_dir.string() +
                       " holds a concurrent-learning run of another config (only iterations, "
                       "converged_accurate and runtime may change when continuing); use a new -o");
  }
  MPI_Barrier(runtime.comm());
  if (runtime.root()) {
    fs::create_directories(output_dir);
    write_text_atomically(resolved, config.resolved_yaml());
  }
  return loop.run();
}

}  // namespace surrox::apps

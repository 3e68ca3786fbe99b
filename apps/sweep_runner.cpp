#include "apps/sweep_runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

#include "apps/run_case.hpp"
#include "apps/run_driver.hpp"
#include "apps/sweep_case_arrays.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_sweep.hpp"
#include "workflows/job_runner.hpp"

namespace surrox::apps {
namespace {

constexpr const char* kCaseSummary = "case.json";  // written last: its presence means "done"

std::string yaml_text(const YAML::Node& node) {
  YAML::Emitter out;
  out << node;
  return out.c_str();
}

std::string label(const SweepPoint& point) {
  std::string text;
  for (const auto& [key, value] : point.values)
    text += (text.empty() ? "" : ", ") + key + "=" + value;
  return text;
}

std::filesystem::path case_dir(const SweepOptions& options, const SweepPoint& point) {
  return options.output_dir / "cases" / point.name;
}

// Every point's case, loaded and validated: a bad value anywhere stops the sweep before it starts.
std::vector<io::CaseFile> load_points(const std::vector<SweepPoint>& points,
                                      const SweepOptions& options) {
  std::vector<io::CaseFile> cases;
  for (const auto& point : points) {
    std::vector<std::string> overrides = options.overrides;
    for (const auto& o : point.overrides()) overrides.push_back(o);
    overrides.push_back(
        "output.hdf5=true");  // the merge reads each case's final state from fields.h5
    try {
      cases.push_back(io::load_case(options.case_path, run_case_schema(), overrides));
    } catch (const InputError& e) {
      throw InputError("sweep " + point.name + " (" + label(point) + "): " + e.what());
    }
  }
  return cases;
}

// The last state in a case's fields.h5, with every array, as one sweep entry.
io::SweepCase collect(const SweepPoint& point, const nlohmann::json& record,
                      const std::filesystem::path& dir, const std::string& solver_type) {
  io::SweepCase entry;
  entry.name = point.name;
  entry.parameters = point.values;
  for (const auto& [name, value] : record.at("results").at("diagnostics").items())
    if (value.is_number()) entry.results[name] = value.get<double>();
  entry.results["steps"] = record.at("results").at("steps").get<double>();
  entry.results["wall_time_s"] = record.at("wall_time_s").get<double>();
  const io::Hdf5DatasetReader reader(dir / "fields.h5");
  const std::size_t last = reader.steps() - 1;
  entry.mesh = reader.mesh();
  for (const auto& field : reader.fields()) {
    io::NamedArray array{field.name, reader.read(field.name, last)};
    (field.on == io::FieldSpec::On::kCells ? entry.mesh.cell_data : entry.mesh.point_data)
        .push_back(array);
  }
  const auto& extra = sweep_case_arrays();
  if (const auto it = extra.find(solver_type); it != extra.end()) it->second(dir, entry.mesh);
  return entry;
}

}  // namespace

std::vector<std::string> SweepPoint::overrides() const {
  std::vector<std::string> list;
  for (const auto& [key, value] : values) list.push_back(key + "=" + value);
  return list;
}

bool is_sweep(const io::CaseFile& case_file) {
  return case_file.root.has("sweep") && case_file.root.section("sweep").has("values");
}

std::vector<SweepPoint> expand_sweep(const io::CaseFile& case_file) {
  const CaseNode sweep = case_file.root.section("sweep");
  const YAML::Node values = sweep.yaml()["values"];
  std::vector<std::string> keys;
  std::vector<std::vector<std::string>> lists;
  for (const auto& entry : values) {
    keys.push_back(entry.first.Scalar());
    lists.emplace_back();
    for (const auto& v : entry.second) lists.back().push_back(yaml_text(v));
  }
  std::vector<std::map<std::string, std::string>> combos;
  if (sweep.string("combine") == "zip") {
    for (std::size_t k = 1; k < lists.size(); ++k)
      if (lists[k].size() != lists[0].size())
        sweep.fail(
            "values",
            fmt::format("combine: zip needs lists of one length; {} has {} values, {} has {}",
                        keys[0], lists[0].size(), keys[k], lists[k].size()));
    for (std::size_t i = 0; i < lists[0].size(); ++i) {
      combos.emplace_back();
      for (std::size_t k = 0; k < keys.size(); ++k) combos.back()[keys[k]] = lists[k][i];
    }
  } else {
    // Cartesian product, the last key varying fastest.
    combos.emplace_back();
    for (std::size_t k = 0; k < keys.size(); ++k) {
      std::vector<std::map<std::string, std::string>> grown;
      for (const auto& combo : combos)
        for (const auto& v : lists[k]) {
          grown.push_back(combo);
          grown.back()[keys[k]] = v;
        }
      combos = std::move(grown);
    }
  }
  std::vector<SweepPoint> points;
  for (std::size_t i = 0; i < combos.size(); ++i)
    points.push_back({fmt::format("case_{:04d}", i), combos[i]});
  return points;
}

nlohmann::json run_sweep(Runtime& runtime, const io::CaseFile& case_file,
                         const SweepOptions& options) {
  const std::vector<SweepPoint> points = expand_sweep(case_file);
  const std::vector<io::CaseFile> cases = load_points(points, options);
  spdlog::info("sweep: {} cases over {} rank(s)", points.size(), runtime.size());

  // Case i runs on rank i mod size alone; a case finished earlier with the same resolved case
  // is skipped, a failing one recorded (workflows/job_runner.hpp).
  std::vector<workflows::Job> jobs;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& point = points[i];
    workflows::Job job;
    job.name = point.name;
    job.description = point.name + " (" + label(point) + ")";
    job.dir = case_dir(options, point);
    job.identity = cases[i].resolved_yaml();
    job.about = {{"values", point.values}};
    job.run = [&case_file = cases[i], dir = job.dir](Runtime& one_rank) {
      RunOptions run;
      run.output_dir = dir;
      run.show_progress = false;
      write_text_atomically(dir / "case.resolved.yaml", case_file.resolved_yaml());
      return run_solver(one_rank, case_file, run);
    };
    jobs.push_back(std::move(job));
  }
  workflows::JobOptions job_options;
  job_options.record_file = kCaseSummary;
  job_options.label = "sweep";
  job_options.what = "cases";
  const workflows::JobsDone done_jobs = workflows::run_jobs(runtime, jobs, job_options);

  nlohmann::json results;
  results["cases"] = points.size();
  results["cases_run"] = done_jobs.ran;
  results["cases_skipped"] = done_jobs.skipped;
  results["cases_failed"] = done_jobs.failed;
  nlohmann::json table = nlohmann::json::array();
  std::string problem;
  if (runtime.root()) {
    std::vector<std::pair<const SweepPoint*, nlohmann::json>> done;
    std::vector<std::string> not_converged;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const SweepPoint& point = points[i];
      nlohmann::json record = done_jobs.records[i];
      nlohmann::json row{{"name", point.name}, {"values", point.values}};
      row["status"] = record.is_object() ? record.value("status", "missing") : "missing";
      if (row["status"] == "ok") {
        row["diagnostics"] = record["results"]["diagnostics"];
        if (const auto& r = record["results"]; r.contains("converged")) {
          row["converged"] = r["converged"];
          if (!r["converged"].get<bool>()) not_converged.push_back(point.name);
        }
        done.emplace_back(&point, std::move(record));
      }
      table.push_back(row);
    }
    results["cases_not_converged"] = not_converged.size();
    if (!not_converged.empty())
      spdlog::warn(
          "sweep: {} case(s) stopped at their iteration limit unconverged ({}); they are in the dataset "
          "with converged = 0, and surrox train leaves them out unless data.include_unconverged is true",
          not_converged.size(), fmt::join(not_converged, ", "));
    const std::string dataset_name = case_file.root.section("sweep").string("dataset");
    const std::filesystem::path dataset_path = options.output_dir / dataset_name;
    if (!done.empty()) {
      io::SweepDatasetWriter writer(dataset_path, done.size(), case_file.resolved_yaml(),
                                    "surrox run (sweep)");
      const std::string solver_type = case_file.root.section("solver").type();
      for (std::size_t k = 0; k < done.size(); ++k)
        writer.write(k, collect(*done[k].first, done[k].second, case_dir(options, *done[k].first),
                                solver_type));
      writer.close();
      results["dataset"] = dataset_path.string();
      results["dataset_cases"] = done.size();
      spdlog::info("sweep: {} of {} cases in {}", done.size(), points.size(),
                   dataset_path.string());
    }
  }
  results["table"] = table;
  return results;
}

}  // namespace surrox::apps

#include "training/pod_lstm/pod_lstm_members.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/trainer.hpp"
#include "workflows/job_runner.hpp"

namespace surrox::training::pod_lstm {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kMemberRecord = "member.json";
constexpr const char* kMemberWeights = "member.pt";

fs::path member_dir(const fs::path& out, long k) {
  return k == 0 ? out : out / fmt::format("member_{}", k);
}

// A JSON record holds a non-finite figure as null.
double member_figure(const json& value) {
  return value.is_number() ? value.get<double>() : std::nan("");
}

// What a member computes: the config (less the runtime section, which may change between
// invocations), the architecture (a search may have chosen it) and the member's index.
std::string member_identity(const TrainRequest& r,
                            const surrogates::pod::StackedLstmOptions& options, long k) {
  YAML::Node config = YAML::Clone(r.config.root.yaml());
  config.remove("runtime");
  YAML::Emitter out;
  out << config;
  return fmt::format("{}\nlayers: [{}]\nskips: [{}]\nmember: {}\n", out.c_str(),
                     fmt::join(options.layers, ", "), fmt::join(options.skips, ", "), k);
}

void save_member(const surrogates::pod::StackedLstm& network, const fs::path& path) {
  torch::serialize::OutputArchive archive;
  network.save(archive);
  AtomicFile file(path);
  archive.save_to(file.temporary().string());
  file.commit();
}

std::shared_ptr<surrogates::pod::StackedLstm> load_member(
    const surrogates::pod::StackedLstmOptions& options, const fs::path& path) {
  auto network = std::make_shared<surrogates::pod::StackedLstm>(options);
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path.string());
    network->load(archive);
  } catch (const c10::Error&) {
    throw Error(path.string() + ": the member's weights are missing or damaged; train again");
  }
  network->eval();
  return network;
}

// Member k's job: trains on its group (data-parallel over it), keeps its weights and returns
// its figures; a member stopped by --max-epochs is interrupted (continued on --resume).
workflows::Job member_job(const TrainRequest& r, const surrogates::pod::StackedLstmOptions& options,
                          const TensorSet& train, const TensorSet& validation,
                          const PodNetworkFactory& new_network, long k) {
  const CaseNode training = r.config.root.section("training");
  const long ensemble = r.config.root.section("network").integer("ensemble");
  const auto seed =
      static_cast<std::uint64_t>(training.integer("seed")) + static_cast<std::uint64_t>(k);
  workflows::Job job;
  job.name = fmt::format("member_{}", k);
  job.description = fmt::format("ensemble member {} of {} (seed {})", k + 1, ensemble, seed);
  job.dir = member_dir(r.output_dir, k);
  job.identity = member_identity(r, options, k);
  job.about = {{"member", k}, {"seed", seed}};
  job.run = [&r, &options, &train, &validation, &new_network, training, seed, k, ensemble,
             dir = job.dir](Runtime& group) {
    // Member 0 continues from --resume's checkpoint, the others from their own.
    std::optional<fs::path> resume = r.resume;
    if (k > 0) {
      resume.reset();
      if (r.resume && fs::exists(dir / "checkpoint.pt")) resume = dir / "checkpoint.pt";
    }
    if (ensemble > 1)
      spdlog::info("pod_lstm: ensemble member {} of {} (seed {})", k + 1, ensemble, seed);
    auto member = new_network(options, seed);
    // The member's seed also draws its batches: members differ in the data order too.
    YAML::Node member_run = YAML::Clone(training.yaml());
    member_run["seed"] = static_cast<long>(seed);
    const CaseNode member_training(member_run, training.origin_ptr(), training.path());
    Trainer trainer(member_training, collective_data_parallel(group.comm()));
    const TrainResult f = trainer.fit(*member, train, validation, dir, resume, r.max_epochs);
    if (group.root()) save_member(*member, dir / kMemberWeights);
    const json results = {
        {"seed", seed},
        {"epochs", f.history.size()},
        {"best_epoch", f.best_epoch},
        {"best_validation_loss", f.best_validation_loss},
        {"final_train_loss", f.history.empty() ? NAN : f.history.back().train_loss},
        {"samples_per_second", f.samples_per_second}};
    if (static_cast<long>(f.history.size()) < training.integer("epochs") && !f.stopped_early)
      throw workflows::JobInterrupted(fmt::format("stopped after {} epochs", f.history.size()),
                                      results);
    return results;
  };
  return job;
}

}  // namespace

PodMembers train_pod_members(const TrainRequest& r,
                             const surrogates::pod::StackedLstmOptions& options,
                             const TensorSet& train, const TensorSet& validation,
                             const PodNetworkFactory& new_network) {
  const CaseNode network = r.config.root.section("network");
  const long ensemble = network.integer("ensemble");
  std::vector<workflows::Job> jobs;
  for (long k = 0; k < ensemble; ++k)
    jobs.push_back(member_job(r, options, train, validation, new_network, k));
  // A fresh training (no --resume) starts every member over, as a single network does.
  if (!r.resume && r.runtime.root())
    for (const workflows::Job& job : jobs) fs::remove(job.dir / kMemberRecord);
  MPI_Barrier(r.runtime.comm());
  workflows::JobOptions run;
  run.record_file = kMemberRecord;
  run.label = "pod_lstm";
  run.what = "members";
  run.show_progress = false;  // the trainings log their own epochs
  const long per_member = network.integer("ranks_per_member");
  run.ranks_per_job = per_member == 0 ? r.runtime.size() : static_cast<int>(per_member);
  if (r.runtime.size() % run.ranks_per_job != 0)
    network.fail("ranks_per_member", fmt::format("{} ranks cannot be split into groups of {}",
                                                 r.runtime.size(), run.ranks_per_job));
  const workflows::JobsDone done = workflows::run_jobs(r.runtime, jobs, run);

  // The members in order up to the first that has not finished (interrupted, or not started
  // after an interruption): as one network after another, a stopped run keeps what it has.
  PodMembers members;
  std::vector<long> failed;
  for (long k = 0; k < ensemble; ++k) {
    const json& record = done.records[static_cast<std::size_t>(k)];
    const std::string status = record.is_object() ? record.value("status", "") : "";
    if (status == "failed") {
      failed.push_back(k);
      members.failed.push_back(
          {{"member", k}, {"seed", record["seed"]}, {"error", record.value("error", "")}});
      continue;
    }
    if (status != "ok" && status != "interrupted") {
      members.finished = false;
      break;
    }
    const json& f = record["results"];
    members.networks.push_back(load_member(options, jobs[k].dir / kMemberWeights));
    members.reports.push_back({{"seed", f["seed"]},
                               {"epochs", f["epochs"]},
                               {"best_epoch", f["best_epoch"]},
                               {"best_validation_loss", member_figure(f["best_validation_loss"])}});
    if (members.networks.size() == 1)
      members.first = {{"epochs", f["epochs"]},
                       {"best_epoch", f["best_epoch"]},
                       {"best_validation_loss", member_figure(f["best_validation_loss"])},
                       {"final_train_loss", member_figure(f["final_train_loss"])},
                       {"samples_per_second", member_figure(f["samples_per_second"])}};
    if (status == "interrupted") {
      members.finished = false;
      break;
    }
  }
  if (members.networks.empty())
    throw Error(failed.empty() ? "pod_lstm: no ensemble member trained"
                               : fmt::format("pod_lstm: every ensemble member failed; member 0: {}",
                                             members.failed[0]["error"].get<std::string>()));
  if (!failed.empty()) {
    members.finished = false;
    spdlog::warn(
        "pod_lstm: ensemble member(s) {} failed (their errors are in results.ensemble.failed "
        "and OUTDIR/member_k/{}); the forecast is the mean of the other {}; train again with "
        "--resume to retry them",
        fmt::join(failed, ", "), kMemberRecord, members.networks.size());
  }
  return members;
}

}  // namespace surrox::training::pod_lstm

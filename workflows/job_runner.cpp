#include "workflows/job_runner.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <fstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"

namespace surrox::workflows {
namespace {

// The ranks' groups: this rank's group index, the number of groups and the group's communicator
// (MPI_COMM_SELF for one rank per job). Freed when the runner ends.
class RankGroups {
 public:
  RankGroups(Runtime& runtime, int ranks_per_job) {
    if (ranks_per_job < 1 || runtime.size() % ranks_per_job != 0)
      throw InputError(fmt::format("{} ranks cannot be split into groups of {} per job",
                                   runtime.size(), ranks_per_job));
    groups_ = runtime.size() / ranks_per_job;
    group_ = runtime.rank() / ranks_per_job;
    first_rank_ = group_ * ranks_per_job;
    if (ranks_per_job == 1) {
      comm_ = MPI_COMM_SELF;
    } else if (groups_ == 1) {
      comm_ = runtime.comm();  // the same collectives as without the runner, bit for bit
    } else {
      MPI_Comm_split(runtime.comm(), group_, runtime.rank(), &comm_);
      owned_ = true;
    }
    MPI_Comm_rank(comm_, &rank_in_group_);
  }
  ~RankGroups() {
    if (owned_) MPI_Comm_free(&comm_);
  }
  RankGroups(const RankGroups&) = delete;
  RankGroups& operator=(const RankGroups&) = delete;

  int groups() const { return groups_; }
  int group() const { return group_; }
  bool group_root() const { return rank_in_group_ == 0; }
  int first_rank() const { return first_rank_; }  // in the runtime's communicator
  MPI_Comm comm() const { return comm_; }

 private:
  int groups_ = 1, group_ = 0, rank_in_group_ = 0, first_rank_ = 0;
  MPI_Comm comm_ = MPI_COMM_SELF;
  bool owned_ = false;
};

bool finished(const nlohmann::json& record, const std::string& identity, bool rerun_failed) {
  if (!record.is_object() || record.value("identity", "") != identity) return false;
  const std::string status = record.value("status", "");
  return status == "ok" || (status == "failed" && !rerun_failed);
}

}  // namespace

nlohmann::json read_job_record(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

JobsDone run_jobs(Runtime& runtime, const std::vector<Job>& jobs, const JobOptions& options) {
  RankGroups groups(runtime, options.ranks_per_job);
  const int world_rank = runtime.rank();
  // ran, skipped, failed, interrupted: this group's, counted by its first rank
  long counts[4] = {0, 0, 0, 0};
  bool stopped = false;  // a job of this group was interrupted: start no further one
  std::size_t mine = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (static_cast<int>(i % groups.groups()) == groups.group()) ++mine;
  Progress progress(options.label, mine,
                    options.show_progress && world_rank == 0 &&
                        spdlog::default_logger_raw()->should_log(spdlog::level::info),
                    options.what);
  std::size_t seen = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (static_cast<int>(i % groups.groups()) != groups.group() || stopped) continue;
    const Job& job = jobs[i];
    const std::string text = job.description.empty() ? job.name : job.description;
    progress.update(seen++, text);
    const std::filesystem::path record_path = job.dir / options.record_file;
    if (finished(read_job_record(record_path), job.identity, options.rerun_failed)) {
      if (groups.group_root()) ++counts[1];
      spdlog::info("{}: {} finished earlier; skipped", options.label, text);
      continue;
    }
    nlohmann::json record = job.about;
    record["name"] = job.name;
    record["identity"] = job.identity;
    record["rank"] = groups.first_rank();
    Stopwatch clock;
    {
      CommunicatorScope scope(runtime, groups.comm());
      if (runtime.root()) std::filesystem::create_directories(job.dir);
      MPI_Barrier(runtime.comm());
      try {
        record["results"] = job.run(runtime);
        record["status"] = "ok";
      } catch (const InputError&) {
        throw;  // bad input anywhere needs a fix; a rerun continues with the finished jobs
      } catch (const JobInterrupted& e) {
        record["status"] = "interrupted";
        record["error"] = e.what();
        record["results"] = e.results;
        stopped = true;
      } catch (const Error& e) {
        record["status"] = "failed";
        record["error"] = e.what();
        spdlog::warn("{}: {} failed: {}", options.label, text, e.what());
      }
      record["wall_time_s"] = clock.seconds();
      if (runtime.root()) write_text_atomically(record_path, record.dump(1) + "\n");
    }
    const std::string status = record["status"];
    if (groups.group_root()) ++counts[status == "ok" ? 0 : status == "failed" ? 2 : 3];
    spdlog::info("{}: {} {} in {:.1f} s", options.label, text, record["status"].get<std::string>(),
                 clock.seconds());
  }
  progress.update(mine);
  progress.finish(fmt::format("{} run, {} skipped, {} failed{} on rank 0", counts[0], counts[1],
                              counts[2],
                              counts[3] ? fmt::format(", {} interrupted", counts[3]) : ""));
  MPI_Allreduce(MPI_IN_PLACE, counts, 4, MPI_LONG, MPI_SUM, runtime.comm());
  JobsDone done;
  done.ran = counts[0];
  done.skipped = counts[1];
  done.failed = counts[2];
  done.interrupted = counts[3];
  for (const Job& job : jobs) {
    nlohmann::json record = read_job_record(job.dir / options.record_file);
    const bool current = record.is_object() && record.value("identity", "") == job.identity;
    done.records.push_back(current ? record : nlohmann::json());
  }
  return done;
}

}  // namespace surrox::workflows

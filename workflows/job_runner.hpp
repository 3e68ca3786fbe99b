#pragma once
// Independent jobs of a workflow (sweep points, ensemble members, explorations) spread over the
// MPI ranks: job i runs on group i mod G of the ranks (groups of `ranks_per_job`, default one
// rank each, G = ranks / ranks_per_job), inside a CommunicatorScope of its group, so whatever it
// runs (a solver, a training) sees only its group. Each job leaves a record file in its folder,
// written atomically once the job has ended: a job whose record says `ok` for the same identity
// is skipped, so an interrupted workflow continues where it stopped; a job that fails at run
// time (surrox::Error) is recorded as `failed` with the message and the other jobs go on; bad
// input (InputError) stops the workflow, because it needs a fix (a failed job runs again on
// the next invocation unless `rerun_failed` is false). A job that stops early on purpose (a
// budget such as --max-epochs) throws JobInterrupted: its record says `interrupted`, it runs
// again next time, and its group starts no further job in this invocation. After the jobs every
// rank reads every record. In a group of several ranks a job must fail on all of them alike (as
// the solvers' collective checks do), or the others wait for it.
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/runtime.hpp"

namespace surrox::workflows {

struct Job {
  std::string name;           // in the record
  std::string description;    // in logs and the progress line (default: name)
  std::filesystem::path dir;  // the job's folder; its record is dir / JobOptions::record_file
  std::string identity;       // what the job computes (e.g. its resolved case): a record of
                              // another identity is stale and the job runs again
  nlohmann::json about = nlohmann::json::object();  // more fields for the record
  std::function<nlohmann::json(Runtime&)> run;      // on the job's group; returns its results
};

// Thrown by a job that stopped before its end on purpose; `results` go into its record.
class JobInterrupted : public std::runtime_error {
 public:
  JobInterrupted(const std::string& why, nlohmann::json results)
      : std::runtime_error(why), results(std::move(results)) {}
  nlohmann::json results;
};

struct JobOptions {
  std::string record_file = "result.json";
  std::string label = "jobs";  // the workflow, for logs and the progress line ("sweep")
  std::string what = "jobs";   // what its jobs are, for the progress line ("cases", "models")
  int ranks_per_job = 1;       // must divide the number of ranks; all of them: the runtime's
                               // own communicator, not a copy
  bool show_progress = true;   // a progress line on rank 0 over its group's jobs
  bool rerun_failed = true;    // false: a failed record is final too (a deterministic failure
                               // that is part of the result, as a blown-up exploration)
};

struct JobsDone {
  long ran = 0, skipped = 0, failed = 0, interrupted = 0;  // over all ranks
  // Every job's record, in job order, on every rank: name, identity, status ("ok", "failed" or
  // "interrupted"), rank (the world rank of its group's first rank), wall_time_s, results
  // and/or error, and the job's `about` fields; null for a job without one of its identity
  // (one not started after an interruption).
  std::vector<nlohmann::json> records;
};

JobsDone run_jobs(Runtime& runtime, const std::vector<Job>& jobs, const JobOptions& options = {});

// The record in `path`, or null when there is none or it is damaged (a damaged record means the
// job has not finished).
nlohmann::json read_job_record(const std::filesystem::path& path);

}  // namespace surrox::workflows

// ctest-labels: unit
// ctest-libraries: surrox_workflows
// The one job runner of sweeps and concurrent learning (workflows/job_runner.hpp) on one rank:
// every job leaves its record; a rerun skips the finished jobs of the same identity and reruns
// stale and failed ones; a failing job is recorded and the others go on; an interrupted job
// stops its group and runs again next time; bad input stops.
#include "workflows/job_runner.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "support/test_paths.hpp"

namespace surrox::workflows {
namespace {

namespace fs = std::filesystem;

struct Counter {
  int runs[4] = {0, 0, 0, 0};
};

std::vector<Job> square_jobs(const fs::path& dir, Counter& counter, int fail_at = -1,
                             const std::string& identity = "v1") {
  std::vector<Job> jobs;
  for (int i = 0; i < 4; ++i) {
    Job job;
    job.name = "job_" + std::to_string(i);
    job.dir = dir / job.name;
    job.identity = identity;
    job.about = {{"input", i}};
    job.run = [i, fail_at, &counter, d = job.dir](Runtime& runtime) {
      ++counter.runs[i];
      EXPECT_EQ(runtime.size(), 1);  // every job on its own rank
      EXPECT_TRUE(fs::is_directory(d));
      if (i == fail_at) throw Error("job " + std::to_string(i) + " blew up");
      return nlohmann::json{{"square", i * i}};
    };
    jobs.push_back(std::move(job));
  }
  return jobs;
}

TEST(JobRunner, RecordsEveryJobAndResumesWhereItStopped) {
  Runtime& runtime = testing::runtime();
  const fs::path dir = testing::scratch_dir();
  Counter counter;
  JobOptions options;
  options.show_progress = false;
  JobsDone done = run_jobs(runtime, square_jobs(dir, counter, /*fail_at=*/2), options);
  EXPECT_EQ(done.ran, 3);
  EXPECT_EQ(done.failed, 1);
  EXPECT_EQ(done.skipped, 0);
  ASSERT_EQ(done.records.size(), 4u);
  EXPECT_EQ(done.records[3]["results"]["square"], 9);
  EXPECT_EQ(done.records[3]["input"], 3);
  EXPECT_EQ(done.records[3]["status"], "ok");
  EXPECT_EQ(done.records[2]["status"], "failed");
  EXPECT_NE(done.records[2]["error"].get<std::string>().find("blew up"), std::string::npos);
  EXPECT_EQ(read_job_record(dir / "job_1" / "result.json")["results"]["square"], 1);

  // Again: the finished jobs are skipped, the failed one runs again (and now succeeds).
  done = run_jobs(runtime, square_jobs(dir, counter), options);
  EXPECT_EQ(done.skipped, 3);
  EXPECT_EQ(done.ran, 1);
  EXPECT_EQ(counter.runs[0], 1);
  EXPECT_EQ(counter.runs[2], 2);
  EXPECT_EQ(done.records[2]["results"]["square"], 4);

  // A failure that is part of the result is kept with rerun_failed = false.
  Counter once;
  JobOptions keep = options;
  keep.rerun_failed = false;
  const fs::path kept = dir / "kept";
  run_jobs(runtime, square_jobs(kept, once, 1), keep);
  done = run_jobs(runtime, square_jobs(kept, once, 1), keep);
  EXPECT_EQ(once.runs[1], 1);
  EXPECT_EQ(done.skipped, 4);
  EXPECT_EQ(done.records[1]["status"], "failed");

  // Another identity (another resolved case) makes every record stale.
  done = run_jobs(runtime, square_jobs(dir, counter, -1, "v2"), options);
  EXPECT_EQ(done.ran, 4);
  EXPECT_EQ(counter.runs[0], 2);

  // A damaged record means "not finished".
  std::ofstream(dir / "job_0" / "result.json") << "{ damaged";
  done = run_jobs(runtime, square_jobs(dir, counter, -1, "v2"), options);
  EXPECT_EQ(done.ran, 1);
  EXPECT_EQ(counter.runs[0], 3);
}

TEST(JobRunner, AnInterruptedJobStopsItsGroupAndRunsAgain) {
  const fs::path dir = testing::scratch_dir();
  Counter counter;
  std::vector<Job> jobs = square_jobs(dir, counter);
  bool budget = true;  // job 1 stops early (as --max-epochs) while there is a budget
  const auto square = jobs[1].run;
  jobs[1].run = [&budget, square](Runtime& r) {
    if (budget) throw JobInterrupted("stopped at its budget", {{"epochs", 2}});
    return square(r);
  };
  JobOptions options;
  options.show_progress = false;
  JobsDone done = run_jobs(testing::runtime(), jobs, options);
  EXPECT_EQ(done.ran, 1);
  EXPECT_EQ(done.interrupted, 1);
  EXPECT_EQ(done.records[1]["status"], "interrupted");
  EXPECT_EQ(done.records[1]["results"]["epochs"], 2);
  EXPECT_TRUE(done.records[2].is_null());  // not started on the one group
  EXPECT_EQ(counter.runs[2], 0);
  budget = false;
  done = run_jobs(testing::runtime(), jobs, options);
  EXPECT_EQ(done.skipped, 1);
  EXPECT_EQ(done.ran, 3);
  EXPECT_EQ(done.records[1]["results"]["square"], 1);
}

TEST(JobRunner, BadInputStopsTheWorkflow) {
  const fs::path dir = testing::scratch_dir();
  Counter counter;
  std::vector<Job> jobs = square_jobs(dir, counter);
  jobs[1].run = [](Runtime&) -> nlohmann::json { throw InputError("a wrong key"); };
  JobOptions options;
  options.show_progress = false;
  EXPECT_THROW(run_jobs(testing::runtime(), jobs, options), InputError);
  EXPECT_EQ(counter.runs[0], 1);
  EXPECT_EQ(counter.runs[2], 0);
  EXPECT_FALSE(fs::exists(dir / "job_1" / "result.json"));
  options.ranks_per_job = 2;  // more ranks per job than there are
  EXPECT_THROW(run_jobs(testing::runtime(), jobs, options), InputError);
}

}  // namespace
}  // namespace surrox::workflows

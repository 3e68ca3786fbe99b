// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_workflows
// The job runner on 2 ranks: job i runs on rank i mod 2 alone (or on both as one group of two),
// and after the jobs every rank reads every record.
#include <gtest/gtest.h>

#include "support/test_paths.hpp"
#include "workflows/job_runner.hpp"

namespace surrox::workflows {
namespace {

std::vector<Job> rank_jobs(const std::filesystem::path& dir, int n) {
  std::vector<Job> jobs;
  for (int i = 0; i < n; ++i) {
    Job job;
    job.name = "job_" + std::to_string(i);
    job.dir = dir / job.name;
    job.run = [](Runtime& runtime) {
      int world = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &world);
      return nlohmann::json{{"world_rank", world}, {"group_size", runtime.size()}};
    };
    jobs.push_back(std::move(job));
  }
  return jobs;
}

TEST(JobRunnerMpi2, JobsAlternateOverTheRanksAndEveryRankSeesEveryRecord) {
  Runtime& runtime = testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const auto dir = testing::scratch_dir();
  JobOptions options;
  options.show_progress = false;
  const JobsDone done = run_jobs(runtime, rank_jobs(dir / "single", 5), options);
  EXPECT_EQ(done.ran, 5);
  ASSERT_EQ(done.records.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(done.records[i]["rank"], i % 2);
    EXPECT_EQ(done.records[i]["results"]["world_rank"], i % 2);
    EXPECT_EQ(done.records[i]["results"]["group_size"], 1);
  }
  EXPECT_EQ(runtime.size(), 2);  // the jobs' scopes have ended

  options.ranks_per_job = 2;
  const JobsDone pairs = run_jobs(runtime, rank_jobs(dir / "pairs", 3), options);
  EXPECT_EQ(pairs.ran, 3);
  for (const auto& record : pairs.records) {
    EXPECT_EQ(record["rank"], 0);
    EXPECT_EQ(record["results"]["group_size"], 2);
    EXPECT_EQ(record["results"]["world_rank"], 0);  // the group's first rank writes the record
  }
}

}  // namespace
}  // namespace surrox::workflows

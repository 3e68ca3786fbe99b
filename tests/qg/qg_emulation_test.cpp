// ctest-labels: unit
// ctest-libraries: surrox_cli
// The emulation dataset (cases/qg/emulation.yaml): `output.start_time` skips the spin-up, then
// fields.h5 holds one snapshot per interval, at exactly the multiples of the interval, on the
// interior nodes of the 32 × 64 grid; the states differ from snapshot to snapshot.
#include <gtest/gtest.h>

#include <cmath>

#include "io/hdf5_dataset.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

TEST(QgEmulationDataset, SnapshotsAfterTheSpinUpAtAFixedInterval) {
  const auto dir = testing::scratch_dir() / "emulation";
  std::string out;
  ASSERT_EQ(
      testing::run_surrox("run " + (testing::source_dir() / "cases/qg/emulation.yaml").string() +
                              " -o " + dir.string() +
                              " --set solver.end_time=0.06 --set output.start_time=0.025"
                              " --set output.interval=0.01 --log-level warn",
                          &out),
      0)
      << out;
  const io::Hdf5DatasetReader reader(dir / "fields.h5");
  const std::vector<double> times = reader.times();
  ASSERT_EQ(times.size(), 4u);  // 0.03, 0.04, 0.05, 0.06: nothing before the start time
  for (std::size_t n = 0; n < times.size(); ++n)
    EXPECT_NEAR(times[n], 0.03 + 0.01 * double(n), 1e-12) << n;
  const io::HostArray first = reader.read("psi", 0), last = reader.read("psi", 3);
  ASSERT_EQ(first.extent(0), 31u * 63u);  // the interior nodes
  double change = 0, size = 0;
  for (std::size_t k = 0; k < first.extent(0); ++k) {
    change = std::max(change, std::abs(last(k, 0) - first(k, 0)));
    size = std::max(size, std::abs(last(k, 0)));
  }
  EXPECT_GT(change, 1e-6 * size);
  EXPECT_GT(size, 0);
  for (const char* field : {"psi", "omega", "u", "v"}) EXPECT_NO_THROW(reader.read(field, 3));
}

}  // namespace
}  // namespace surrox

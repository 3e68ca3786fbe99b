// ctest-libraries: surrox_io_hdf5
// Sweep datasets keep each parameter as numbers when every value is one and as text otherwise;
// a value with a leading zero ("0012", NACA digits) is a name, kept as written.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/hdf5_sweep.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

std::filesystem::path write_two_cases(const std::vector<std::string>& digits,
                                      const std::vector<std::string>& alpha) {
  const auto path = surrox::testing::scratch_dir() / "sweep.h5";
  SweepDatasetWriter writer(path, 2, "test", "test");
  for (std::size_t k = 0; k < 2; ++k) {
    SweepCase c;
    c.name = "case_000" + std::to_string(k);
    c.parameters = {{"solver.mesh.airfoil.digits", digits[k]}, {"solver.alpha_deg", alpha[k]}};
    c.results = {{"cl", 0.1 * static_cast<double>(k)}};
    c.mesh.kind = MeshKind::kStructured;
    c.mesh.extent = {0, 1, 0, 1, 0, 0};
    c.mesh.points = HostArray("p", 4, 3);
    for (long n = 0; n < 4; ++n) c.mesh.points(n, 0) = static_cast<double>(n % 2);
    for (long n = 0; n < 4; ++n) c.mesh.points(n, 1) = static_cast<double>(n / 2);
    HostArray area("area", 1, 1);
    area(0, 0) = 1;
    c.mesh.cell_data = {{"area", area}};
    writer.write(k, c);
  }
  writer.close();
  return path;
}

TEST(SweepParameters, LeadingZerosAreTextAndNumbersStayNumbers) {
  const SweepDatasetReader sweep(write_two_cases({"0012", "2412"}, {"0", "-0.5"}));
  EXPECT_EQ(sweep.parameter_text("solver.mesh.airfoil.digits"),
            (std::vector<std::string>{"0012", "2412"}));
  EXPECT_THROW(sweep.parameter("solver.mesh.airfoil.digits"), InputError);
  EXPECT_EQ(sweep.parameter("solver.alpha_deg"), (std::vector<double>{0, -0.5}));
}

TEST(SweepParameters, DigitsWithoutLeadingZerosAreNumbers) {
  const SweepDatasetReader sweep(write_two_cases({"2412", "4415"}, {"0.25", "1e-1"}));
  EXPECT_EQ(sweep.parameter("solver.mesh.airfoil.digits"), (std::vector<double>{2412, 4415}));
  EXPECT_EQ(sweep.parameter("solver.alpha_deg"), (std::vector<double>{0.25, 0.1}));
}

}  // namespace
}  // namespace surrox::io

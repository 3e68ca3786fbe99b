// ctest-labels: unit
// ctest-libraries: surrox_lammps surrox_families
// ctest-pch: torch
// ctest-requires: surrox_lammps
// Bad pair_style and pair_coeff lines stop surrox-lammps with LAMMPS's "ERROR:" and a message
// that names the problem (a missing element, an unknown or unsupported keyword, a file that is
// no model, another unit style, newton pair off), never a crash; `surrox lammps` runs the
// driver.
#include <fstream>

#include "lammps_test_support.hpp"

namespace surrox::lammps::test {
namespace {

std::string driver() { return std::string(SURROX_BINARY_DIR) + "/lammps/surrox-lammps"; }

// Runs an input whose pair lines are `pair` on the frame; returns the exit code and output.
int run_input(const std::filesystem::path& dir, const std::string& pair, std::string& output,
              const std::string& units, const std::string& settings) {
  write_data_file((dir / "frame.data").string(), silicon_frame());
  std::ofstream(dir / "in.test") << "units " << units << "\n"
                                 << settings << "read_data " << (dir / "frame.data").string()
                                 << "\n"
                                 << pair << "\nrun 0\n";
  return surrox::testing::run_command(
      driver() + " -in " + (dir / "in.test").string() + " -log none", &output);
}

// LAMMPS's own error (`message` after "ERROR: ").
void expect_error(const std::filesystem::path& dir, const std::string& pair,
                  const std::string& message, const std::string& units = "metal",
                  const std::string& settings = "") {
  std::string output;
  const int code = run_input(dir, pair, output, units, settings);
  EXPECT_EQ(code, 1) << output;
  EXPECT_NE(output.find("ERROR: " + message), std::string::npos)
      << "expected '" << message << "' in:\n"
      << output;
}

// The pair style's error.
void expect_lammps_error(const std::filesystem::path& dir, const std::string& pair,
                         const std::string& message, const std::string& units = "metal",
                         const std::string& settings = "") {
  expect_error(dir, pair, "pair_style surrox/deep: " + message, units, settings);
}

TEST(LammpsPairErrors, InputMistakesAreLammpsErrors) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string model = scratch_model(dir, "model.pt", 1);
  expect_lammps_error(dir, "pair_style surrox/deep " + model + "\npair_coeff * * O",
                      "element O is not in the type_map of " + model + " (Si)");
  expect_lammps_error(dir, "pair_style surrox/deep " + model + "\npair_coeff * * Si Si",
                      "pair_coeff * * names 2 elements for 1 atom types");
  expect_error(dir, "pair_style surrox/deep " + model + "\npair_coeff 1 1 Si",
               "Incorrect args for pair coefficients");  // LAMMPS's check (one_coeff)
  expect_lammps_error(
      dir, "pair_style surrox/deep " + model + " out_freq 10 colour red\npair_coeff * * Si",
      "unknown keyword colour (out_freq, out_file, relative)");
  expect_lammps_error(dir, "pair_style surrox/deep " + model + " fparam 1.0\npair_coeff * * Si",
                      "DeePMD-kit's keyword fparam is not supported");
  expect_lammps_error(dir, "pair_style surrox/deep " + model + " out_freq 0\npair_coeff * * Si",
                      "out_freq must be at least 1");
  expect_lammps_error(dir, "pair_style surrox/deep missing.pt\npair_coeff * * Si",
                      "missing.pt is neither a model file nor a keyword");
  expect_lammps_error(dir, "pair_style surrox/deep out_freq 10\npair_coeff * * Si",
                      "name a model file first");
  expect_lammps_error(dir, "pair_style surrox/deep " + model + "\npair_coeff * * Si",
                      "a surrox deep potential works in eV and Å: use units metal, not real",
                      "real");
  expect_lammps_error(dir, "pair_style surrox/deep " + model + "\npair_coeff * * Si",
                      "requires newton pair on", "metal", "newton off\n");
}

TEST(LammpsPairErrors, AFileThatIsNoModelIsAnError) {
  const auto dir = surrox::testing::scratch_dir();
  std::ofstream(dir / "junk.pt") << "not a torch archive";
  expect_lammps_error(
      dir, "pair_style surrox/deep " + (dir / "junk.pt").string() + "\npair_coeff * * Si",
      (dir / "junk.pt").string());
}

TEST(LammpsPairErrors, SurroxLammpsRunsTheDriver) {
  std::string output;
  EXPECT_EQ(surrox::testing::run_surrox("lammps --help", &output), 0) << output;
  EXPECT_NE(output.find("pair_style surrox/deep model.pt"), std::string::npos) << output;
}

}  // namespace
}  // namespace surrox::lammps::test

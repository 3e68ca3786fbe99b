// ctest-labels: unit
// ctest-libraries: surrox_cli surrox_test_md
// A potential registered from a library that surrox_solvers does not link (tests/md/support,
// as a torch-side learned potential would be): the case schema accepts it and checks its keys,
// an unknown name lists it, and MD through the normal case path gives the analytic energy,
// forces, pressure and per-atom energy and virial of three atoms.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>

#include "md/md_test_support.hpp"
#include "md/support/harmonic_pair.hpp"

namespace surrox::solvers::md::test {
namespace {

constexpr double kStiffness = 2.0, kCutoff = 1.0, kBox = 6.0;
const std::array<std::array<double, 3>, 3> kPositions = {
    {{2.0, 2.0, 2.0}, {2.5, 2.0, 2.0}, {2.0, 2.7, 2.3}}};

std::string three_atoms_file() {
  const auto path = surrox::testing::scratch_dir() / "three_atoms.data";
  std::ofstream out(path);
  out << fmt::format(
      "three atoms\n\n3 atoms\n1 atom types\n\n0 {0} xlo xhi\n0 {0} ylo yhi\n"
      "0 {0} zlo zhi\n\nMasses\n\n1 1.0\n\nAtoms # atomic\n\n",
      kBox);
  for (int i = 0; i < 3; ++i)
    out << fmt::format("{} 1 {} {} {}\n", i + 1, kPositions[i][0], kPositions[i][1],
                       kPositions[i][2]);
  return path.string();
}

std::unique_ptr<MdSolver> harmonic_solver(long steps, const std::string& extra = "") {
  register_harmonic_pair();
  return make_solver(
      fmt::format("data_file: '{}', steps: {}, thermo: 1, dt: 0.001, neighbor: {{skin: 0.3}}, "
                  "pair: {{type: harmonic/cut, k: {}, cutoff: {}}}{}",
                  three_atoms_file(), steps, kStiffness, kCutoff, extra));
}

struct Analytic {
  double energy = 0, virial = 0;
  std::array<std::array<double, 3>, 3> force{};
  std::array<double, 3> atom_energy{}, atom_virial_xx{};
};

Analytic analytic() {
  Analytic a;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      double del[3], r2 = 0;
      for (int d = 0; d < 3; ++d) {
        del[d] = kPositions[i][d] - kPositions[j][d];
        r2 += del[d] * del[d];
      }
      const double r = std::sqrt(r2), e = kStiffness * (kCutoff - r) * (kCutoff - r);
      const double fpair = 2 * kStiffness * (kCutoff - r) / r;
      a.energy += e;
      a.virial += fpair * r2;
      for (int d = 0; d < 3; ++d) {
        a.force[i][d] += fpair * del[d];
        a.force[j][d] -= fpair * del[d];
      }
      for (int m : {i, j}) {
        a.atom_energy[m] += 0.5 * e;
        a.atom_virial_xx[m] += 0.5 * del[0] * del[0] * fpair;
      }
    }
  return a;
}

TEST(MdPotentialPlugin, TheCaseSchemaKnowsARegisteredPotential) {
  register_harmonic_pair();
  EXPECT_TRUE(potential_registry().contains("harmonic/cut"));
  try {
    make_solver("steps: 0, pair: {type: harmonic/cutt}");
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string m = e.what();
    for (const char* name : {"harmonic/cut", "lj/cut", "sw"})
      EXPECT_NE(m.find(name), std::string::npos) << m;
  }
  try {
    make_solver("steps: 0, pair: {type: harmonic/cut, stiffness: 3}");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("stiffness"), std::string::npos) << e.what();
  }
}

TEST(MdPotentialPlugin, EnergyForcesAndPressureAreAnalytic) {
  auto md = harmonic_solver(0, ", per_atom: true");
  const Analytic a = analytic();
  const ThermoRow row = md->thermo();
  EXPECT_NEAR(row.e_pair, a.energy / 3, 1e-14);                        // lj units: per atom
  EXPECT_NEAR(row.press, a.virial / (3 * kBox * kBox * kBox), 1e-15);  // atoms at rest
  const io::MeshData mesh = md->output_mesh();
  std::map<std::string, io::HostArray> arrays;
  for (const auto& p : mesh.point_data) arrays[p.name] = p.values;
  ASSERT_EQ(arrays.count("pe_atom"), 1u);
  ASSERT_EQ(arrays.count("virial_atom"), 1u);
  for (long r = 0; r < 3; ++r) {
    const int i = static_cast<int>(arrays["id"](r, 0)) - 1;  // lists sort atoms by cell
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(arrays["force"](r, d), a.force[i][d], 1e-13);
    EXPECT_NEAR(arrays["pe_atom"](r, 0), a.atom_energy[i], 1e-14);
    EXPECT_NEAR(arrays["virial_atom"](r, 0), a.atom_virial_xx[i], 1e-14);
  }
}

TEST(MdPotentialPlugin, RunsNveThroughTheSolverAndConservesEnergy) {
  auto md = harmonic_solver(500);
  while (!md->finished()) md->advance();
  const auto& rows = md->thermo_rows();
  ASSERT_EQ(rows.size(), 501u);
  EXPECT_GT(rows.back().e_kin, 0.1 * rows.front().e_pair);  // the atoms pushed apart
  for (const auto& r : rows) EXPECT_NEAR(r.e_total, rows.front().e_total, 1e-5);
}

}  // namespace
}  // namespace surrox::solvers::md::test

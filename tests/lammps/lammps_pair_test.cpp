// ctest-labels: unit
// ctest-libraries: surrox_lammps surrox_families
// ctest-pch: torch
// ctest-requires: surrox_lammps
// pair_style surrox/deep in LAMMPS gives the energy, forces and virial that the model gives on
// the periodic frame (predict(), no neighbour list), on an orthogonal and a triclinic cell; its
// per-atom energy and virial sum to the totals; it equals surrox's own MD engine on the frame
// the engine reached; and the model deviation it writes is DeePMD-kit's on the frame. A model
// with float32 nets runs too and equals the model on the frame as closely.
#include <cstdio>

#include "atom.h"
#include "lammps_test_support.hpp"
#include "md/md_test_support.hpp"
#include "modify.h"
#include "surrogates/deep_potential/model_deviation.hpp"

namespace surrox::lammps::test {
namespace {

// |LAMMPS − model| on energy, forces and the 6 virial components, relative to their scale.
void expect_equal_to_model(Lammps& l, const dp::Prediction& p, double tolerance) {
  const double e = p.energy.item<double>();
  EXPECT_NEAR(l.energy(), e, tolerance * std::fabs(e));
  const std::vector<double> f = l.gather("f", 3);
  double worst = 0, largest = 0;
  for (std::size_t k = 0; k < f.size(); ++k) {
    const double ref = p.force[0][k / 3][k % 3].item<double>();
    worst = std::max(worst, std::fabs(f[k] - ref));
    largest = std::max(largest, std::fabs(ref));
  }
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst, tolerance * largest);
  const int comp[6] = {0, 4, 8, 1, 2, 5};
  const std::array<double, 6> w = l.virial();
  double scale = 0;
  for (int q = 0; q < 6; ++q)
    scale = std::max(scale, std::fabs(p.virial[0][comp[q]].item<double>()));
  for (int q = 0; q < 6; ++q)
    EXPECT_NEAR(w[q], p.virial[0][comp[q]].item<double>(), tolerance * scale) << "component " << q;
  std::printf("LAMMPS vs model: |ΔE|/|E| = %.3g, max |ΔF|/max |F| = %.3g\n",
              std::fabs(l.energy() / e - 1), worst / largest);
}

// LAMMPS with model `seed` on the frame of tilt `tilt` against the model on that frame.
void expect_lammps_equals_model_on_frame(long seed, double tilt,
                                         const std::string& precision = "float64",
                                         double tolerance = 1e-10) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string model = scratch_model(dir, "model.pt", seed, precision);
  const Frame f = silicon_frame(2, tilt);
  Lammps l(dir);
  start(l, dir, f, "surrox/deep " + model);
  expect_equal_to_model(l, frame_reference(model, f), tolerance);
}

TEST(LammpsPair, EqualsTheModelOnTheFrame) { expect_lammps_equals_model_on_frame(1, 0); }

TEST(LammpsPair, EqualsTheModelOnATriclinicFrame) { expect_lammps_equals_model_on_frame(2, 1.7); }

TEST(LammpsPair, Float32ModelEqualsTheModelOnTheFrame) {
  // Both evaluate the slots nearest first, so the float32 nets see the same sums in both.
  expect_lammps_equals_model_on_frame(4, 1.7, "float32", 1e-10);
}

TEST(LammpsPair, PerAtomEnergyAndVirialSumToTheTotals) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string model = scratch_model(dir, "model.pt", 3);
  Lammps l(dir);
  const std::string data = (dir / "frame.data").string();
  write_data_file(data, silicon_frame());
  l("units metal");
  l("atom_modify map array");
  l("read_data " + data);
  l("pair_style surrox/deep " + model);
  l("pair_coeff * * Si");
  l("compute pea all pe/atom");
  l("compute sa all stress/atom NULL virial");
  l("compute spe all reduce sum c_pea");
  l("compute ssa all reduce sum c_sa[1] c_sa[2] c_sa[3] c_sa[4] c_sa[5] c_sa[6]");
  l("thermo_style custom step pe c_spe c_ssa[1] c_ssa[2] c_ssa[3] c_ssa[4] c_ssa[5] c_ssa[6]");
  l("run 0");
  auto* spe =
      static_cast<double*>(lammps_extract_compute(l.lmp.get(), const_cast<char*>("spe"), 0, 0));
  auto* ssa =
      static_cast<double*>(lammps_extract_compute(l.lmp.get(), const_cast<char*>("ssa"), 0, 1));
  ASSERT_NE(spe, nullptr);
  ASSERT_NE(ssa, nullptr);
  EXPECT_NEAR(*spe, l.energy(), 1e-12 * std::fabs(l.energy()));
  // stress/atom holds −(per-atom virial)·nktv2p; its sum is the global virial (Σ x·f).
  const double nktv2p = l.lmp->force->nktv2p;
  const std::array<double, 6> w = l.virial();
  double scale = 0;
  for (double v : w) scale = std::max(scale, std::fabs(v));
  EXPECT_GT(scale, 1e-3);
  for (int q = 0; q < 6; ++q) EXPECT_NEAR(-ssa[q] / nktv2p, w[q], 1e-10 * scale) << q;
}

TEST(LammpsPair, EqualsSurroxsEngineWhereTheEngineGot) {
  const auto dir = surrox::testing::scratch_dir();
  namespace md = solvers::md;
  const std::string model = scratch_model(dir, "model.pt", 1);
  auto solver =
      md::test::make_solver(couplers::dp_pair_test::pair_test_case("model: '" + model + "'", 20));
  while (!solver->finished()) solver->advance();
  const md::ThermoRow row = solver->thermo();
  const md::AtomData a = solver->gather();
  Frame f;
  f.box = {a.box.length(0), 0, 0, 0, a.box.length(1), 0, 0, 0, a.box.length(2)};
  for (long i = 0; i < a.natoms(); ++i)
    for (int d = 0; d < 3; ++d) f.coord.push_back(a.x[i][d] - a.box.lo[d]);
  Lammps l(dir);
  start(l, dir, f, "surrox/deep " + model);
  EXPECT_NEAR(l.energy(), row.e_pair, 1e-10 * std::fabs(row.e_pair));
  // The engine's forces by atom id against LAMMPS's.
  const md::System& s = solver->system();
  auto fe = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.f);
  auto tag = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
  const std::vector<double> fl = l.gather("f", 3);
  double worst = 0, largest = 0;
  for (long i = 0; i < s.nlocal; ++i)
    for (int d = 0; d < 3; ++d) {
      worst = std::max(worst, std::fabs(fe(i, d) - fl[3 * (tag(i) - 1) + d]));
      largest = std::max(largest, std::fabs(fe(i, d)));
    }
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst, 1e-10 * largest);
}

// md.out's step-0 row from the pair against DeePMD-kit's formulas on both models' frame values.
TEST(LammpsPair, ModelDeviationIsDeePMDsOnTheFrame) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string m0 = scratch_model(dir, "m0.pt", 1), m1 = scratch_model(dir, "m1.pt", 7);
  const Frame f = silicon_frame();
  const std::string out = (dir / "md.out").string();
  const std::string rel = (dir / "md_relative.out").string();
  {
    Lammps l(dir);
    start(l, dir, f, "surrox/deep " + m0 + " " + m1 + " out_freq 5 out_file " + out);
  }
  {
    Lammps l(dir);
    start(l, dir, f, "surrox/deep " + m0 + " " + m1 + " out_freq 5 relative 1.0 out_file " + rel);
  }
  const dp::Prediction p0 = frame_reference(m0, f), p1 = frame_reference(m1, f);
  std::vector<double> virial(18);
  for (int q = 0; q < 9; ++q) {
    virial[q] = p0.virial[0][q].item<double>();
    virial[9 + q] = p1.virial[0][q].item<double>();
  }
  dp::ModelDeviRow expected = dp::virial_deviation(0, virial, 2, f.atoms());
  double max_rel = 0;
  expected.min_devi_f = 1e300;
  for (long i = 0; i < f.atoms(); ++i) {
    std::vector<double> forces(6);
    for (int d = 0; d < 3; ++d) {
      forces[d] = p0.force[0][i][d].item<double>();
      forces[3 + d] = p1.force[0][i][d].item<double>();
    }
    const double e = dp::force_deviation(forces, 2);
    expected.max_devi_f = std::max(expected.max_devi_f, e);
    expected.min_devi_f = std::min(expected.min_devi_f, e);
    expected.avg_devi_f += e / static_cast<double>(f.atoms());
    max_rel = std::max(max_rel, dp::relative_force_deviation(forces, 2, 1.0));
  }
  const std::vector<dp::ModelDeviRow> rows = dp::read_model_devi_out(out);
  ASSERT_EQ(rows.size(), 1u);
  const dp::ModelDeviRow& r = rows[0];
  EXPECT_EQ(r.step, 0);
  EXPECT_GT(expected.max_devi_f, 1e-4);
  // md.out holds 10 significant digits (DeePMD-kit's %18.6e would hold 7; see model_deviation).
  const double t = 1e-9;
  EXPECT_NEAR(r.max_devi_f, expected.max_devi_f, t * expected.max_devi_f);
  EXPECT_NEAR(r.min_devi_f, expected.min_devi_f, t * expected.max_devi_f);
  EXPECT_NEAR(r.avg_devi_f, expected.avg_devi_f, t * expected.max_devi_f);
  EXPECT_NEAR(r.max_devi_v, expected.max_devi_v, t * expected.max_devi_v);
  EXPECT_NEAR(r.min_devi_v, expected.min_devi_v, t * expected.max_devi_v);
  EXPECT_NEAR(r.avg_devi_v, expected.avg_devi_v, t * expected.max_devi_v);
  const std::vector<dp::ModelDeviRow> relative = dp::read_model_devi_out(rel);
  ASSERT_EQ(relative.size(), 1u);
  EXPECT_NEAR(relative[0].max_devi_f, max_rel, t * max_rel);
  EXPECT_LT(relative[0].max_devi_f, r.max_devi_f);
}

}  // namespace
}  // namespace surrox::lammps::test

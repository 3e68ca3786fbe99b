// ctest-labels: unit
// ctest-libraries: surrox_families
// ctest-pch: torch
// `pair: {type: deep}`: the MD engine on a deep potential gives, from its own neighbour list
// and ghost atoms, the energy, forces and virial that the model gives on the periodic frame
// (surrogates/deep_potential predict()). The 200-step NVE check is deep_potential_pair_nve_test.
#include <gtest/gtest.h>

#include "deep_potential_pair_support.hpp"

namespace surrox::couplers {
namespace {
using namespace dp_pair_test;

std::string make_model() {
  const auto path = (surrox::testing::scratch_dir() / "model.pt").string();
  write_pair_test_model(path, 1);
  return path;
}

TEST(DeepPotentialPair, EngineAgreesWithTheModelOnTheFrame) {
  const std::string path = make_model();
  auto solver = md::test::make_solver(pair_test_case("model: '" + path + "'", 20));
  while (!solver->finished()) solver->advance();
  // The engine's state now: energy, virial (from the pressure) and forces, by atom id.
  const md::ThermoRow row = solver->thermo();
  const md::AtomData a = solver->gather();
  const md::System& s = solver->system();
  auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.f);
  auto tag = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
  std::vector<double> coord,
      box = {a.box.length(0), 0, 0, 0, a.box.length(1), 0, 0, 0, a.box.length(2)};
  for (long i = 0; i < a.natoms(); ++i)
    for (int d = 0; d < 3; ++d) coord.push_back(a.x[i][d]);
  auto model = dp::load_model(path);
  const std::vector<int> types(a.natoms(), 0);
  const auto batch =
      dp::make_batch({dp::build_environment(coord.data(), box.data(), types, 4.0, {28})}, types, 1);
  const dp::Prediction p = dp::predict(model, batch);
  const double e = p.energy.item<double>();
  EXPECT_NEAR(row.e_pair, e, 1e-10 * std::fabs(e));
  double worst = 0, largest = 0;
  for (long i = 0; i < s.nlocal; ++i)
    for (int d = 0; d < 3; ++d) {
      const double ref = p.force[0][tag(i) - 1][d].item<double>();
      worst = std::max(worst, std::fabs(f(i, d) - ref));
      largest = std::max(largest, std::fabs(ref));
    }
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst, 1e-10 * largest);
  // Pressure's virial = trace of the model's virial tensor.
  const double volume = a.box.volume();
  const double w = row.press * 3 * volume / s.units.nktv2p - 2 * row.e_kin;
  const double trace = (p.virial[0][0] + p.virial[0][4] + p.virial[0][8]).item<double>();
  EXPECT_NEAR(w, trace, 1e-8 * std::fabs(trace) + 1e-9);
  std::printf("engine vs model: |ΔE|/|E| = %.3g, max |ΔF| = %.3g eV/Å\n",
              std::fabs(row.e_pair / e - 1), worst);
}

TEST(DeepPotentialPair, BadModelIsAnInputError) {
  surrox::families::register_builtin_families();
  EXPECT_THROW(md::test::make_solver(pair_test_case("model: /nonexistent/model.pt", 1)),
               InputError);
}

}  // namespace
}  // namespace surrox::couplers

// ctest-labels: unit
// ctest-libraries: surrox_cli
// ctest-pch: torch
// `pair: {type: deep}`: the MD engine on a deep potential gives, from its own neighbour list
// and ghost atoms, the energy, forces and virial that the model gives on the periodic frame
// (surrogates/deep_potential predict()); a short NVE run conserves energy.
#include "couplers/deep_potential_pair.hpp"

#include <gtest/gtest.h>

#include "md/md_test_support.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::couplers {
namespace {
namespace dp = surrogates::deep_potential;
namespace md = solvers::md;

std::string dp_case(const std::string& model, long steps) {
  return "units: metal, lattice: {style: diamond, constant: 5.431, replicate: [2, 2, 2], mass: "
         "28.06}, velocity: {temperature: 600, seed: 5}, dt: 0.0005, thermo: 10, steps: " +
         std::to_string(steps) + ", neighbor: {skin: 1.0}, pair: {type: deep, model: '" + model +
         "'}";
}

// An untrained model whose statistics come from a perturbed crystal (non-trivial davg, dstd).
std::string make_model() {
  register_deep_potential_pair();
  dp::SeE2aConfig c;
  c.rcut = 4.0;
  c.rcut_smth = 3.0;
  c.sel = {28};
  c.embedding = {8, 16};
  c.axis_neuron = 4;
  c.fitting = {16, 16};
  dp::SeE2aModel m(c);
  auto solver = md::test::make_solver(
      "units: metal, lattice: {style: diamond, constant: 5.431, replicate: [2, 2, 2], mass: "
      "28.06}, steps: 0, neighbor: {skin: 1.0}, pair: {type: sw, file: '" +
      (md::test::md_dir() / "Si.sw").string() + "', elements: Si}");
  const md::AtomData a = solver->gather();
  std::vector<double> coord,
      box = {a.box.length(0), 0, 0, 0, a.box.length(1), 0, 0, 0, a.box.length(2)};
  for (long i = 0; i < a.natoms(); ++i)
    for (int d = 0; d < 3; ++d) coord.push_back(a.x[i][d] + 0.1 * std::sin(3.0 * i + d));
  const std::vector<int> types(a.natoms(), 0);
  m->compute_statistics({dp::make_batch(
      {dp::build_environment(coord.data(), box.data(), types, c.rcut, c.sel)}, types, 1)});
  m->bias.fill_(-4.3);
  const auto path = (surrox::testing::scratch_dir() / "model.pt").string();
  dp::save_model(path, m);
  return path;
}

TEST(DeepPotentialPair, EngineAgreesWithTheModelOnTheFrame) {
  const std::string path = make_model();
  auto solver = md::test::make_solver(dp_case(path, 20));
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

TEST(DeepPotentialPair, NveConservesEnergy) {
  const std::string path = make_model();
  auto solver = md::test::make_solver(dp_case(path, 200));
  while (!solver->finished()) solver->advance();
  const auto d = solver->diagnostics();
  std::printf("NVE, 200 steps of 0.5 fs at ~600 K: max |ΔE_total|/|E_total| = %.3g\n",
              d.at("energy_drift_max_relative"));
  EXPECT_LT(d.at("energy_drift_max_relative"), 1e-4);
}

TEST(DeepPotentialPair, BadModelIsAnInputError) {
  register_deep_potential_pair();
  EXPECT_THROW(md::test::make_solver(dp_case("/nonexistent/model.pt", 1)), InputError);
}

}  // namespace
}  // namespace surrox::couplers

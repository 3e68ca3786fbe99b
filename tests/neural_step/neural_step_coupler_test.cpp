// ctest-labels: regression
// ctest-libraries: surrox_couplers surrox_cli
// ctest-pch: torch
// The neural-step coupler on a 16 × 32 double gyre: the guard accepts the solver's own k steps
// and rejects persistence and a proposal with tripled vorticity, and the POD projection error
// tells an input far from the snapshots; on the linear problem, online training from an
// untrained network raises the accepted fraction from 0 (deterministic seeds); `surrox run`
// writes the curve, and bad input exits 2.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "couplers/neural_step/neural_step_guard.hpp"
#include "couplers/neural_step/neural_step_runs.hpp"
#include "qg/qg_checks.hpp"
#include "support/test_paths.hpp"
#include "training/neural_step/neural_step_model.hpp"

namespace surrox::couplers {
namespace {

using solvers::qg::testing_support::make_qg;

constexpr double kTinyDt = 2e-4;
constexpr long kTinyK = 5;

std::unique_ptr<solvers::qg::QgSolver> tiny_gyre() {
  auto solver = make_qg({"solver.cells=[16, 32]", "solver.dt=2e-4", "solver.end_time=100",
                         "solver.initial=random", "solver.amplitude=50"});
  for (int s = 0; s < 500; ++s) solver->advance();
  return solver;
}

TEST(NeuralStepGuard, AcceptsTheSolversOwnStepsAndRejectsBadProposals) {
  auto solver = tiny_gyre();
  const QgWindowStart start = qg_window_start(*solver);
  const QgStartState saved = qg_start_state(*solver);
  for (long s = 0; s < kTinyK; ++s) solver->advance();
  const std::vector<double> truth = solver->vorticity();
  solver->set_state(saved.psi, saved.omega);
  const double tau = kTinyK * kTinyDt;
  GuardTolerances t;
  t.residual = 0.05;
  t.energy_min = t.energy_max = start.energy;  // widened by t.bounds = 10 %
  t.enstrophy_min = t.enstrophy_max = start.enstrophy;
  const GuardVerdict own = check_proposal(*solver, start, truth, tau, t);
  EXPECT_TRUE(own.accepted) << own.failed << " residual " << own.residual;
  EXPECT_LT(own.residual, 0.05);

  solver->set_state(saved.psi, saved.omega);
  const GuardVerdict persistence = check_proposal(*solver, start, start.omega, tau, t);
  EXPECT_FALSE(persistence.accepted);
  EXPECT_EQ(persistence.failed, "residual");
  EXPECT_NEAR(persistence.residual, 1.0, 1e-12);  // ω₁ = ω₀: the miss is the whole tendency

  std::vector<double> tripled = truth;
  for (double& w : tripled) w *= 3;
  solver->set_state(saved.psi, saved.omega);
  const GuardVerdict blown = check_proposal(*solver, start, tripled, tau, t);
  EXPECT_FALSE(blown.accepted);
  EXPECT_EQ(blown.failed, "bounds");
  EXPECT_GT(blown.enstrophy, 8 * start.enstrophy);

  // The POD projection error: 0 for a snapshot the basis spans, large for a random field.
  solver->set_state(saved.psi, saved.omega);
  torch::Tensor snapshots = torch::empty({3, solver->owned_nodes()}, torch::kFloat64);
  for (int n = 0; n < 3; ++n) {
    const auto omega = solver->vorticity();
    snapshots[n].copy_(torch::tensor(omega, torch::kFloat64));
    for (long s = 0; s < kTinyK; ++s) solver->advance();
  }
  NeuralStepOptions options;
  options.modes = 2;
  options.epochs = 0;
  NeuralStepModel model(snapshots, options);
  EXPECT_LT(model.project(saved.omega).error, 1e-10);
  // Far from the snapshots: their mean plus a large pseudo-random field.
  std::vector<double> noise(saved.omega.size());
  const torch::Tensor mean = model.basis().mean;
  for (std::size_t n = 0; n < noise.size(); ++n)
    noise[n] = mean[long(n)].item<double>() + 1e6 * std::sin(12.9898 * double(n * n + 1));
  EXPECT_GT(model.project(noise).error, 0.9);
}

TEST(NeuralStepOnline, TrainingOnFallbacksRaisesTheAcceptedFraction) {
  // The linear problem (no advection) from a random start: a state and a change of few POD
  // modes, where a network in POD space can do the k steps.
  auto solver =
      make_qg({"solver.cells=[16, 32]", "solver.dt=2e-4", "solver.end_time=100",
               "solver.initial=random", "solver.amplitude=100", "solver.advection=false"});
  for (int s = 0; s < 100; ++s) solver->advance();
  const long training_windows = 200;
  torch::Tensor snapshots =
      torch::empty({training_windows + 1, solver->owned_nodes()}, torch::kFloat64);
  for (long n = 0; n <= training_windows; ++n) {
    if (n > 0)
      for (long s = 0; s < kTinyK; ++s) solver->advance();
    snapshots[n].copy_(torch::tensor(solver->vorticity(), torch::kFloat64));
  }
  NeuralStepOptions options;
  options.modes = 16;
  options.change_modes = 16;
  options.hidden = {32};
  options.epochs = 0;  // untrained: the mean change, which the guard rejects
  options.updates = 20;
  options.learning_rate = 1e-2;
  options.batch = 32;
  options.seed = 1;
  NeuralStepModel model(snapshots, options);
  NeuralStepWindows w;
  w.k = kTinyK;
  w.dt = kTinyDt;
  w.windows = 100;
  w.blocks = 4;
  w.sample_every = 50;
  GuardTolerances t;
  t.residual = 0.05;
  t.projection = 1;
  const QgStartState start = qg_start_state(*solver);
  const GuardedRecord frozen = run_guarded(*solver, model, start, w, t, false);
  const GuardedRecord online = run_guarded(*solver, model, start, w, t, true);
  EXPECT_EQ(frozen.accepted, 0);
  const auto& blocks = online.accepted_per_block;
  EXPECT_GT(blocks[1], blocks[0]) << blocks[0] << " " << blocks[1] << " " << blocks[2] << " "
                                  << blocks[3];
  EXPECT_GE(online.accepted, w.windows / 5);
  // The same seeds give the same run.
  const GuardedRecord again = run_guarded(*solver, model, start, w, t, true);
  EXPECT_EQ(again.accepted, online.accepted);
}

std::string neural_step_case() {
  return (testing::source_dir() / "cases/qg/neural_step.yaml").string();
}

std::string tiny_overrides() {
  return " --set solver.cells=[16,32] --set solver.dt=2e-4 --set solver.end_time=0.3"
         " --set coupler.start_time=0.1 --set coupler.training_time=0.1 --set coupler.steps=5"
         " --set coupler.modes=8 --set coupler.epochs=5 --set coupler.tolerances=[0.1,0.5]"
         " --log-level warn";
}

TEST(NeuralStepCommand, WritesTheCurve) {
  const auto dir = testing::scratch_dir() / "neural_step";
  std::string out;
  ASSERT_EQ(testing::run_surrox(
                "run " + neural_step_case() + " -o " + dir.string() + tiny_overrides(), &out),
            0)
      << out;
  std::ifstream summary(dir / "summary.json");
  const auto j = nlohmann::json::parse(summary);
  const auto& rows = j["results"]["cases"][0]["rows"];
  ASSERT_EQ(rows.size(), 6u);  // solver, perturbed, 2 frozen, 2 online
  EXPECT_EQ(rows[0]["run"], "solver");
  EXPECT_NEAR(rows[0]["energy_error"].get<double>(), 0.0, 1e-15);
  EXPECT_LT(std::abs(rows[1]["energy_error"].get<double>()), 1e-3);  // 1e-8 perturbation
  for (std::size_t r = 2; r < rows.size(); ++r) {
    const double a = rows[r]["accepted_fraction"].get<double>();
    EXPECT_GE(a, 0.0);
    EXPECT_LE(a, 1.0);
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "curve.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "energy.csv"));
}

TEST(NeuralStepCommand, BadInputExitsTwo) {
  const auto dir = testing::scratch_dir() / "neural_step_bad";
  for (const char* bad :
       {" --set coupler.steps=0", " --set coupler.unknown_key=1", " --set solver.dt=0",
        " --set coupler.training_time=0.0001", " --set coupler.tolerances=[]"}) {
    std::string out;
    EXPECT_EQ(
        testing::run_surrox(
            "run " + neural_step_case() + " -o " + dir.string() + tiny_overrides() + bad, &out),
        2)
        << bad << "\n"
        << out;
  }
}

}  // namespace
}  // namespace surrox::couplers

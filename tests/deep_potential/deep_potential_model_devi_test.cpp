// ctest-labels: unit
// ctest-libraries: surrox_cli
// ctest-pch: torch
// Model deviation with `pair: {type: deep, models: [...]}` (DeePMD-kit's definitions: standard
// deviations over the models dividing by their number, virial per atom): the formulas on numbers
// worked by hand; an ensemble of one model twice deviates by exactly zero; two different models
// give, on a 64-atom frame, the deviation computed by hand from each model's own prediction;
// model 0 alone drives the dynamics; DeePMD-kit's `relative V` deviation by hand; DeePMD-kit's
// model_devi.out layout; bad `pair` sections are InputErrors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "deep_potential_pair_support.hpp"
#include "md/md_restart_support.hpp"
#include "surrogates/deep_potential/model_deviation.hpp"

namespace surrox::couplers {
namespace {
using namespace dp_pair_test;
using namespace surrogates::deep_potential;
namespace fs = std::filesystem;

std::vector<std::vector<double>> read_devi_csv(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "step,max_devi_v,min_devi_v,avg_devi_v,max_devi_f,min_devi_f,avg_devi_f");
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ls(line);
    for (std::string cell; std::getline(ls, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

struct DeviRun {
  nlohmann::json results;
  std::vector<std::vector<double>> rows;
  std::unique_ptr<md::MdSolver> solver;
};

DeviRun run_devi(const std::string& pair, long steps, const fs::path& out) {
  DeviRun r;
  r.solver = md::test::make_solver(pair_test_case(pair, steps));
  while (!r.solver->finished()) r.solver->advance();
  fs::create_directories(out);
  r.solver->finalize(out, r.results);
  if (fs::exists(out / "model_devi.csv")) r.rows = read_devi_csv(out / "model_devi.csv");
  return r;
}

TEST(DeepPotentialModelDevi, FormulasByHand) {
  // Three models, forces (1, 0, 0), (0, 0, 0), (−1, 0, 0): mean 0, ε = sqrt((1 + 0 + 1)/3).
  EXPECT_DOUBLE_EQ(force_deviation({1, 0, 0, 0, 0, 0, -1, 0, 0}, 3), std::sqrt(2.0 / 3.0));
  // Two models, virials 2·I and 0 on 4 atoms: ε = 0.25 on the diagonal, 0 elsewhere.
  std::vector<double> v(18, 0.0);
  v[0] = v[4] = v[8] = 2.0;
  const ModelDeviRow row = virial_deviation(7, v, 2, 4);
  EXPECT_EQ(row.step, 7);
  EXPECT_DOUBLE_EQ(row.max_devi_v, 0.25);
  EXPECT_DOUBLE_EQ(row.min_devi_v, 0.0);
  EXPECT_DOUBLE_EQ(row.avg_devi_v, std::sqrt(3 * 0.0625 / 9));  // root mean square
}

TEST(DeepPotentialModelDevi, DeepmdLayout) {
  const fs::path dir = surrox::testing::scratch_dir();
  ModelDeviRow r;
  r.step = 100;
  r.max_devi_v = 0.0123456789;
  r.avg_devi_f = 2.5;
  write_model_devi(dir, {r});
  std::ifstream in(dir / "model_devi.out");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header,
            "#       step         max_devi_v         min_devi_v         avg_devi_v         "
            "max_devi_f         min_devi_f         avg_devi_f");
  // DeePMD-kit's columns (12, then 19 each), 10 decimals where DeePMD-kit writes 6.
  EXPECT_EQ(row,
            "         100   1.2345678900e-02   0.0000000000e+00   0.0000000000e+00   "
            "0.0000000000e+00   0.0000000000e+00   2.5000000000e+00");
  EXPECT_EQ(read_model_devi_out(dir / "model_devi.out")[0].max_devi_v, 0.0123456789);
}

TEST(DeepPotentialModelDevi, IdenticalModelsDeviateByZero) {
  const fs::path dir = surrox::testing::scratch_dir();
  const std::string a = (dir / "a.pt").string();
  write_pair_test_model(a, 1);
  const DeviRun r = run_devi("models: ['" + a + "', '" + a + "'], out_freq: 5", 10, dir / "out");
  ASSERT_EQ(r.rows.size(), 3u);  // steps 0, 5, 10
  for (std::size_t k = 0; k < r.rows.size(); ++k) {
    EXPECT_EQ(r.rows[k][0], 5.0 * k);
    for (std::size_t c = 1; c < 7; ++c) EXPECT_EQ(r.rows[k][c], 0.0) << k << " " << c;
  }
  EXPECT_EQ(r.results["model_devi"]["rows"], 3);
  EXPECT_TRUE(fs::exists(dir / "out/model_devi.out"));
}

TEST(DeepPotentialModelDevi, TwoModelsMatchTheHandComputation) {
  const fs::path dir = surrox::testing::scratch_dir();
  const std::string a = (dir / "a.pt").string(), b = (dir / "b.pt").string();
  write_pair_test_model(a, 1);
  write_pair_test_model(b, 2);
  const DeviRun r = run_devi("models: ['" + a + "', '" + b + "'], out_freq: 10", 20, dir / "two");
  ASSERT_EQ(r.rows.size(), 3u);
  // Model 0 drives: the thermo equals the one-model run's, bit for bit.
  const DeviRun alone = run_devi("model: '" + a + "'", 20, dir / "one");
  EXPECT_EQ(r.results["thermo"], alone.results["thermo"]);
  EXPECT_FALSE(fs::exists(dir / "one/model_devi.csv"));

  // By hand at the last step (20): each model's forces and virial on the final frame.
  const md::AtomData atoms = r.solver->gather();
  const long n = atoms.natoms();
  std::vector<double> coord,
      box = {atoms.box.length(0), 0, 0, 0, atoms.box.length(1), 0, 0, 0, atoms.box.length(2)};
  for (long i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) coord.push_back(atoms.x[i][d]);
  const std::vector<int> types(n, 0);
  const auto batch =
      dp::make_batch({dp::build_environment(coord.data(), box.data(), types, 4.0, {28})}, types, 1);
  auto ma = dp::load_model(a), mb = dp::load_model(b);
  const dp::Prediction pa = dp::predict(ma, batch), pb = dp::predict(mb, batch);
  // Two models: ε = |X_a − X_b| / 2 (dividing by the number of models, not by it minus one).
  const torch::Tensor ef = (pa.force[0] - pb.force[0]).norm(2, 1) / 2;
  const torch::Tensor ev = (pa.virial[0] - pb.virial[0]).abs() / 2 / static_cast<double>(n);
  const double expected[6] = {
      ev.max().item<double>(), ev.min().item<double>(), ev.pow(2).mean().sqrt().item<double>(),
      ef.max().item<double>(), ef.min().item<double>(), ef.mean().item<double>()};
  const auto& row = r.rows.back();
  EXPECT_EQ(row[0], 20.0);
  for (int c = 0; c < 6; ++c) {
    const double scale = c < 3 ? expected[0] : expected[3];
    EXPECT_NEAR(row[c + 1], expected[c], 1e-9 * scale) << c;
  }
  EXPECT_GT(expected[3], 1e-3);
  std::printf("two models, 64 atoms, step 20: max_devi_f %.6g (by hand %.6g), max_devi_v %.6g\n",
              row[4], expected[3], row[1]);

  // DeePMD-kit's `relative V`: ε_F,i / (‖⟨F_i⟩‖ + V), V = 0.5 eV/Å; the virial columns and the
  // dynamics stay as they were.
  const DeviRun relative = run_devi(
      "models: ['" + a + "', '" + b + "'], out_freq: 10, relative: 0.5", 20, dir / "relative");
  EXPECT_EQ(relative.results["thermo"], r.results["thermo"]);
  const torch::Tensor mean_force = ((pa.force[0] + pb.force[0]) / 2).norm(2, 1);
  const torch::Tensor er = ef / (mean_force + 0.5);
  const auto& rel = relative.rows.back();
  EXPECT_NEAR(rel[4], er.max().item<double>(), 1e-9 * er.max().item<double>());
  EXPECT_NEAR(rel[5], er.min().item<double>(), 1e-9 * er.max().item<double>());
  EXPECT_NEAR(rel[6], er.mean().item<double>(), 1e-9 * er.max().item<double>());
  for (int c = 1; c <= 3; ++c) EXPECT_EQ(rel[c], row[c]) << c;
  EXPECT_GT(std::fabs(rel[4] - row[4]), 1e-2 * row[4]);  // it is another column
}

TEST(DeepPotentialModelDevi, ARestartContinuesTheDeviationRecord) {
  // Restarted between two rows and on one, the run writes the straight run's model_devi.out
  // and model_devi.csv (the rows so far travel in the checkpoint), and the same atoms.
  const auto dir = surrox::testing::scratch_dir();
  const std::string a = (dir / "a.pt").string(), b = (dir / "b.pt").string();
  write_pair_test_model(a, 1);
  write_pair_test_model(b, 2);
  const std::string yaml = pair_test_case("models: ['" + a + "', '" + b + "'], out_freq: 5", 20);
  for (long step : {7L, 10L}) {
    const md::test::RestartDifference d =
        md::test::restart_difference(yaml, step, dir / ("at_" + std::to_string(step)));
    EXPECT_TRUE(d.none()) << "restarted at step " << step << ": " << d.describe();
  }
}

TEST(DeepPotentialModelDevi, BadPairSectionsAreInputErrors) {
  const fs::path dir = surrox::testing::scratch_dir();
  const std::string a = (dir / "a.pt").string();
  write_pair_test_model(a, 1);
  auto message = [](const std::string& pair) {
    try {
      md::test::make_solver(pair_test_case(pair, 1));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  EXPECT_NE(message("models: ['" + a + "']").find("at least two models"), std::string::npos);
  EXPECT_NE(message("model: '" + a + "', models: ['" + a + "', '" + a + "']").find("either"),
            std::string::npos);
  EXPECT_NE(message("out_freq: 5").find("either"), std::string::npos);
  EXPECT_NE(message("models: ['" + a + "', '" + (dir / "none.pt").string() + "']")
                .find("no such model file"),
            std::string::npos);
  EXPECT_NE(message("models: ['" + a + "', '" + a + "'], out_freq: 0").find("out_freq"),
            std::string::npos);
  EXPECT_NE(message("model: '" + a + "', relative: 1").find("needs `models`"), std::string::npos);
  EXPECT_NE(message("models: ['" + a + "', '" + a + "'], relative: -1").find("relative"),
            std::string::npos);
  EXPECT_EQ(message("models: ['" + a + "', '" + a + "']"), "no InputError");
}

}  // namespace
}  // namespace surrox::couplers

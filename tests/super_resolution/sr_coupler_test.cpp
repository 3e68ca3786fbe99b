// ctest-labels: regression
// ctest-libraries: surrox_couplers
// ctest-pch: torch
// The super_resolution coupler on a 64 × 16 Rayleigh–Bénard case with an untrained tiny
// MeshfreeFlowNet (factors 2 in t, 4 in z and x): trilinear upsampling of a coarse series that is
// linear in t, z and x comes back exactly on the fine grid (the coarse cell centres, frames and
// the wall extrapolation in the right places); `surrox run` writes the super-resolved series
// in the fine run's shape (VTK and an HDF5 file the training reader takes), the comparison
// files, and fine-run statistics that reproduce the solver's own Nusselt numbers at the same
// frames; bad input exits 2.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "couplers/super_resolution/super_resolution_inference.hpp"
#include "couplers/super_resolution/super_resolution_statistics.hpp"
#include "support/test_paths.hpp"
#include "training/super_resolution/super_resolution_data.hpp"
#include "training/super_resolution/super_resolution_model.hpp"

namespace fs = std::filesystem;
namespace srcp = surrox::training::super_resolution;
using surrox::testing::run_surrox;
using surrox::testing::scratch_dir;

namespace {

// An untrained model for a 64 × 16 grid on [0, 4] × [0, 1] with frames every 0.25.
srcp::SuperResolutionModel tiny_coupler_model() {
  torch::manual_seed(3);
  srcp::SuperResolutionModel m;
  m.options.grid = {2, 4, 4};
  m.options.latent = 4;
  m.options.unet_filters = 4;
  m.options.imnet_filters = 2;
  m.network = surrox::surrogates::super_resolution::MeshfreeFlowNet(m.options);
  m.network->eval();
  m.mean = {0, 0, 0, 0};
  m.std = {0.01, 0.1, 0.05, 0.05};
  m.downsampling = {2, 4, 4, true};
  m.spacing = {0.25, 1.0 / 16, 4.0 / 64};
  m.rayleigh = 1e5;
  m.prandtl = 1;
  m.gamma = 0.0125;
  m.residual_points = 8;
  return m;
}

// The same model with other channel names in its metadata.
void save_with_channels(const srcp::SuperResolutionModel& m, const fs::path& path,
                        const nlohmann::json& channels) {
  torch::serialize::OutputArchive archive, weights;
  m.network->save(weights);
  archive.write("network", weights);
  nlohmann::json metadata = m.metadata();
  metadata["channels"] = channels;
  archive.write("metadata", c10::IValue(metadata.dump()));
  archive.save_to(path.string());
}

fs::path coupler_case(const fs::path& dir, const fs::path& model) {
  const fs::path path = dir / "coupler.yaml";
  std::ofstream(path) << "coupler: {type: super_resolution, model: " << model.string()
                      << "}\n"
                         "runtime: {threads: 1}\n"
                         "solver:\n"
                         "  type: rayleigh_benard\n"
                         "  rayleigh: 1.0e5\n"
                         "  length: [4.0, 1.0]\n"
                         "  cells: [64, 16]\n"
                         "  stretching: 0\n"
                         "  end_time: 1.0\n"
                         "  average_from: 0\n"
                         "  amplitude: 0.05\n"
                         "  seed: 42\n";
  return path;
}

std::string coupler_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(SuperResolutionCoupler, TrilinearUpsamplingOfALinearSeriesIsExactOnTheFineGrid) {
  srcp::SuperResolutionModel m = tiny_coupler_model();
  // Coarse: 3 frames (t = 0, 0.5, 1), 4 × 16 cells of 0.25 on [0, 1] × [0, 4].
  const long tc = 3, zc = 4, xc = 16;
  const auto o = torch::TensorOptions().dtype(torch::kFloat64);
  const auto coarse_axes =
      torch::meshgrid({torch::arange(tc, o) * 0.5, (torch::arange(zc, o) + 0.5) * 0.25,
                       (torch::arange(xc, o) + 0.5) * 0.25},
                      "ij");
  const auto field = [](const torch::Tensor& t, const torch::Tensor& z, const torch::Tensor& x) {
    return 0.3 + 0.7 * t - 1.1 * z + 0.2 * x;
  };
  const torch::Tensor coarse =
      field(coarse_axes[0], coarse_axes[1], coarse_axes[2]).unsqueeze(0).repeat({4, 1, 1, 1});
  const surrox::couplers::SuperResolved out = surrox::couplers::super_resolve(m, coarse, false);
  ASSERT_EQ(out.model.sizes().vec(), (std::vector<long>{4, 5, 16, 64}));
  ASSERT_EQ(out.trilinear.sizes().vec(), (std::vector<long>{4, 5, 16, 64}));
  EXPECT_TRUE(torch::isfinite(out.model).all().item<bool>());  // every fine point was queried
  EXPECT_TRUE(torch::isfinite(out.trilinear).all().item<bool>());
  const auto fine_axes =
      torch::meshgrid({torch::arange(5, o) * 0.25, (torch::arange(16, o) + 0.5) / 16,
                       (torch::arange(64, o) + 0.5) / 16},
                      "ij");
  const torch::Tensor exact = field(fine_axes[0], fine_axes[1], fine_axes[2]);
  // x is periodic (the padding wraps): linear in x only away from the first and last 4 columns.
  using torch::indexing::Slice;
  const torch::Tensor error =
      (out.trilinear[1] - exact).index({Slice(), Slice(), Slice(4, 60)}).abs().max();
  EXPECT_LT(error.item<double>(), 2e-6);  // float32 interpolation
  EXPECT_GT(out.points, 0);
  EXPECT_EQ(out.points, 5 * 16 * 64);  // each fine point once
  // With the wall closure the two rows below the first coarse centre (z = 1/8) run linearly
  // from the wall's value to the value there: b from ½, u and w from 0.
  const auto closed = surrox::couplers::super_resolve(m, coarse, true);
  const torch::Tensor at_centre =
      field(fine_axes[0], torch::full_like(fine_axes[1], 0.125), fine_axes[2])
          .select(1, 0);  // [T, X]
  const torch::Tensor b0 = closed.trilinear[1].select(1, 0), u1 = closed.trilinear[2].select(1, 1);
  const auto inner = [](const torch::Tensor& tx) { return tx.index({Slice(), Slice(4, 60)}); };
  EXPECT_LT(inner(b0 - (0.5 + 0.25 * (at_centre - 0.5))).abs().max().item<double>(), 2e-6);
  EXPECT_LT(inner(u1 - 0.75 * at_centre).abs().max().item<double>(), 2e-6);
  EXPECT_LT(
      (closed.trilinear[1].select(1, 5) - out.trilinear[1].select(1, 5)).abs().max().item<double>(),
      1e-12);  // rows inside the tiles unchanged
}

TEST(SuperResolutionCoupler, StatisticsOfAConductionStateAreExact) {
  // b = ½ − z, no flow: every Nusselt number is 1, the energy and spectra vanish.
  const long nz = 8, nx = 16;
  const auto o = torch::TensorOptions().dtype(torch::kFloat64);
  torch::Tensor fields = torch::zeros({4, 2, nz, nx}, o);
  fields[1] =
      (0.5 - (torch::arange(nz, o) + 0.5) / double(nz)).view({1, nz, 1}).expand({2, nz, nx});
  const auto s = surrox::couplers::rb_flow_statistics(
      fields, surrox::couplers::window_weights({0.0, 1.0}, 0), 2.0, 1e6, 1);
  for (const char* name : {"nu_bottom", "nu_top", "nu_volume", "nu_thermal", "nu_kinetic"})
    EXPECT_NEAR(s.figures.at(name), 1.0, 1e-12) << name;
  EXPECT_EQ(s.figures.at("kinetic_energy"), 0);
  EXPECT_NEAR(s.figures.at("thermal_dissipation"), 1e-3, 1e-15);
  ASSERT_EQ(s.profile.size(), std::size_t(nz));
  EXPECT_NEAR(s.profile[0], 0.5 - 0.5 / nz, 1e-15);
  ASSERT_EQ(s.kinetic_spectrum.size(), std::size_t(nx / 2 + 1));
}

TEST(SuperResolutionCoupler, RunWritesTheSeriesAndFineStatisticsMatchTheSolver) {
  const fs::path dir = scratch_dir();
  const srcp::SuperResolutionModel m = tiny_coupler_model();
  m.save(dir / "model.pt");
  const fs::path out = dir / "out";
  std::string log;
  ASSERT_EQ(run_surrox("run " + coupler_case(dir, dir / "model.pt").string() + " -o " +
                           out.string() + " --threads 1 --log-level warn",
                       &log),
            0)
      << log;
  const auto summary = nlohmann::json::parse(coupler_text(out / "summary.json"));
  const auto& r = summary.at("results").at("cases").at(0);
  EXPECT_EQ(r.at("super_resolved_shape").get<std::vector<long>>(),
            (std::vector<long>{4, 5, 16, 64}));
  EXPECT_EQ(r.at("grids").at("coarse").get<std::vector<long>>(), (std::vector<long>{16, 4}));
  for (const char* file : {"super_resolved/fields.pvd", "super_resolved/fields.h5",
                           "super_resolved/fields/fields_000004.vti", "coarse/fields.h5",
                           "fine/fields.h5", "comparison.md", "comparison.csv", "profile.csv",
                           "kinetic_spectrum.csv", "buoyancy_spectrum.csv"})
    EXPECT_TRUE(fs::exists(out / file)) << file;
  // The super-resolved dataset is a Rayleigh–Bénard dataset of the fine run's shape.
  const srcp::RbRun fine = srcp::read_rb_run(out / "fine/fields.h5");
  const srcp::RbRun super = srcp::read_rb_run(out / "super_resolved/fields.h5");
  EXPECT_EQ(super.fields.sizes(), fine.fields.sizes());
  EXPECT_EQ(super.fields.sizes().vec(), (std::vector<long>{4, 5, 16, 64}));
  EXPECT_TRUE(torch::isfinite(super.fields).all().item<bool>());
  EXPECT_DOUBLE_EQ(super.frame_interval, 0.25);
  EXPECT_DOUBLE_EQ(super.dx, 4.0 / 64);
  // The statistics of the fine run reproduce the solver's wall and thermal Nusselt numbers at
  // the same frames (the same formulas on the same cells), and its time averages loosely.
  const auto& stats = r.at("statistics").at("fine");
  const auto& solver = r.at("fine_solver_at_frames");
  for (const char* name : {"nu_bottom", "nu_top", "nu_thermal"})
    EXPECT_NEAR(stats.at(name).get<double>(), solver.at(name).get<double>(),
                1e-9 * solver.at(name).get<double>())
        << name;
  EXPECT_NEAR(stats.at("nu_volume").get<double>(), solver.at("nu_volume").get<double>(), 0.05);
  EXPECT_NEAR(stats.at("nu_bottom").get<double>(),
              r.at("fine_solver_means").at("mean_nu_bottom").get<double>(), 0.05);
  EXPECT_GT(r.at("cost").at("fine_solve_s").get<double>(), 0);
  EXPECT_GT(r.at("cost").at("inference_s").get<double>(), 0);
  EXPECT_TRUE(r.at("errors").at("super_resolved").contains("nu_wall"));
  EXPECT_NE(coupler_text(out / "comparison.md").find("| nu_wall |"), std::string::npos);
  // Without a model: the trilinear baseline alone, on the section's factors.
  const fs::path baseline = dir / "baseline";
  ASSERT_EQ(run_surrox("run " + coupler_case(dir, dir / "model.pt").string() + " -o " +
                           baseline.string() +
                           " --threads 1 --log-level warn --set 'coupler.model=\"\"' --set "
                           "coupler.factors=[2,4,4]",
                       &log),
            0)
      << log;
  const auto b = nlohmann::json::parse(coupler_text(baseline / "summary.json"))
                     .at("results")
                     .at("cases")
                     .at(0);
  EXPECT_FALSE(b.at("statistics").contains("super_resolved"));
  for (const char* name :
       {"nu_wall", "nu_volume", "kinetic_energy"})  // other tiles, same interpolant
    EXPECT_NEAR(b.at("statistics").at("trilinear").at(name).get<double>(),
                r.at("statistics").at("trilinear").at(name).get<double>(),
                1e-5 * std::abs(r.at("statistics").at("trilinear").at(name).get<double>()))
        << name;
  EXPECT_FALSE(fs::exists(baseline / "super_resolved"));
}

TEST(SuperResolutionCoupler, BadInputExitsTwo) {
  const fs::path dir = scratch_dir();
  const srcp::SuperResolutionModel m = tiny_coupler_model();
  m.save(dir / "model.pt");
  const fs::path good = coupler_case(dir, dir / "model.pt");
  const auto exit_code = [&](const std::string& args, const std::string& expected) {
    std::string log;
    const int code = run_surrox(
        "run " + args + " -o " + (dir / "bad").string() + " --threads 1 --log-level warn", &log);
    EXPECT_NE(log.find(expected), std::string::npos) << log;
    return code;
  };
  // A model of another family.
  {
    torch::serialize::OutputArchive archive;
    archive.write("metadata", c10::IValue(nlohmann::json{{"family", "field"}}.dump()));
    archive.save_to((dir / "field.pt").string());
  }
  EXPECT_EQ(exit_code(good.string() + " --set coupler.model=" + (dir / "field.pt").string(),
                      "family 'field'"),
            2);
  // A model trained on other channels.
  save_with_channels(m, dir / "channels.pt", {"p", "b", "u", "v"});
  EXPECT_EQ(exit_code(good.string() + " --set coupler.model=" + (dir / "channels.pt").string(),
                      "channels"),
            2);
  // A grid the model's factor 4 does not divide (62 cells of the model's dx).
  EXPECT_EQ(exit_code(good.string() + " --set solver.length=[3.875,1] --set solver.cells=[62,16]",
                      "does not divide"),
            2);
  // A grid other than the model's.
  EXPECT_EQ(exit_code(good.string() + " --set solver.cells=[128,16]", "training grid"), 2);
  // A stretched grid and a run length that is no whole number of coarse frames.
  EXPECT_EQ(exit_code(good.string() + " --set solver.stretching=1", "uniform"), 2);
  EXPECT_EQ(exit_code(good.string() + " --set solver.end_time=0.75", "does not divide"), 2);
}

// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io_hdf5
// ctest-pch: torch
// Super-resolution data from a tiny Rayleigh–Bénard run written by `surrox run`: the run reads
// back as [4, T, Z, X], low-res grids are strided or block-averaged copies, crops and evaluation
// tiles place their query points where the high-res values are, and another solver's data, a
// stretched grid or a factor that does not divide the grid are refused.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "super_resolution/tiny_rb.hpp"
#include "support/test_paths.hpp"
#include "surrogates/super_resolution/local_implicit_grid.hpp"
#include "training/super_resolution/super_resolution_data.hpp"

namespace srd = surrox::training::super_resolution;
namespace fs = std::filesystem;
using surrox::testing::run_surrox;

using surrox::testing::tiny_rb_run;

TEST(SuperResolutionData, ReadsTheRunAsChannelsTimeZX) {
  const auto run = srd::read_rb_run(tiny_rb_run());
  EXPECT_EQ(run.fields.sizes(), (std::vector<long>{4, 9, 16, 64}));
  EXPECT_DOUBLE_EQ(run.frame_interval, 0.25);
  EXPECT_DOUBLE_EQ(run.dx, 4.0 / 64);
  EXPECT_DOUBLE_EQ(run.dz, 1.0 / 16);
  EXPECT_DOUBLE_EQ(run.rayleigh, 1e6);
  EXPECT_EQ(run.seed, 42);
  // Cell (k, i) of frame 5 of w is value k·nx + i of the file's frame.
  surrox::io::Hdf5DatasetReader reader(run.path);
  const auto w = reader.read("w", 5);
  EXPECT_FLOAT_EQ(run.fields[3][5][3][17].item<float>(), float(w(3 * 64 + 17, 0)));
  EXPECT_FLOAT_EQ(run.fields[1][0][15][0].item<float>(), float(reader.read("b", 0)(15 * 64, 0)));
  EXPECT_GT(run.fields[3].abs().max().item<float>(), 1e-3f);  // the flow moves
}

TEST(SuperResolutionData, DownsamplesByStridesOrBlockMeans) {
  const auto run = srd::read_rb_run(tiny_rb_run());
  const auto strided = srd::downsample(run, {2, 4, 4, false});
  EXPECT_EQ(strided.nodes.sizes(), (std::vector<long>{4, 5, 4, 16}));
  EXPECT_FLOAT_EQ(strided.nodes[1][2][3][5].item<float>(), run.fields[1][4][12][20].item<float>());
  const auto averaged = srd::downsample(run, {2, 4, 4, true});
  const float block = run.fields[2][6].slice(0, 8, 12).slice(1, 4, 8).mean().item<float>();
  EXPECT_NEAR(averaged.nodes[2][3][2][1].item<float>(), block, 1e-6);
  EXPECT_DOUBLE_EQ(averaged.origin[1], 1.5);
  try {
    srd::downsample(run, {3, 4, 4, false});
    ADD_FAILURE() << "a time factor of 3 does not divide 8 frame intervals";
  } catch (const surrox::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("does not divide the 8 frame intervals"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(srd::downsample(run, {2, 4, 5, false}), surrox::InputError);
}

TEST(SuperResolutionData, CropPointsOnLowResNodesAgreeWithTheCropsNodes) {
  const auto run = srd::read_rb_run(tiny_rb_run());
  for (bool average : {false, true}) {
    const auto grid = srd::downsample(run, {2, 4, 4, average});
    std::mt19937_64 engine(11);
    const std::array<long, 3> nodes = {2, 4, 4};
    const auto s = srd::sample_crops(run, grid, nodes, 6, 400, engine);
    EXPECT_EQ(s.lowres.sizes(), (std::vector<long>{6, 4, 2, 4, 4}));
    EXPECT_GE(s.points.min().item<float>(), 0.f);
    EXPECT_LE(s.points.max().item<float>(), 1.f);
    // Trilinear interpolation of the crop's nodes at the query points: exact where a point is
    // a node (strided grids), close elsewhere for this smooth early flow.
    const auto interpolated =
        surrox::surrogates::super_resolution::trilinear(s.lowres, s.points);  // [6, 400, 4]
    const auto scaled = s.points * torch::tensor({1.f, 3.f, 3.f});
    const auto on_node = ((scaled - scaled.round()).abs() < 1e-5).all(-1);
    if (!average) {
      ASSERT_GT(on_node.sum().item<long>(), 10);
      const auto error = (interpolated - s.values).abs().amax(-1).masked_select(on_node);
      EXPECT_LT(error.max().item<float>(), 1e-6);
    }
    const double scale = s.values.abs().max().item<double>();
    EXPECT_LT((interpolated - s.values).abs().max().item<double>(), 0.5 * scale);
  }
  // The same engine state gives the same crops.
  const auto grid = srd::downsample(run, {2, 4, 4, false});
  std::mt19937_64 a(5), b(5);
  EXPECT_TRUE(srd::sample_crops(run, grid, {2, 4, 4}, 3, 20, a)
                  .values.equal(srd::sample_crops(run, grid, {2, 4, 4}, 3, 20, b).values));
}

TEST(SuperResolutionData, TilesOwnEveryHighResPointOfTheHullOnce) {
  const auto run = srd::read_rb_run(tiny_rb_run());
  const auto grid = srd::downsample(run, {2, 4, 4, false});
  const std::array<long, 3> nodes = {2, 4, 8};
  std::array<srd::TileAxis, 3> axes;
  for (int d = 0; d < 3; ++d)
    axes[d] = srd::tile_axis(grid.nodes.size(d + 1), nodes[d], grid.origin[d], grid.step[d]);
  auto seen = torch::zeros({9, 16, 64}, torch::kInt);
  for (std::size_t i = 0; i < axes[0].start.size(); ++i)
    for (std::size_t j = 0; j < axes[1].start.size(); ++j)
      for (std::size_t k = 0; k < axes[2].start.size(); ++k) {
        const std::array<long, 3> tile = {long(i), long(j), long(k)};
        const auto [points, index] = srd::tile_points(axes, tile, grid, nodes);
        auto a = index.accessor<long, 2>();
        for (long p = 0; p < index.size(0); ++p) seen[a[p][0]][a[p][1]][a[p][2]] += 1;
        // Tile points on nodes reproduce the tile's low-res nodes.
        using torch::indexing::Slice;
        const auto crop = grid.nodes
                              .index({Slice(), Slice(axes[0].start[i], axes[0].start[i] + nodes[0]),
                                      Slice(axes[1].start[j], axes[1].start[j] + nodes[1]),
                                      Slice(axes[2].start[k], axes[2].start[k] + nodes[2])})
                              .unsqueeze(0);
        const auto values =
            surrox::surrogates::super_resolution::trilinear(crop, points.unsqueeze(0))[0];
        const auto truth =
            run.fields.index({Slice(), index.select(1, 0), index.select(1, 1), index.select(1, 2)})
                .t();
        const auto on_node = (index.select(1, 1) % 4 == 0) & (index.select(1, 2) % 4 == 0) &
                             (index.select(1, 0) % 2 == 0);
        EXPECT_LT((values - truth).abs().amax(1).masked_select(on_node).max().item<float>(), 1e-6);
      }
  // The hull of a strided grid: frames 0–8, rows 0–12, columns 0–60.
  using torch::indexing::Slice;
  EXPECT_TRUE((seen.index({Slice(), Slice(0, 13), Slice(0, 61)}) == 1).all().item<bool>());
  EXPECT_EQ(seen.sum().item<long>(), 9 * 13 * 61);
}

TEST(SuperResolutionData, ChannelStatisticsAreTheRunsMeansAndDeviations) {
  const auto run = srd::read_rb_run(tiny_rb_run());
  const auto [mean, std] = srd::channel_statistics({run});
  const auto flat = run.fields.reshape({4, -1}).to(torch::kFloat64);
  EXPECT_LT((mean - flat.mean(1)).abs().max().item<double>(), 1e-9);
  EXPECT_LT((std - flat.std(1, false)).abs().max().item<double>(), 1e-6);
}

TEST(SuperResolutionData, RefusesStretchedGridsAndOtherSolversData) {
  try {
    srd::read_rb_run(tiny_rb_run("--set solver.stretching=1"));
    ADD_FAILURE() << "a stretched grid was accepted";
  } catch (const surrox::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("stretched"), std::string::npos) << e.what();
  }
  const fs::path heat = surrox::testing::scratch_dir() / "heat";
  ASSERT_EQ(run_surrox("run " + (surrox::testing::source_dir() / "cases/demo/heat.yaml").string() +
                       " -o " + heat.string() +
                       " --log-level warn --set solver.end_time=0.001 --set output.vtk=false"),
            0);
  try {
    srd::read_rb_run(heat / "fields.h5");
    ADD_FAILURE() << "heat data was accepted";
  } catch (const surrox::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("solver 'heat'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(srd::read_rb_run(heat / "missing.h5"), surrox::InputError);
}

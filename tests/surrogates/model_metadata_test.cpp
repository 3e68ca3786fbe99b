// ctest-labels: unit
// ctest-libraries: surrox_surrogates
// ctest-pch: torch
// Model metadata: sample layouts and input kinds are types whose unknown names are errors listing
// the valid ones; input descriptions of every kind round-trip through JSON; metadata written
// before input descriptions existed (format_version 1, one "grid_cells" pair) still loads, as
// JSON and as a model file, with the grid as a structured_grid input.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <functional>

#include "core/error.hpp"
#include "core/schema_validator.hpp"
#include "support/test_paths.hpp"
#include "surrogates/networks.hpp"
#include "surrogates/surrogate.hpp"

namespace surrox::surrogates {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

nlohmann::json identity(const std::vector<std::string>& names) {
  return {{"names", names},
          {"mean", std::vector<double>(names.size(), 0.0)},
          {"scale", std::vector<double>(names.size(), 1.0)}};
}

// Metadata as format_version 1 wrote it.
nlohmann::json version_one(const std::string& layout) {
  return {{"format", "surrox-surrogate"},
          {"format_version", 1},
          {"network", "mlp"},
          {"network_yaml", "{hidden: [4], activation: tanh}"},
          {"layout", layout},
          {"grid_cells", {64, 32}},
          {"inputs", identity({"centroid_x", "centroid_y"})},
          {"outputs", identity({"pressure"})},
          {"surrox_version", "0.1.0"},
          {"training", {{"epochs", 3}}}};
}

TEST(GridSamples, NamesParseAndUnknownNamesListTheValidOnes) {
  EXPECT_EQ(parse_grid_samples("row_per_cell", "x"), GridSamples::kRowPerCell);
  EXPECT_EQ(parse_grid_samples("whole_grid", "x"), GridSamples::kWholeGrid);
  EXPECT_EQ(grid_samples_names().at(1), "whole_grid");
  const std::string why = error_of([] { parse_grid_samples("whole_grd", "model.pt: samples"); });
  EXPECT_NE(why.find("model.pt: samples: unknown grid sampling 'whole_grd'"), std::string::npos)
      << why;
  EXPECT_NE(why.find("did you mean 'whole_grid'"), std::string::npos) << why;
  EXPECT_NE(why.find("known: row_per_cell, whole_grid"), std::string::npos) << why;
  // Scattered points are always rows; a structured grid says how it is sampled.
  EXPECT_FALSE(takes_whole_grids({{"points", PointInputs{3}}}));
  EXPECT_FALSE(takes_whole_grids({grid_cells_input({8, 4})}));
  EXPECT_TRUE(takes_whole_grids({grid_cells_input({8, 4}, GridSamples::kWholeGrid)}));
}

TEST(InputDescription, EveryKindRoundTrips) {
  const std::vector<InputDescription> inputs = {
      {"queries", PointInputs{3}},
      grid_cells_input({256, 128}, GridSamples::kWholeGrid),
      {"coarse", SpaceTimeCropInputs{{4, 16, 16}}},
      {"environments", AtomicEnvironmentInputs{6.0, 120, {"O", "H"}}},
      {"coefficients", PodCoefficientInputs{8, 20}},
  };
  ASSERT_EQ(inputs.size(), input_kind_names().size());
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    EXPECT_EQ(inputs[k].kind(), input_kind_names()[k]);
    const nlohmann::json j = inputs[k].to_json();
    const InputDescription back = InputDescription::from_json(j, "test");
    EXPECT_EQ(back.name, inputs[k].name);
    EXPECT_EQ(back.domain.index(), k);
    EXPECT_EQ(back.to_json(), j);
  }
  const auto environments = InputDescription::from_json(inputs[3].to_json(), "test");
  EXPECT_EQ(std::get<AtomicEnvironmentInputs>(environments.domain).species,
            (std::vector<std::string>{"O", "H"}));
  EXPECT_EQ(find_input<PodCoefficientInputs>(inputs)->modes, 8);
  EXPECT_EQ(find_input<StructuredGridInputs>(inputs)->cells, (std::vector<long>{256, 128}));
  const std::string why = error_of([] {
    InputDescription::from_json({{"name", "x"}, {"kind", "structured_grids"}}, "m.pt");
  });
  EXPECT_NE(why.find("unknown input kind 'structured_grids'"), std::string::npos) << why;
  EXPECT_NE(why.find("known: points, structured_grid, space_time_crops, atomic_environments, "
                     "pod_coefficients"),
            std::string::npos)
      << why;
}

TEST(SurrogateMetadata, WritesVersionTwoAndReadsItBack) {
  SurrogateMetadata m = SurrogateMetadata::from_json(version_one("grid"), "m.pt");
  m.input_domains.push_back({"queries", PointInputs{2}});
  const nlohmann::json j = m.to_json();
  EXPECT_EQ(j.at("format_version"), 2);
  EXPECT_FALSE(j.contains("grid_cells"));
  // The version-1 "grid" layout became the grid's own "samples"; "layout" stays for older
  // readers.
  EXPECT_EQ(j.at("layout"), "grid");
  EXPECT_EQ(j.at("input_domains").at(0).at("samples"), "whole_grid");
  const SurrogateMetadata back = SurrogateMetadata::from_json(j, "m.pt");
  EXPECT_TRUE(takes_whole_grids(back.input_domains));
  EXPECT_EQ(back.to_json(), j);
}

// Version 2 before a grid said how it is sampled: the model's "layout" says it.
TEST(SurrogateMetadata, VersionTwoWithoutSamplesTakesTheLayout) {
  nlohmann::json j = SurrogateMetadata::from_json(version_one("grid"), "m.pt").to_json();
  j.at("input_domains").at(0).erase("samples");
  EXPECT_TRUE(takes_whole_grids(SurrogateMetadata::from_json(j, "m.pt").input_domains));
  j["layout"] = "points";
  EXPECT_FALSE(takes_whole_grids(SurrogateMetadata::from_json(j, "m.pt").input_domains));
  // A grid that says it wins over the older key.
  j.at("input_domains").at(0)["samples"] = "whole_grid";
  EXPECT_TRUE(takes_whole_grids(SurrogateMetadata::from_json(j, "m.pt").input_domains));
}

TEST(SurrogateMetadata, VersionOneGridCellsBecomeAStructuredGridInput) {
  const SurrogateMetadata m = SurrogateMetadata::from_json(version_one("points"), "m.pt");
  EXPECT_FALSE(takes_whole_grids(m.input_domains));
  ASSERT_EQ(m.input_domains.size(), 1u);
  EXPECT_EQ(m.input_domains[0].name, "cells");
  EXPECT_EQ(m.input_domains[0].kind(), "structured_grid");
  EXPECT_EQ(std::get<StructuredGridInputs>(m.input_domains[0].domain).cells,
            (std::vector<long>{64, 32}));
  EXPECT_EQ(m.training.at("epochs"), 3);

  const std::string layout =
      error_of([] { SurrogateMetadata::from_json(version_one("cells"), "m.pt"); });
  EXPECT_NE(layout.find("m.pt: layout: unknown sample layout 'cells'"), std::string::npos)
      << layout;
  EXPECT_NE(layout.find("known: points, grid"), std::string::npos) << layout;
  nlohmann::json newer = version_one("points");
  newer["format_version"] = 3;
  const std::string version = error_of([&] { SurrogateMetadata::from_json(newer, "m.pt"); });
  EXPECT_NE(version.find("newer surrox (format_version 3)"), std::string::npos) << version;
}

// A model file exactly as format_version 1 saved it: the weights and the metadata JSON in one
// torch archive.
TEST(SurrogateMetadata, VersionOneModelFilesLoadAndPredictTheSame) {
  const auto dir = surrox::testing::scratch_dir();
  YAML::Node node = YAML::Load("{hidden: [4], activation: tanh}");
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = "net.yaml";
  CaseNode section(node, origin);
  validate_case(networks().schema_of("mlp"), section);
  torch::manual_seed(5);
  std::shared_ptr<Network> net(networks().at("mlp").make(section, 2, 1));
  torch::serialize::OutputArchive archive, weights;
  net->save(weights);
  archive.write("network", weights);
  archive.write("metadata", c10::IValue(version_one("points").dump()));
  archive.save_to((dir / "v1.pt").string());

  const auto model = Surrogate::load(dir / "v1.pt");
  EXPECT_FALSE(takes_whole_grids(model->metadata().input_domains));
  EXPECT_EQ(find_input<StructuredGridInputs>(model->metadata().input_domains)->cells,
            (std::vector<long>{64, 32}));
  const auto x = torch::rand({5, 2});
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(model->predict(x), net->forward(x)));
  EXPECT_NO_THROW(
      model->check_fits({grid_cells_input({64, 32})}, {"centroid_x", "centroid_y"}, {"pressure"}));
  const std::string why = error_of([&] {
    model->check_fits({}, {"centroid_x", "centroid_y"}, {"pressure"});
  });
  EXPECT_NE(
      why.find("the model's input 'cells' is structured_grid; this case provides no such input"),
      std::string::npos)
      << why;
}

}  // namespace
}  // namespace surrox::surrogates

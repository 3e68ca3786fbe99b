#pragma once
// A `training` section with the Trainer's defaults and some overrides, for the training tests.
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "io/case_file.hpp"
#include "training/trainer.hpp"

namespace surrox::training {

inline CaseNode training_section(const std::vector<std::string>& overrides = {}) {
  Schema root("test");
  root.section("training", Trainer::schema(), "training");
  static std::vector<io::CaseFile> keep;  // CaseNodes share the loaded tree
  keep.push_back(io::load_case_text("training: {}\n", "train.yaml", root, overrides));
  return keep.back().root.section("training");
}

}  // namespace surrox::training

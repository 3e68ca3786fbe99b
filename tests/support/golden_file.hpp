#pragma once
// Golden files that carry their own tolerance, as LAMMPS's unittest/force-styles YAML files do:
// tests/golden/NAME.yaml holds `epsilon` (relative; 0: bit for bit), a `source` line saying what
// computed it, and named values: numbers and lists of numbers (17 significant digits, which give
// a double back exactly) and 64-bit fingerprints of whole arrays (hex strings, compared only
// when epsilon is 0: a fingerprint has no tolerance; the arrays' norms beside it do).
//
// To regenerate after an intended change of the numerics, run the test with
// SURROX_REGENERATE_GOLDEN=1 in the environment: it writes what it computed (rank 0) over the
// files, keeping each file's epsilon, and fails so that the run is never mistaken for a check;
// review the diff and commit the files.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/test_paths.hpp"

namespace surrox::testing {

class GoldenFile {
 public:
  // `name`: the file under tests/golden without ".yaml", e.g. "airfoil/euler_one_rank".
  // `source`: what the values are of (written into a regenerated file).
  GoldenFile(const std::string& name, std::string source)
      : path_(source_dir() / "tests/golden" / (name + ".yaml")), source_(std::move(source)) {
    regenerating_ = std::getenv("SURROX_REGENERATE_GOLDEN") != nullptr;
    if (std::filesystem::exists(path_)) {
      file_ = YAML::LoadFile(path_.string());
      epsilon_ = file_["epsilon"].as<double>(0.0);
    } else if (!regenerating_) {
      ADD_FAILURE() << path_ << " is missing: run with SURROX_REGENERATE_GOLDEN=1 to write it";
    }
  }
  GoldenFile(const GoldenFile&) = delete;
  GoldenFile& operator=(const GoldenFile&) = delete;

  ~GoldenFile() {
    if (!regenerating_) return;
    if (runtime().rank() == 0) {
      YAML::Emitter out;
      out << YAML::BeginMap << YAML::Key << "source" << YAML::Value << source_ << YAML::Key
          << "epsilon" << YAML::Value << epsilon_;
      for (const auto& [key, text] : written_) out << YAML::Key << key << YAML::Value << text;
      out << YAML::EndMap;
      std::filesystem::create_directories(path_.parent_path());
      std::ofstream(path_) << "# Golden values (tests/support/golden_file.hpp); regenerate with "
                              "SURROX_REGENERATE_GOLDEN=1.\n"
                           << out.c_str() << "\n";
    }
    ADD_FAILURE() << "SURROX_REGENERATE_GOLDEN is set: wrote " << path_ << " instead of checking";
  }

  void check(const std::string& key, double value) { check(key, std::vector<double>{value}); }

  void check(const std::string& key, const std::vector<double>& values) {
    if (regenerating_) {
      YAML::Node list(YAML::NodeType::Sequence);
      for (double v : values) list.push_back(fmt::format("{:.17g}", v));
      written_.emplace_back(key, list);
      return;
    }
    const YAML::Node node = file_[key];
    if (!node) {
      ADD_FAILURE() << path_ << " has no `" << key << "`";
      return;
    }
    ASSERT_EQ(node.size(), values.size()) << path_ << ": " << key;
    for (std::size_t n = 0; n < values.size(); ++n) {
      const double pinned = node[n].as<double>();
      if (epsilon_ == 0) {
        EXPECT_EQ(bits(values[n]), bits(pinned))
            << path_ << ": " << key << "[" << n << "] = " << fmt::format("{:.17g}", values[n])
            << ", golden " << fmt::format("{:.17g}", pinned);
      } else {
        EXPECT_LE(std::fabs(values[n] - pinned), epsilon_ * std::max(std::fabs(pinned), 1e-300))
            << path_ << ": " << key << "[" << n << "]";
      }
    }
  }

  void check_fingerprint(const std::string& key, std::uint64_t value) {
    const std::string text = fmt::format("0x{:016x}", value);
    if (regenerating_) {
      written_.emplace_back(key, YAML::Node(text));
      return;
    }
    if (epsilon_ != 0) return;  // see the header: the norms carry the tolerance
    const YAML::Node node = file_[key];
    if (!node) {
      ADD_FAILURE() << path_ << " has no `" << key << "`";
      return;
    }
    EXPECT_EQ(text, node.as<std::string>()) << path_ << ": " << key;
  }

 private:
  static std::uint64_t bits(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }

  std::filesystem::path path_;
  std::string source_;
  YAML::Node file_;
  double epsilon_ = 0;
  bool regenerating_ = false;
  std::vector<std::pair<std::string, YAML::Node>> written_;
};

}  // namespace surrox::testing

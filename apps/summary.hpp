#pragma once
// OUTDIR/summary.json: what every command leaves behind for scripts and users. Its keys are
// documented in docs/cli.md.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/runtime.hpp"

namespace surrox::apps {

class SummaryWriter {
 public:
  SummaryWriter(std::string command, std::vector<std::string> arguments)
      : command_(std::move(command)), arguments_(std::move(arguments)) {}

  // Writes OUTDIR/summary.json atomically (rank 0 only).
  void write(const std::filesystem::path& output_dir, const Runtime& runtime,
             const nlohmann::json& resolved_case, const nlohmann::json& results,
             double wall_seconds) const;

 private:
  std::string command_;
  std::vector<std::string> arguments_;
};

}  // namespace surrox::apps

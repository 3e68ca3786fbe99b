#pragma once
// `surrox train` for the super_resolution family: MeshfreeFlowNet on Rayleigh–Bénard runs, and
// `surrox evaluate MODEL DATA` for its models (NMAE, relative L2 and R² per channel of the model
// and of trilinear interpolation of the same low-res input, and the RMS PDE residual of both).
//
// Training goes through training::Trainer (optimizer, schedule, checkpoints, exact resume,
// metrics.csv, data parallel): a sample row packs a low-res crop and its P query points, the
// network wrapper returns the prediction at the P points and γ·P/K × the PDE residual at K of
// them, and the l1 loss against targets whose residual part is 0 is then
// P/(P + K) · (L1 of the prediction + γ · L1 of the residual): the paper's loss up to a
// constant factor, which Adam does not see. Crops are a fixed pool drawn from the seed (the
// paper draws new ones every epoch).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/case_node.hpp"
#include "core/runtime.hpp"
#include "core/schema.hpp"

namespace surrox::training::super_resolution {

// The whole training config: runtime, data, network, physics, evaluation, training.
Schema super_resolution_schema();

void train_super_resolution(const CaseNode& root, Runtime& runtime,
                            const std::filesystem::path& output_dir,
                            const std::optional<std::filesystem::path>& resume, long max_epochs,
                            const std::string& config_path, nlohmann::json& results);

void evaluate_super_resolution(const std::filesystem::path& model,
                               const std::filesystem::path& data, Runtime& runtime,
                               const std::filesystem::path& output_dir, nlohmann::json& results);

}  // namespace surrox::training::super_resolution

#pragma once
// A trained deep potential as one torch archive (model.pt): the se_e2_a weights and
// statistics plus the string entry "metadata", JSON with "family": "deep_potential", the
// model config and the training record; a compressed model (tabulate.hpp) adds its tables and
// "compression": its table parameters. Written atomically.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "surrogates/deep_potential/se_e2_a.hpp"

namespace surrox::surrogates::deep_potential {

inline constexpr const char* kFamilyName = "deep_potential";

// The metadata entry save_model writes for `model` and its training record.
nlohmann::json model_metadata(SeE2aModel& model, const nlohmann::json& training = {});
void save_model(const std::filesystem::path& path, SeE2aModel& model,
                const nlohmann::json& training = {});
// InputError for a file that is not a deep-potential model.
SeE2aModel load_model(const std::filesystem::path& path, nlohmann::json* metadata = nullptr);

}  // namespace surrox::surrogates::deep_potential

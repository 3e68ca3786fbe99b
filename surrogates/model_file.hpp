#pragma once
// What any model file surrox reads says about itself, before a family loads it: every model
// surrox writes is a torch archive whose string entry "metadata" is JSON with a "family" key;
// a TorchScript file carries the same JSON as its extra file "surrox.json". Files of the first
// format version have no "family": they are `field` models.
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace surrox::surrogates {

// Opens `path` as a native model: a torch archive with a string "metadata" entry, which goes
// into `metadata_text`. False for anything else (a TorchScript file, or no model at all).
bool open_model_archive(const std::filesystem::path& path, torch::serialize::InputArchive& archive,
                        std::string& metadata_text);
// The model's metadata JSON; InputError for a file that is not a surrox model.
nlohmann::json read_model_metadata(const std::filesystem::path& path);
// Its "family", "field" when absent.
std::string model_family(const std::filesystem::path& path);

// Writes a native model: `archive` (the family's weights and arrays) with the "metadata" entry
// (JSON with the family's "family" key), atomically, so no partial file is ever left under the
// final name. Every family's model file is written through it.
void write_model_archive(const std::filesystem::path& path,
                         torch::serialize::OutputArchive& archive, const nlohmann::json& metadata);

}  // namespace surrox::surrogates

#pragma once
// `surrox info MODEL`: what any surrox model file says about itself, read through the one model
// interface (surrogates/surrogate_model.hpp) so that every registered family is described the
// same way: its family, a summary of its metadata, and the tensors predict takes and returns.
#include <filesystem>
#include <nlohmann/json.hpp>

namespace surrox::apps {

// Whether `path` looks like a model file: a torch archive or a TorchScript file (both zip).
bool is_model_file(const std::filesystem::path& path);
// {family, metadata: {key: value or "{n keys}" / "[n items]"}, inputs: [{name, shape}],
// outputs: [...]}. InputError when it is not a model or no registered family loads it.
nlohmann::json describe_model(const std::filesystem::path& path);
// The description as `surrox info` prints it.
void print_model_description(const nlohmann::json& description);

}  // namespace surrox::apps

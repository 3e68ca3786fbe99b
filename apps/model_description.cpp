#include "apps/model_description.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "surrogates/surrogate_model.hpp"

namespace surrox::apps {
namespace {

// Scalars as they are; objects and arrays by their size, except short arrays of scalars.
nlohmann::json summarise_metadata_value(const nlohmann::json& value) {
  if (value.is_object()) return fmt::format("{{{} keys}}", value.size());
  if (value.is_array()) {
    bool scalars = value.size() <= 8;
    for (const auto& item : value) scalars = scalars && item.is_primitive();
    return scalars ? value : nlohmann::json(fmt::format("[{} items]", value.size()));
  }
  return value;
}

nlohmann::json signatures_json(const std::vector<surrogates::TensorSignature>& signatures) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : signatures) out.push_back({{"name", s.name}, {"shape", s.shape}});
  return out;
}

}  // namespace

bool is_model_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
}

nlohmann::json describe_model(const std::filesystem::path& path) {
  const auto model = surrogates::load_surrogate_model(path);
  const nlohmann::json metadata = model->metadata();  // items() refers to it: keep it alive
  nlohmann::json summary = nlohmann::json::object();
  for (const auto& [key, value] : metadata.items()) summary[key] = summarise_metadata_value(value);
  return {{"family", model->family()},
          {"metadata", summary},
          {"inputs", signatures_json(model->inputs())},
          {"outputs", signatures_json(model->outputs())}};
}

void print_model_description(const nlohmann::json& d) {
  std::cout << fmt::format("{} model\n", d["family"].get<std::string>());
  for (const auto& [key, value] : d["metadata"].items())
    std::cout << fmt::format("  {:<24} {}\n", key,
                             value.is_string() ? value.get<std::string>() : value.dump());
  for (const char* side : {"inputs", "outputs"}) {
    std::cout << side << ":\n";
    for (const auto& s : d[side])
      std::cout << fmt::format("  {:<14} {}\n", s["name"].get<std::string>(),
                               s["shape"].get<std::string>());
  }
}

}  // namespace surrox::apps

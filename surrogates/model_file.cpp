#include "surrogates/model_file.hpp"

#include <torch/script.h>
#include <torch/torch.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::surrogates {

namespace {

nlohmann::json parse_metadata(const std::string& text, const std::string& source) {
  try {
    auto j = nlohmann::json::parse(text);
    if (!j.is_object()) throw InputError(source + ": the model metadata is not a JSON object");
    return j;
  } catch (const nlohmann::json::exception&) {
    throw InputError(source + ": the model metadata is not JSON");
  }
}

}  // namespace

bool open_model_archive(const std::filesystem::path& path, torch::serialize::InputArchive& archive,
                        std::string& metadata_text) {
  try {
    archive.load_from(path.string());
  } catch (const c10::Error&) {
    return false;
  }
  c10::IValue text;
  if (!archive.try_read("metadata", text) || !text.isString()) return false;
  metadata_text = text.toStringRef();
  return true;
}

nlohmann::json read_model_metadata(const std::filesystem::path& path) {
  const std::string source = path.string();
  if (!std::filesystem::is_regular_file(path)) throw InputError("no such model file: " + source);
  {
    torch::serialize::InputArchive archive;
    std::string text;
    if (open_model_archive(path, archive, text)) return parse_metadata(text, source);
  }
  torch::jit::ExtraFilesMap extra{{"surrox.json", ""}};
  try {
    torch::jit::load(source, torch::kCPU, extra);
  } catch (const c10::Error&) {
    throw InputError(source + ": not a model (neither a surrox model nor a TorchScript file)");
  }
  if (extra["surrox.json"].empty())
    throw InputError(source + ": a TorchScript model without surrox metadata (surrox.json)");
  return parse_metadata(extra["surrox.json"], source);
}

void write_model_archive(const std::filesystem::path& path,
                         torch::serialize::OutputArchive& archive, const nlohmann::json& metadata) {
  archive.write("metadata", c10::IValue(metadata.dump()));
  AtomicFile file(path);
  archive.save_to(file.temporary().string());
  file.commit();
}

std::string model_family(const std::filesystem::path& path) {
  const auto metadata = read_model_metadata(path);
  const auto family = metadata.find("family");
  return family != metadata.end() && family->is_string() ? family->get<std::string>() : "field";
}

}  // namespace surrox::surrogates

#include "surrogates/surrogate.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/script.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <sstream>

#include "core/error.hpp"
#include "core/schema_validator.hpp"
#include "core/version.hpp"
#include "surrogates/model_file.hpp"
#include "surrogates/networks.hpp"

namespace surrox::surrogates {
namespace {

constexpr const char* kMetadataFile = "surrox.json";
constexpr const char* kFormat = "surrox-surrogate";
constexpr int kFormatVersion = 2;

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// Files written before a structured grid said how its samples are taken ("samples") said it
// once per model: "layout" points or grid. A grid description without "samples" takes it from
// there; another layout name is an InputError listing the two.
void apply_legacy_layout(const nlohmann::json& j, const std::string& source,
                         std::vector<InputDescription>& inputs) {
  if (!j.contains("layout")) return;
  const std::string layout = j.at("layout").get<std::string>();
  if (layout != "points" && layout != "grid")
    throw InputError(source + ": layout: unknown sample layout '" + layout +
                     "'; known: points, grid");
  const nlohmann::json none = nlohmann::json::array();
  const auto& stored = j.value("input_domains", none);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    auto* grid = std::get_if<StructuredGridInputs>(&inputs[k].domain);
    const bool said = k < stored.size() && stored[k].contains("samples");
    if (grid && !said)
      grid->samples = layout == "grid" ? GridSamples::kWholeGrid : GridSamples::kRowPerCell;
  }
}

// A model's grid fits a case's when every extent matches or is 0 (any).
bool fits(const std::vector<long>& model, const std::vector<long>& case_cells) {
  if (model.size() != case_cells.size()) return false;
  for (std::size_t d = 0; d < model.size(); ++d)
    if (model[d] != 0 && model[d] != case_cells[d]) return false;
  return true;
}

// A TorchScript module behind the Network interface.
class ScriptNetwork final : public Network {
 public:
  explicit ScriptNetwork(torch::jit::Module module) : module_(std::move(module)) { module_.eval(); }
  torch::Tensor forward(const torch::Tensor& x) override { return module_.forward({x}).toTensor(); }

 private:
  torch::jit::Module module_;
};

// Rebuilds a built-in architecture from its saved section.
std::shared_ptr<Network> build(const SurrogateMetadata& m, const std::string& source) {
  const auto& entry = networks().at(m.network, ErrorContext{source});
  YAML::Node node;
  try {
    node = YAML::Load(m.network_yaml);
  } catch (const YAML::Exception&) {
    throw InputError(source + ": the model's network section is not valid YAML");
  }
  if (!node.IsMap()) node = YAML::Node(YAML::NodeType::Map);
  node.remove("type");  // the section as written in a config; the type is metadata.network
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = source + " (network metadata)";
  CaseNode section(node, origin);
  validate_case(entry.schema, section);
  return std::shared_ptr<Network>(entry.make(section, static_cast<long>(m.inputs.names.size()),
                                             static_cast<long>(m.outputs.names.size())));
}

// The dtype the weights were saved in, read from the first parameter (module archives nest by
// the dots of its name). The network must take it before loading: the archive reader replaces a
// parameter's storage without converting, so float64 weights read into the float32 network that
// build() makes would be reinterpreted bytes.
torch::Dtype saved_dtype(torch::serialize::InputArchive& weights, Network& network) {
  const auto parameters = network.named_parameters(true);
  if (parameters.is_empty()) return torch::kFloat32;
  std::vector<std::string> path;
  std::stringstream key(parameters.begin()->key());
  for (std::string part; std::getline(key, part, '.');) path.push_back(part);
  std::vector<torch::serialize::InputArchive> nested(path.size() - 1);
  torch::serialize::InputArchive* at = &weights;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    at->read(path[k], nested[k]);
    at = &nested[k];
  }
  torch::Tensor first;
  at->read(path.back(), first);
  return first.scalar_type();
}

}  // namespace

nlohmann::json SurrogateMetadata::to_json() const {
  nlohmann::json domains = nlohmann::json::array();
  for (const auto& d : input_domains) domains.push_back(d.to_json());
  return {{"format", kFormat},
          {"format_version", kFormatVersion},
          {"family", "field"},
          {"network", network},
          {"network_yaml", network_yaml},
          {"layout", takes_whole_grids(input_domains) ? "grid" : "points"},
          {"input_domains", domains},
          {"inputs", inputs.to_json()},
          {"outputs", outputs.to_json()},
          {"output_scaling", output_scaling.to_json(inputs.names, outputs.names)},
          {"surrox_version", surrox_version},
          {"training", training}};
}

SurrogateMetadata SurrogateMetadata::from_json(const nlohmann::json& j, const std::string& source) {
  try {
    if (j.at("format").get<std::string>() != kFormat)
      throw InputError(source + ": not a surrox surrogate");
    const int version = j.at("format_version").get<int>();
    if (version > kFormatVersion)
      throw InputError(source + ": written by a newer surrox (format_version " +
                       std::to_string(version) + ")");
    SurrogateMetadata m;
    m.network = j.at("network").get<std::string>();
    m.network_yaml = j.value("network_yaml", "");
    if (version < 2) {
      // Version 1 knew one grid: the training grid's cells.
      const auto cells = j.at("grid_cells").get<std::array<long, 2>>();
      m.input_domains = {grid_cells_input({cells[0], cells[1]})};
    } else {
      for (const auto& d : j.at("input_domains"))
        m.input_domains.push_back(InputDescription::from_json(d, source));
    }
    apply_legacy_layout(j, source, m.input_domains);
    m.inputs = Normalization::from_json(j.at("inputs"));
    m.outputs = Normalization::from_json(j.at("outputs"));
    if (j.contains("output_scaling"))
      m.output_scaling =
          OutputScaling::from_json(j.at("output_scaling"), m.inputs.names, m.outputs.names, source);
    m.surrox_version = j.value("surrox_version", "");
    m.training = j.value("training", nlohmann::json::object());
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": damaged model metadata (" + e.what() + ")");
  }
}

Surrogate::Surrogate(std::shared_ptr<Network> network, SurrogateMetadata metadata)
    : network_(std::move(network)), metadata_(std::move(metadata)) {}

std::unique_ptr<Surrogate> Surrogate::load(const std::filesystem::path& path) {
  const std::string source = path.string();
  if (!std::filesystem::is_regular_file(path)) throw InputError("no such model file: " + source);
  // A native model: a torch archive with "metadata" and "network".
  {
    torch::serialize::InputArchive archive;
    std::string text;
    if (open_model_archive(path, archive, text)) {
      SurrogateMetadata metadata;
      try {
        metadata = SurrogateMetadata::from_json(nlohmann::json::parse(text), source);
      } catch (const nlohmann::json::exception&) {
        throw InputError(source + ": the model metadata is not JSON");
      }
      auto network = build(metadata, source);
      torch::serialize::InputArchive weights;
      try {
        archive.read("network", weights);
        network->to(saved_dtype(weights, *network));
        network->load(weights);
      } catch (const c10::Error& e) {
        throw InputError(source + ": the weights do not fit the " + metadata.network +
                         " it describes (" + e.what_without_backtrace() + ")");
      }
      network->eval();
      return std::make_unique<Surrogate>(std::move(network), std::move(metadata));
    }
  }
  // A TorchScript module exported from Python, with its metadata as an extra file.
  torch::jit::ExtraFilesMap extra{{kMetadataFile, ""}};
  torch::jit::Module module;
  try {
    module = torch::jit::load(source, torch::kCPU, extra);
  } catch (const c10::Error&) {
    throw InputError(source + ": not a model (neither a surrox model nor a TorchScript file)");
  }
  if (extra[kMetadataFile].empty())
    throw InputError(
        source +
        ": a TorchScript model needs surrox metadata: save it with "
        "torch.jit.save(model, path, _extra_files={'surrox.json': ...}) (docs/formats.md)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(extra[kMetadataFile]);
  } catch (const nlohmann::json::exception&) {
    throw InputError(source + ": its surrox.json is not JSON");
  }
  SurrogateMetadata metadata = SurrogateMetadata::from_json(j, source);
  metadata.network = "torchscript";
  return std::make_unique<Surrogate>(std::make_shared<ScriptNetwork>(std::move(module)),
                                     std::move(metadata));
}

void Surrogate::save(const std::filesystem::path& path) const {
  if (metadata_.network == "torchscript")
    throw Error("TorchScript models are saved from Python, not by surrox");
  torch::serialize::OutputArchive archive, weights;
  network_->save(weights);
  archive.write("network", weights);
  SurrogateMetadata m = metadata_;
  m.surrox_version = kVersion;
  write_model_archive(path, archive, m.to_json());
}

torch::Tensor Surrogate::predict(const torch::Tensor& inputs) {
  torch::NoGradGuard no_grad;
  const auto parameters = network_->parameters();
  const auto options = parameters.empty() ? inputs.options() : parameters.front().options();
  const torch::Tensor x = metadata_.inputs.apply(inputs.to(options));
  const torch::Tensor y = metadata_.outputs.invert(network_->forward(x));
  return metadata_.output_scaling.to_physical(y, inputs).to(inputs.dtype());
}

void Surrogate::check_fits(const std::vector<InputDescription>& case_domains,
                           const std::vector<std::string>& input_names,
                           const std::vector<std::string>& output_names) const {
  const auto& m = metadata_;
  for (const auto& needed : m.input_domains) {
    const auto it = std::find_if(case_domains.begin(), case_domains.end(),
                                 [&](const InputDescription& d) { return d.name == needed.name; });
    if (it == case_domains.end() || it->kind() != needed.kind())
      throw InputError("the model's input '" + needed.name + "' is " + needed.kind() +
                       "; this case provides " +
                       (it == case_domains.end() ? std::string("no such input") : it->kind()));
    const auto* model_grid = std::get_if<StructuredGridInputs>(&needed.domain);
    const auto* case_grid = std::get_if<StructuredGridInputs>(&it->domain);
    if (model_grid && model_grid->samples == GridSamples::kWholeGrid && case_grid &&
        !fits(model_grid->cells, case_grid->cells))
      throw InputError(
          fmt::format("the model was trained on a {} grid; this case's grid is {} "
                      "(a grid network needs the same grid)",
                      fmt::join(model_grid->cells, " × "), fmt::join(case_grid->cells, " × ")));
  }
  if (m.inputs.names != input_names)
    throw InputError("the model's inputs are [" + join(m.inputs.names) + "]; this case provides [" +
                     join(input_names) + "]");
  if (m.outputs.names != output_names)
    throw InputError("the model's outputs are [" + join(m.outputs.names) + "]; this case needs [" +
                     join(output_names) + "]");
}

}  // namespace surrox::surrogates

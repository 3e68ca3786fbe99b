#include "training/field/field_prediction.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

#include "core/error.hpp"
#include "io/openfoam_initial_fields.hpp"
#include "io/vtk_openfoam_case.hpp"
#include "io/vtk_writer.hpp"
#include "training/field/collection_dataset.hpp"
#include "training/field/field_data_sources.hpp"

namespace surrox::training {

namespace {

// Output channels grouped into the arrays written: the components of a vector the model's
// outputs name whole (U → U[0], U[1], U[2]) make one array U; any other channel (p, U[1]) is a
// one-component array of its own name. (first channel, channel count, array name)
struct PredictedArray {
  long first = 0, components = 0;
  std::string name;
};

std::vector<PredictedArray> predicted_arrays(const std::vector<std::string>& channels,
                                             const std::vector<std::string>& named) {
  std::vector<PredictedArray> arrays;
  for (long c = 0; c < static_cast<long>(channels.size()); ++c) {
    const std::string& channel = channels[static_cast<std::size_t>(c)];
    const auto open = channel.rfind('[');
    const std::string base = open == std::string::npos ? channel : channel.substr(0, open);
    const bool whole = open != std::string::npos && channel.back() == ']' &&
                       std::find(named.begin(), named.end(), base) != named.end();
    if (whole && !arrays.empty() && arrays.back().name == base &&
        arrays.back().first + arrays.back().components == c) {
      ++arrays.back().components;
      continue;
    }
    arrays.push_back({c, 1, whole ? base : channel});
  }
  return arrays;
}

// `mesh` with the predicted arrays in its point or cell data (replacing arrays of those names).
io::MeshData predicted_mesh(const io::MeshData& mesh, bool on_cells, const torch::Tensor& values,
                            const std::vector<PredictedArray>& arrays) {
  io::MeshData out = mesh;
  std::vector<io::NamedArray>& data = on_cells ? out.cell_data : out.point_data;
  const torch::Tensor rows = values.to(torch::kFloat64).contiguous();
  const auto* v = rows.data_ptr<double>();
  const long n = rows.size(0), channels = rows.size(1);
  for (const auto& a : arrays) {
    io::NamedArray array{a.name, io::HostArray("prediction", static_cast<std::size_t>(n),
                                               static_cast<std::size_t>(a.components))};
    for (long r = 0; r < n; ++r)
      for (long k = 0; k < a.components; ++k) array.values(r, k) = v[r * channels + a.first + k];
    data.erase(std::remove_if(data.begin(), data.end(),
                              [&](const io::NamedArray& d) { return d.name == a.name; }),
               data.end());
    data.push_back(std::move(array));
  }
  return out;
}

// --openfoam: OUT/case, a copy of the OpenFOAM case DATA whose 0/<array> of every predicted
// scalar or vector array is the prediction (one value per cell); the case's other fields stay.
void write_openfoam_prediction(const CollectionPredictionCase& c, const torch::Tensor& prediction,
                               const std::vector<PredictedArray>& arrays,
                               const std::filesystem::path& output_dir, nlohmann::json& results) {
  const std::string& case_file = c.source.file.string();
  if (!c.spec.on_cells || !(c.spec.block.empty() || c.spec.block == "internalMesh"))
    throw InputError(case_file +
                     ": --openfoam needs a model whose rows are the cells of the "
                     "internalMesh (data.rows: cells); this one's are " +
                     (c.spec.on_cells ? "cells of " + c.spec.block : std::string("points")));
  // Written beside, then put in place of a former OUT/case: never a half-written case.
  const std::filesystem::path final_copy = output_dir / "case", copy = output_dir / "case.partial";
  std::filesystem::remove_all(copy);
  io::copy_openfoam_case_initial(c.source.file, copy);
  const torch::Tensor rows = prediction.to(torch::kFloat64).contiguous();
  nlohmann::json written = nlohmann::json::array(), kept = nlohmann::json::array();
  for (const auto& a : arrays) {
    const auto field = copy / "0" / a.name;
    if (!std::filesystem::is_regular_file(field) || (a.components != 1 && a.components != 3)) {
      kept.push_back(a.name);
      continue;
    }
    const torch::Tensor part = rows.slice(1, a.first, a.first + a.components).contiguous();
    io::HostArray values("field", static_cast<std::size_t>(part.size(0)),
                         static_cast<std::size_t>(a.components));
    std::copy(part.data_ptr<double>(), part.data_ptr<double>() + part.numel(), values.data());
    io::write_internal_field(field, values);
    written.push_back(a.name);
  }
  if (written.empty())
    throw InputError(case_file +
                     ": no predicted array is a scalar or vector field in its 0/ "
                     "directory, so --openfoam has nothing to write");
  if (!kept.empty())
    spdlog::warn("--openfoam: {} not written (no scalar or vector field of that name in 0/)",
                 kept.dump());
  std::filesystem::remove_all(final_copy);
  std::filesystem::rename(copy, final_copy);
  results["openfoam"] = {{"case", final_copy.string()}, {"fields", written}, {"not_written", kept}};
}

// The case DATA names, read as the model's training data section reads its cases.
CollectionPredictionCase field_prediction_case(const PredictRequest& request,
                                               const surrogates::Surrogate& model) {
  const auto& metadata = model.metadata();
  const FieldModelData recorded = field_model_data(metadata, request.model);
  if (recorded.type != "collection")
    throw InputError(fmt::format(
        "{}: a field model trained on `{}` data, which surrox predict does not apply; {}",
        request.model.string(), recorded.type, kPredictAccepts));
  if (surrogates::takes_whole_grids(metadata.input_domains))
    throw InputError(request.model.string() +
                     ": a grid network (whole grids); surrox predict applies per-row networks "
                     "such as mlp. " +
                     kPredictAccepts);
  CollectionPredictionCase c;
  with_field_model_data("predict", request.model, request.data, recorded,
                        [&](const FieldDataSource&, const CaseNode& section) {
                          c = CollectionDataset::prediction_case(section, metadata.inputs.names,
                                                                 metadata.outputs.names);
                        });
  return c;
}

}  // namespace

torch::Tensor predict_field_rows(surrogates::Surrogate& model, const torch::Tensor& raw_inputs) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> parts;
  const long chunk = 65536;
  for (long b = 0; b < raw_inputs.size(0); b += chunk)
    parts.push_back(model.predict(raw_inputs.slice(0, b, std::min(raw_inputs.size(0), b + chunk))));
  if (parts.empty())
    return torch::empty({0, static_cast<long>(model.metadata().outputs.names.size())},
                        raw_inputs.options());
  return torch::cat(parts);
}

void predict_field_case(const PredictRequest& request, nlohmann::json& results) {
  auto model = surrogates::Surrogate::load(request.model);
  const CollectionPredictionCase c = field_prediction_case(request, *model);
  model->check_fits({{"points", surrogates::PointInputs{3}}}, model->metadata().inputs.names,
                    model->metadata().outputs.names);
  if (c.inputs.size(0) == 0)
    throw InputError(request.data.string() + ": the case has no " +
                     (c.spec.on_cells ? "cells" : "points") + " to predict on");
  const torch::Tensor prediction = predict_field_rows(*model, c.inputs);
  const io::MeshData& block = collection_block(c.file, c.spec.block, c.source.file.string());
  const auto arrays = predicted_arrays(c.output_names, c.spec.outputs);
  const io::MeshData mesh = predicted_mesh(block, c.spec.on_cells, prediction, arrays);

  const std::filesystem::path file =
      request.output_dir / ("prediction" + io::vtk_extension(mesh.kind));
  nlohmann::json written = nlohmann::json::array();
  for (const auto& a : arrays) {
    const auto part = prediction.slice(1, a.first, a.first + a.components);
    written.push_back({{"name", a.name},
                       {"components", a.components},
                       {"min", part.min().item<double>()},
                       {"max", part.max().item<double>()}});
  }
  results["case"] = c.source.name;
  results["case_file"] = c.source.file.string();
  results["block"] = c.spec.block;
  results["rows"] = c.spec.on_cells ? "cells" : "points";
  results["row_count"] = prediction.size(0);
  results["arrays"] = written;
  results["outputs"] = {{"prediction", file.string()}};
  if (request.openfoam && !io::is_openfoam_case(c.source.file))
    throw InputError(c.source.file.string() +
                     ": --openfoam writes into a copy of an OpenFOAM case folder; this case is "
                     "not one");
  if (request.runtime.root() && !request.output_dir.empty()) {
    std::filesystem::create_directories(request.output_dir);
    io::write_vtk(mesh, file);
    if (request.openfoam)
      write_openfoam_prediction(c, prediction, arrays, request.output_dir, results);
    spdlog::info("predicted {} on {} {} of {}: {}", fmt::join(c.output_names, ", "),
                 prediction.size(0), results["rows"].get<std::string>(), c.source.name,
                 file.string());
  }
}

}  // namespace surrox::training

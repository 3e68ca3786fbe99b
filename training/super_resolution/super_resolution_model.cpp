#include "training/super_resolution/super_resolution_model.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::training::super_resolution {

torch::Tensor SuperResolutionModel::normalise(const torch::Tensor& x) const {
  auto shape = std::vector<long>(static_cast<std::size_t>(x.dim()), 1);
  shape[1] = 4;
  const auto o = torch::TensorOptions().dtype(x.dtype());
  return (x - torch::tensor({mean[0], mean[1], mean[2], mean[3]}, o).view(shape)) /
         torch::tensor({std[0], std[1], std[2], std[3]}, o).view(shape);
}

torch::Tensor SuperResolutionModel::denormalise(const torch::Tensor& x) const {
  const auto o = torch::TensorOptions().dtype(x.dtype());
  return x * torch::tensor({std[0], std[1], std[2], std[3]}, o) +
         torch::tensor({mean[0], mean[1], mean[2], mean[3]}, o);
}

surrogates::super_resolution::BoussinesqScales SuperResolutionModel::scales(
    const RbRun& run, const LowResGrid& grid) const {
  surrogates::super_resolution::BoussinesqScales s;
  s.rayleigh = run.rayleigh;
  s.prandtl = run.prandtl;
  s.span = crop_span(run, grid, crop());
  s.mean = mean;
  s.std = std;
  return s;
}

nlohmann::json SuperResolutionModel::metadata() const {
  return {
      {"family", kFamilyName},
      {"format_version", 1},
      {"network", options.to_json()},
      {"channels", {"p", "b", "u", "w"}},
      {"mean", mean},
      {"std", std},
      {"downsampling",
       {{"t", downsampling.t},
        {"z", downsampling.z},
        {"x", downsampling.x},
        {"average", downsampling.average}}},
      {"spacing", {{"frame_interval", spacing[0]}, {"dz", spacing[1]}, {"dx", spacing[2]}}},
      {"rayleigh", rayleigh},
      {"prandtl", prandtl},
      {"gamma", gamma},
      {"evaluation", {{"time_tiles", evaluation_time_tiles}, {"residual_points", residual_points}}},
      {"training", training}};
}

void SuperResolutionModel::save(const std::filesystem::path& path) const {
  torch::serialize::OutputArchive archive, weights;
  network->save(weights);
  archive.write("network", weights);
  surrogates::write_model_archive(path, archive, metadata());
}

SuperResolutionModel SuperResolutionModel::load(const std::filesystem::path& path) {
  const std::string source = path.string();
  if (!std::filesystem::is_regular_file(path)) throw InputError(source + ": no such model file");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(source);
  } catch (const c10::Error&) {
    throw InputError(source + ": not a surrox model (not a torch archive)");
  }
  c10::IValue text;
  if (!archive.try_read("metadata", text) || !text.isString())
    throw InputError(source + ": not a surrox model (no metadata)");
  SuperResolutionModel m;
  try {
    const auto j = nlohmann::json::parse(text.toStringRef());
    if (j.value("family", std::string("field")) != kFamilyName)
      throw InputError(fmt::format("{}: a model of family '{}', not {}", source,
                                   j.value("family", std::string("field")), kFamilyName));
    m.options = surrogates::super_resolution::MeshfreeFlowNetOptions::from_json(j.at("network"));
    m.mean = j.at("mean").get<std::array<double, 4>>();
    m.std = j.at("std").get<std::array<double, 4>>();
    const auto& d = j.at("downsampling");
    m.downsampling = {d.at("t").get<long>(), d.at("z").get<long>(), d.at("x").get<long>(),
                      d.at("average").get<bool>()};
    const auto& s = j.at("spacing");
    m.spacing = {s.at("frame_interval").get<double>(), s.at("dz").get<double>(),
                 s.at("dx").get<double>()};
    m.rayleigh = j.at("rayleigh").get<double>();
    m.prandtl = j.at("prandtl").get<double>();
    m.gamma = j.at("gamma").get<double>();
    m.evaluation_time_tiles = j.at("evaluation").at("time_tiles").get<long>();
    m.residual_points = j.at("evaluation").at("residual_points").get<long>();
    m.training = j.value("training", nlohmann::json::object());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": damaged super-resolution metadata (" + e.what() + ")");
  }
  m.network = surrogates::super_resolution::MeshfreeFlowNet(m.options);
  try {
    torch::serialize::InputArchive weights;
    archive.read("network", weights);
    m.network->load(weights);
  } catch (const c10::Error&) {
    throw InputError(source + ": the weights do not fit the network its metadata describes");
  }
  m.network->eval();
  return m;
}

void SuperResolutionModel::check_compatible(const RbRun& run) const {
  const std::array<double, 3> have = {run.frame_interval, run.dz, run.dx};
  const char* names[3] = {"frame interval", "dz", "dx"};
  for (int d = 0; d < 3; ++d)
    if (std::abs(have[d] - spacing[d]) > 1e-6 * spacing[d])
      throw InputError(fmt::format(
          "{}: its {} is {:.6g}, the model was trained on {:.6g}: the data does not match the "
          "model's grid and frames",
          run.path.string(), names[d], have[d], spacing[d]));
}

}  // namespace surrox::training::super_resolution

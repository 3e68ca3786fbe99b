// surrox info FILE: arrays, shapes, value ranges and time steps of any .h5 or VTK/ParaView file;
// of a model file, its family, metadata and the tensors it takes and returns.
#include <fmt/format.h>

#include <iostream>

#include "apps/command.hpp"
#include "apps/mesh_files.hpp"
#include "apps/model_description.hpp"
#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"

namespace surrox::apps {
namespace {

std::string range_text(const nlohmann::json& array) {
  if (!array.contains("range")) return "no finite values";
  return fmt::format("[{:.6g}, {:.6g}]", array["range"][0].get<double>(),
                     array["range"][1].get<double>());
}

void print_collection(const nlohmann::json& d) {
  std::cout << fmt::format("{} with {} dataset(s)\n", d["collection"].get<std::string>(),
                           d["entries"].size());
  for (const auto& e : d["entries"]) {
    std::cout << fmt::format(
        "- t = {:g}{}: {} mesh, {} points, {} cells\n", e["time"].get<double>(),
        e["name"].get<std::string>().empty() ? "" : " (" + e["name"].get<std::string>() + ")",
        e["mesh"].get<std::string>(), e["points"].get<std::size_t>(),
        e["cells"].get<std::size_t>());
    for (const char* where : {"point_arrays", "cell_arrays"})
      for (const auto& a : e[where])
        std::cout << fmt::format("    {} {:<20} {} x {}  {}\n", where[0] == 'p' ? "point" : "cell ",
                                 a["name"].get<std::string>(), a["tuples"].get<std::size_t>(),
                                 a["components"].get<std::size_t>(), range_text(a));
  }
}

class InfoCommand final : public Command {
 public:
  std::string name() const override { return "info"; }
  std::string description() const override {
    return "Describe a .h5 or VTK/ParaView file (arrays, shapes, ranges, time steps) or a model "
           "file (family, metadata, inputs and outputs)";
  }
  void configure(CLI::App& app) override {
    app.add_option("file", path_,
                   "a .h5/.hdf5, .vti/.vts/.vtu/.vtp/.vtm/.pvd/.pvt?/.vtk file or a model (.pt)")
        ->required();
  }
  // Reading a file leaves nothing behind: summary.json only where -o asks for it.
  std::filesystem::path default_output_dir() const override { return {}; }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path&,
                     nlohmann::json& results) override {
    results["file"] = path_;
    if (is_model_file(path_)) {
      results["model"] = describe_model(path_);
      if (runtime.root()) print_model_description(results["model"]);
    } else if (io::is_hdf5_file(path_)) {
      // Any HDF5 file: list its objects; a surrox dataset additionally reads as meshes.
      nlohmann::json objects = nlohmann::json::array();
      for (const auto& o : io::describe_hdf5(path_)) {
        nlohmann::json j{{"path", o.path},
                         {"dataset", o.is_dataset},
                         {"shape", o.shape},
                         {"dtype", o.dtype},
                         {"attributes", o.attributes}};
        if (o.has_range) j["range"] = {o.min, o.max};
        objects.push_back(j);
        if (runtime.root() && o.is_dataset)
          std::cout << fmt::format(
              "{:<32} {:<8} {}{}\n", o.path, o.dtype, nlohmann::json(o.shape).dump(),
              o.has_range ? fmt::format("  [{:.6g}, {:.6g}]", o.min, o.max) : "");
      }
      results["hdf5_objects"] = objects;
      if (objects_have_surrox_format(path_))
        results["datasets"] = describe_collection(read_mesh_file(path_));
    } else {
      results["datasets"] = describe_collection(read_mesh_file(path_));
      if (runtime.root()) print_collection(results["datasets"]);
    }
    return nullptr;
  }

 private:
  static bool objects_have_surrox_format(const std::string& path) {
    try {
      io::Hdf5DatasetReader reader(path);
      return true;
    } catch (const InputError&) {
      return false;
    }
  }
  std::string path_;
};

}  // namespace

std::unique_ptr<Command> make_info_command() { return std::make_unique<InfoCommand>(); }

}  // namespace surrox::apps

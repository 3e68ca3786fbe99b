// surrox convert IN OUT: any readable VTK/ParaView file or series to an HDF5 dataset, and back.
#include <spdlog/spdlog.h>

#include "apps/command.hpp"
#include "apps/mesh_files.hpp"
#include "core/error.hpp"

namespace surrox::apps {
namespace {

class ConvertCommand final : public Command {
 public:
  std::string name() const override { return "convert"; }
  std::string description() const override {
    return "Convert a VTK/ParaView file or .pvd series to an HDF5 dataset (.h5) or back (.pvd, .vt?)";
  }
  void configure(CLI::App& app) override {
    app.add_option("input", input_,
                   "file to read (.h5, .vti, .vts, .vtu, .vtp, .vtm, .pvd, .pvt?, .vtk)")
        ->required();
    app.add_option("output", output_, "file to write (.h5, .pvd, .vti, .vts, .vtu, .vtp)")
        ->required();
  }
  // Reading a file leaves nothing behind: summary.json only where -o asks for it.
  std::filesystem::path default_output_dir() const override { return {}; }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path&,
                     nlohmann::json& results) override {
    if (runtime.size() > 1) throw InputError("convert runs on one rank; start it without mpirun");
    const io::MeshCollection collection = read_mesh_file(input_);
    std::vector<std::string> written;
    for (const auto& path : write_mesh_file(collection, output_)) written.push_back(path.string());
    spdlog::info("{} → {} ({} dataset(s))", input_, output_, collection.entries.size());
    results["input"] = input_;
    results["output"] = output_;
    results["datasets"] = collection.entries.size();
    results["files_written"] = written;
    return nullptr;
  }

 private:
  std::string input_, output_;
};

}  // namespace

std::unique_ptr<Command> make_convert_command() { return std::make_unique<ConvertCommand>(); }

}  // namespace surrox::apps

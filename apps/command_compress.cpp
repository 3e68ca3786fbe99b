// surrox compress MODEL: DeePMD-kit's model compression (`dp compress`) for a deep potential:
// the embedding nets become tables of fifth-order polynomials (surrogates/deep_potential/
// tabulate.hpp). Writes OUT/model.pt, which `surrox evaluate` and `pair: {type: deep}` load
// like any model; summary.json records the table parameters.
#include <spdlog/spdlog.h>

#include "apps/command.hpp"
#include "core/error.hpp"
#include "surrogates/deep_potential/compress.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::apps {

namespace {

namespace dp = surrogates::deep_potential;

class CompressCommand final : public Command {
 public:
  std::string name() const override { return "compress"; }
  std::string description() const override {
    return "Compress a deep potential (DeePMD-kit's dp compress): tabulated embedding nets, "
           "written as OUT/model.pt";
  }
  void configure(CLI::App& app) override {
    app.add_option("model", model_, "a deep-potential model.pt written by `surrox train`")
        ->required();
    app.add_option("--data", options_.data,
                   "DeePMD npy systems whose smallest neighbour distance sizes the table "
                   "(default: the training systems the model records)");
    app.add_option("--min-distance", options_.min_distance,
                   "the smallest neighbour distance (Å) the table must cover, instead of --data")
        ->check(CLI::PositiveNumber);
    app.add_option("--stride", options_.stride,
                   "table step in normalised s inside the data's range; 10× beyond it "
                   "(DeePMD-kit's table_stride_1)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--extrapolate", options_.extrapolate,
                   "the table reaches this multiple of the data's upper bound")
        ->capture_default_str()
        ->check(CLI::Range(1.0, 1000.0));
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("compress-", model_.empty() ? "MODEL" : model_);
  }

  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    if (!std::filesystem::exists(model_)) throw InputError("no such model: " + model_);
    const std::string family = surrogates::model_family(model_);
    if (family != dp::kFamilyName)
      throw InputError(model_ + ": compression applies to deep potentials; this is a '" + family +
                       "' model");
    if (!runtime.root()) return nullptr;
    std::filesystem::create_directories(output_dir);
    results["input"] = model_;
    results.update(dp::compress_model_file(model_, output_dir / "model.pt", options_));
    return nullptr;
  }

 private:
  std::string model_;
  dp::CompressOptions options_;
};

}  // namespace

std::unique_ptr<Command> make_compress_command() { return std::make_unique<CompressCommand>(); }

}  // namespace surrox::apps

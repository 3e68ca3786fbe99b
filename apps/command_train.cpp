// surrox train CONFIG: trains a surrogate of the family the config names (`family`, default
// `field`): the model with its metadata (model.pt), metrics.csv, loss.png, checkpoint.pt and
// summary.json. Data-parallel under mpirun; only rank 0 writes.
#include "apps/command.hpp"
#include "core/atomic_file.hpp"
#include "core/yaml_json.hpp"
#include "io/case_file.hpp"
#include "training/deep_potential/deepmd_input.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::apps {

namespace {

class TrainCommand final : public Command {
 public:
  std::string name() const override { return "train"; }
  std::string description() const override {
    return "Train a surrogate (field, ... see `family`): model.pt (+ metadata), metrics.csv, loss.png, summary.json";
  }
  void configure(CLI::App& app) override {
    app.add_option("config", config_path_,
                   "training config (YAML; see docs/case-reference.md), or DeePMD-kit's "
                   "input.json for a deep potential (docs/lammps.md)")
        ->required();
    app.add_option("--set", overrides_, "override a config key: --set training.epochs=10")
        ->type_name("KEY.PATH=VALUE");
    app.add_option("--resume", resume_,
                   "continue from a checkpoint.pt of an earlier run of this config");
    app.add_option("--max-epochs", max_epochs_,
                   "stop after this many epochs (with a checkpoint); continue with --resume")
        ->check(CLI::PositiveNumber);
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("train-", config_path_.empty() ? "CONFIG" : config_path_);
  }

  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    const io::CaseFile config = load_config();
    const std::string family = config.root.string("family");
    if (common.threads == 0)
      runtime.set_torch_threads(
          static_cast<int>(config.root.section("runtime").integer("threads")));
    if (runtime.root()) {
      std::filesystem::create_directories(output_dir);
      write_text_atomically(output_dir / "config.resolved.yaml", config.resolved_yaml());
    }
    results["family"] = family;
    const training::TrainRequest request{
        config,      runtime,
        output_dir,  resume_.empty() ? std::nullopt : std::optional<std::filesystem::path>(resume_),
        max_epochs_, config_path_};
    training::surrogate_families().create(family)->train(request, results);
    return yaml_to_json(config.root.yaml());
  }

 private:
  // A DeePMD-kit input.json becomes a deep-potential config first
  // (training/deep_potential/deepmd_input.hpp); its values are then validated like any config's,
  // and config.resolved.yaml records them.
  io::CaseFile load_config() const {
    if (training::is_deepmd_input(config_path_)) {
      const std::string family = "deep_potential";
      return io::load_case_text(training::deepmd_input_to_config(config_path_),
                                config_path_ + " (DeePMD-kit input as a surrox config)",
                                training::train_config_schema(family), overrides_,
                                std::filesystem::path(config_path_).parent_path());
    }
    const std::string family = training::config_family(config_path_, overrides_);
    return io::load_case(config_path_, training::train_config_schema(family), overrides_);
  }

  std::string config_path_;
  std::vector<std::string> overrides_;
  std::string resume_;
  long max_epochs_ = 0;
};

}  // namespace

std::unique_ptr<Command> make_train_command() { return std::make_unique<TrainCommand>(); }

}  // namespace surrox::apps

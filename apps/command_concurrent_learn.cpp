// surrox concurrent-learn CONFIG: DP-GEN's concurrent learning of a deep potential in one
// command (apps/concurrent_learning.hpp): iter.NNN/{train.K, held_out, explore, label},
// iterations.csv, the final model 0 as model.pt, and summary.json. Run again on the same -o to
// continue an interrupted loop.
#include "apps/command.hpp"
#include "apps/concurrent_learning.hpp"
#include "core/yaml_json.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {
namespace {

class ConcurrentLearnCommand final : public Command {
 public:
  std::string name() const override { return "concurrent-learn"; }
  std::string description() const override {
    return "Concurrent learning of a deep potential (DP-GEN's loop): train an ensemble, explore "
           "with it in MD, label the frames it disagrees on with the reference, retrain";
  }
  void configure(CLI::App& app) override {
    app.add_option("config", config_path_,
                   "concurrent-learning config (YAML); see docs/case-reference.md")
        ->required();
    app.add_option("--set", overrides_, "override a config key: --set iterations=5")
        ->type_name("KEY.PATH=VALUE");
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("learn-", config_path_.empty() ? "CONFIG" : config_path_);
  }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    const io::CaseFile config =
        io::load_case(config_path_, concurrent_learning_schema(), overrides_);
    if (common.threads == 0)
      runtime.set_torch_threads(
          static_cast<int>(config.root.section("runtime").integer("threads")));
    results = run_concurrent_learning(runtime, config, output_dir);
    return yaml_to_json(config.root.yaml());
  }
  std::vector<std::pair<std::string, Schema>> reference_sections() const override {
    return {{"`surrox concurrent-learn` configs", concurrent_learning_schema()}};
  }

 private:
  std::string config_path_;
  std::vector<std::string> overrides_;
};

}  // namespace

std::unique_ptr<Command> make_concurrent_learn_command() {
  return std::make_unique<ConcurrentLearnCommand>();
}

}  // namespace surrox::apps

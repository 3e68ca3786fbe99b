#pragma once
// One `surrox <command>`: its options, its run, and what it reports in summary.json.
// The built-in commands are listed in commands.cpp, the verbs of surrogate families are added by
// their registration calls (families/); main.cpp only parses, builds the runtime and turns
// exceptions into exit codes.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "core/schema.hpp"

namespace surrox::apps {

// Options every command takes.
struct CommonOptions {
  std::string output_dir;  // -o; each command has a default
  std::string log_level = "info";
  bool log_level_given = false;  // --log-level on the command line beats the case file
  int threads = 0;
  bool log_all_ranks = false;
};

class Command {
 public:
  virtual ~Command() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Adds this command's positional arguments and options.
  virtual void configure(CLI::App& app) = 0;
  // The output folder when -o is not given, e.g. "out/<case name>"; empty for commands that
  // only read (info, convert), which then write no summary.json.
  virtual std::filesystem::path default_output_dir() const = 0;
  // Does the work; command-specific figures go into `results` (summary.json "results").
  // Returns the case it ran (resolved, as JSON) or null.
  virtual nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                             nlohmann::json& results) = 0;
  // The config files this command reads, documented in docs/case-reference.md after the run
  // cases and the training configs: (section title, schema).
  virtual std::vector<std::pair<std::string, Schema>> reference_sections() const { return {}; }

  CommonOptions common;
};

using CommandFactory = std::function<std::unique_ptr<Command>()>;

// The commands, in the order `surrox --help` lists them: the built-in ones, the families' verbs
// in their registration order, and `docs` last (commands.cpp).
std::vector<std::unique_ptr<Command>> make_commands();
// The verbs surrogate families registered (families::FamilyRegistrar::command).
std::vector<CommandFactory>& family_commands();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_validate_command();
std::unique_ptr<Command> make_info_command();
std::unique_ptr<Command> make_convert_command();
std::unique_ptr<Command> make_docs_command();
std::unique_ptr<Command> make_train_command();
std::unique_ptr<Command> make_evaluate_command();
std::unique_ptr<Command> make_predict_command();
std::unique_ptr<Command> make_compress_command();          // a deep_potential verb
std::unique_ptr<Command> make_concurrent_learn_command();  // a deep_potential verb
std::unique_ptr<Command> make_mesh_command();              // command_mesh.cpp

// "out/<stem>" for a case or data file path.
std::filesystem::path default_output_for(const std::string& prefix, const std::string& input);

}  // namespace surrox::apps

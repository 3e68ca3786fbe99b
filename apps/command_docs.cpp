// surrox docs case-reference: prints docs/case-reference.md, generated from the schemas.
#include <iostream>

#include "apps/command.hpp"
#include "apps/coupled_run.hpp"
#include "apps/run_case.hpp"
#include "core/schema_markdown.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::apps {
namespace {

class DocsCommand final : public Command {
 public:
  std::string name() const override { return "docs"; }
  std::string description() const override {
    return "Print generated documentation: 'case-reference' (docs/case-reference.md)";
  }
  void configure(CLI::App& app) override {
    app.add_option("topic", topic_, "case-reference")
        ->required()
        ->check(CLI::IsMember({"case-reference"}));
  }
  // It prints its answer: no folder unless -o is given.
  std::filesystem::path default_output_dir() const override { return {}; }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path&,
                     nlohmann::json& results) override {
    if (runtime.root()) std::cout << case_reference();
    results["topic"] = topic_;
    return nullptr;
  }

  // One section per surrogate family: each has its own data, network and training keys.
  static std::string train_config_reference() {
    std::string text;
    for (const auto& family : training::surrogate_families().names())
      text += schema_markdown("`surrox train` configs, `family: " + family + "`",
                              training::train_config_schema(family)) +
              "\n";
    return text;
  }

  // The config sections of every command that documents some (the families' verbs).
  static std::string command_config_reference() {
    std::string text;
    for (const auto& command : make_commands())
      for (const auto& [title, schema] : command->reference_sections())
        text += "\n" + schema_markdown(title, schema);
    return text;
  }

  static std::string case_reference() {
    return "# Case-file reference\n\n"
           "Generated from the schemas in the code by `surrox docs case-reference`; a test fails when\n"
           "this file is stale. Regenerate with\n"
           "`build/release/apps/surrox docs case-reference --log-level off -o /tmp/docs > docs/case-reference.md`.\n\n"
           "Sections of the form `{type: NAME, ...}` take the keys of the chosen type. Relative paths\n"
           "resolve against the case file's folder. `--set a.b.c=value` overrides any key after the\n"
           "file is read.\n\n" +
           schema_markdown("`surrox run` cases", run_case_schema()) + "\n" +
           train_config_reference() +
           schema_markdown("`surrox run` cases with a `coupler` section", coupled_case_schema()) +
           command_config_reference();
  }

 private:
  std::string topic_;
};

}  // namespace

std::unique_ptr<Command> make_docs_command() { return std::make_unique<DocsCommand>(); }

}  // namespace surrox::apps

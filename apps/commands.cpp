#include "apps/command.hpp"

namespace surrox::apps {

std::vector<std::unique_ptr<Command>> make_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(make_run_command());
  commands.push_back(make_validate_command());
  commands.push_back(make_info_command());
  commands.push_back(make_convert_command());
  commands.push_back(make_mesh_command());
  commands.push_back(make_train_command());
  commands.push_back(make_evaluate_command());
  commands.push_back(make_predict_command());
  for (const auto& make : family_commands()) commands.push_back(make());
  commands.push_back(make_docs_command());
  return commands;
}

std::vector<CommandFactory>& family_commands() {
  static std::vector<CommandFactory> commands;
  return commands;
}

std::filesystem::path default_output_for(const std::string& prefix, const std::string& input) {
  const std::string stem = std::filesystem::path(input).stem().string();
  return std::filesystem::path("out") / (prefix + (stem.empty() ? "output" : stem));
}

}  // namespace surrox::apps

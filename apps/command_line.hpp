#pragma once
// The surrox command line: every command (the built-in ones and the verbs families registered)
// as a CLI11 subcommand with the options all of them take, parsed into the one to run, which
// then runs on a runtime, writes summary.json and turns errors into exit codes (0 success,
// 2 bad input, 1 runtime failure). main.cpp parses, builds the runtime and runs; a test runs a
// command in-process on the test's runtime the same way.
#include <optional>
#include <string>
#include <vector>

#include "apps/command.hpp"

namespace surrox::apps {

class CommandLine {
 public:
  CommandLine();

  // The exit code when parsing ends the program (--help, --version, a command-line mistake);
  // nothing when the parsed command is to run.
  std::optional<int> parse(const std::vector<std::string>& arguments);
  // The parsed command (after parse() returned nothing).
  Command& command() { return *command_; }

  // Runs the parsed command and writes OUTDIR/summary.json on the root rank; the exit code.
  int run(Runtime& runtime);

 private:
  CLI::App app_;
  std::vector<std::unique_ptr<Command>> commands_;
  std::vector<std::pair<CLI::App*, Command*>> parsers_;
  std::vector<std::string> arguments_;
  Command* command_ = nullptr;
};

// "surrox: error: MESSAGE" on stderr; with several ranks the job is taken down (the other
// ranks may wait in a collective forever). Returns `code`.
int report_failure(const Runtime* runtime, int code, const std::string& message);

}  // namespace surrox::apps

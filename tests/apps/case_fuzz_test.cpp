// ctest-labels: unit
// ctest-libraries: surrox_cli
// Randomly mutated valid case files must load or fail with an InputError (exit code 2) —
// never crash, hang or throw anything else. In-process for speed (thousands of cases), plus a
// sample through the real executable to check the exit codes themselves.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// One random edit of the kinds people and broken tools make.
std::string mutate(std::string text, std::mt19937& rng) {
  static const std::vector<std::string> tokens = {"-1",         "0",
                                                  "1e309",      ".nan",
                                                  "[",          "]",
                                                  "{",          "}",
                                                  "*a",         "&a x",
                                                  "!!binary",   "~",
                                                  "''",         "yes",
                                                  "- ",         ": ",
                                                  "\t",         "type: heat",
                                                  "type: nope", "[1, 2, 3]",
                                                  "{}",         "\"\\x00\"",
                                                  "<<: *a",     "?",
                                                  "1.5",        "99999999999999999999",
                                                  "solver:",    "  grid:",
                                                  "&a [*a]"};
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  if (text.empty()) return tokens[pick(tokens.size())];
  auto lines = lines_of(text);
  switch (pick(9)) {
    case 0:
      text.erase(pick(text.size()), 1);
      return text;
    case 1:
      text.insert(pick(text.size()), 1, static_cast<char>(pick(256)));
      return text;
    case 2:
      text.insert(pick(text.size()), tokens[pick(tokens.size())]);
      return text;
    case 3:
      text.resize(pick(text.size()));
      return text;
    case 4: {
      const auto i = pick(lines.size());
      lines.insert(lines.begin() + i, lines[i]);
      return join_lines(lines);
    }
    case 5: {
      lines.erase(lines.begin() + pick(lines.size()));
      return join_lines(lines);
    }
    case 6: {
      std::swap(lines[pick(lines.size())], lines[pick(lines.size())]);
      return join_lines(lines);
    }
    case 7: {
      auto& line = lines[pick(lines.size())];
      line = pick(2) ? "  " + line : line.substr(std::min<std::size_t>(2, line.size()));
      return join_lines(lines);
    }
    default: {
      const std::size_t depth = 1 + pick(3000);
      return text + "deep: " + std::string(depth, '[') + std::string(depth, ']') + "\n";
    }
  }
}

std::vector<std::filesystem::path> case_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(surrox::testing::source_dir() / "cases"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  return files;
}

TEST(CaseFuzz, MutatedCasesLoadOrFailCleanly) {
  const auto files = case_files();
  ASSERT_FALSE(files.empty());
  std::mt19937 rng(20261122);
  int loaded = 0, rejected = 0;
  for (const auto& file : files) {
    const std::string original = read_text(file);
    for (int trial = 0; trial < 1500; ++trial) {
      std::string text = original;
      const int edits = 1 + trial % 4;
      for (int e = 0; e < edits; ++e) text = mutate(text, rng);
      try {
        io::load_case_text(text, file.filename().string(), apps::run_case_schema(), {},
                           file.parent_path());
        ++loaded;
      } catch (const InputError& e) {
        ++rejected;
        EXPECT_NE(std::string(e.what()).find(file.filename().string()), std::string::npos)
            << "message does not name the file: " << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "unexpected " << typeid(e).name() << ": " << e.what() << "\n--- case:\n"
                      << text;
      }
    }
  }
  // Both outcomes must occur, or the mutations are not exercising anything.
  EXPECT_GT(loaded, 100);
  EXPECT_GT(rejected, 1000);
}

TEST(CaseFuzz, ExecutableExitsWithZeroOrTwo) {
  const auto dir = surrox::testing::scratch_dir();
  std::mt19937 rng(7);
  const std::string original = read_text(case_files().front());
  int twos = 0;
  for (int trial = 0; trial < 12; ++trial) {
    std::string text = original;
    for (int e = 0; e < 3; ++e) text = mutate(text, rng);
    const auto path = dir / ("mutated_" + std::to_string(trial) + ".yaml");
    std::ofstream(path, std::ios::binary) << text;
    std::string output;
    const int code = surrox::testing::run_surrox(
        "validate -q " + path.string() + " -o " + (dir / "out").string(), &output);
    EXPECT_TRUE(code == 0 || code == 2) << "exit " << code << "\n"
                                        << output << "\n--- case:\n"
                                        << text;
    if (code == 2) {
      ++twos;
      EXPECT_NE(output.find(path.filename().string()), std::string::npos) << output;
    }
  }
  EXPECT_GT(twos, 0);
}

}  // namespace
}  // namespace surrox

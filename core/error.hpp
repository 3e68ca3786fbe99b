#pragma once
// Errors with context. Every error surrox raises says where it comes from (file, line,
// key path, MPI rank) and maps onto the CLI's exit codes: InputError → 2, Error → 1.
#include <stdexcept>
#include <string>

namespace surrox {

enum class ExitCode : int { kSuccess = 0, kFailure = 1, kBadInput = 2 };

// Where a problem lies. Empty fields are left out of the message.
struct ErrorContext {
  std::string file;      // case file, data file or "--set"
  int line = 0;          // 1-based; 0 when unknown
  int column = 0;        // 1-based; 0 when unknown
  std::string key_path;  // dotted case-file path such as "solver.ra"
};

// A runtime failure (exit code 1): a diverging solver, an I/O fault, a broken invariant.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what, ErrorContext context = {});
  const ErrorContext& context() const { return context_; }
  // The bare message without the location prefix.
  const std::string& detail() const { return detail_; }
  virtual ExitCode exit_code() const { return ExitCode::kFailure; }

 private:
  ErrorContext context_;
  std::string detail_;
};

// Bad input from the user (exit code 2): a wrong case-file key, a corrupt data file.
class InputError : public Error {
 public:
  using Error::Error;
  ExitCode exit_code() const override { return ExitCode::kBadInput; }
};

// "file:line:col: key.path: detail [rank r]" — the one format every error prints in.
std::string format_error(const std::string& detail, const ErrorContext& context);

}  // namespace surrox

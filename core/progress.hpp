#pragma once
// Progress of a long loop: rate and ETA. On a terminal one line is redrawn in place; when
// stderr is a file or a pipe (batch jobs, CI) it prints a line every 10 % or 30 s instead.
#include <chrono>
#include <cstdio>
#include <string>

namespace surrox {

class Progress {
 public:
  // `enabled` is false on ranks other than 0 so that one line appears per job. `unit` names
  // what `done` counts ("it", "steps"); an empty unit hides the rate (when done counts
  // fractions of the work rather than iterations).
  Progress(std::string label, std::size_t total, bool enabled = true, std::string unit = "it",
           std::FILE* stream = stderr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` of `total` finished; `status` is shown after the rate, e.g. "residual 3.1e-06".
  void update(std::size_t done, const std::string& status = {});
  void finish(const std::string& status = {});

  // The formatted line (without redraw characters): "label  45/100  45%  12.3 it/s  ETA 4s status";
  // without a unit: "label  45%  ETA 4s  status".
  std::string line(std::size_t done, const std::string& status) const;

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  std::size_t total_;
  std::string unit_;
  bool enabled_;
  bool terminal_;
  bool finished_ = false;
  std::FILE* stream_;
  Clock::time_point start_, last_print_;
  int last_decile_ = -1;
  std::size_t done_ = 0;
};

// Seconds as "3.2s", "4m05s", "2h03m".
std::string format_duration(double seconds);

}  // namespace surrox

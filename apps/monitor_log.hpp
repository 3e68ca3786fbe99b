#pragma once
// monitor.csv: one row every `output.monitor_interval` steps with step, time, dt, residual and
// the solver's monitor() figures. Written as monitor.csv.partial while the run goes on (so a
// diverged run leaves its history for diagnosis) and renamed to monitor.csv when it ends.
// A restarted run continues the file it finds in its folder: the rows up to the checkpoint's
// step are kept (later ones, written before a crash, are dropped) and new rows follow.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "solvers/solver.hpp"

namespace surrox::apps {

class MonitorLog {
 public:
  // Only the writing rank opens a file; the others keep a disabled log.
  MonitorLog(const std::filesystem::path& output_dir, bool enabled);
  // Before the first record: keep the rows of an earlier segment up to `step` (monitor.csv, or
  // monitor.csv.partial where that run did not finish).
  void continue_after(long step);
  void record(const solvers::StepReport& step, double residual,
              const solvers::Diagnostics& figures);
  // Renames the partial file to monitor.csv; returns its path (empty when disabled).
  std::string close();
  std::size_t rows() const { return rows_; }

 private:
  std::filesystem::path partial_, final_;
  std::ofstream out_;
  std::vector<std::string> columns_;
  std::size_t rows_ = 0;
  bool enabled_;
};

}  // namespace surrox::apps

#include "apps/monitor_log.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace surrox::apps {

MonitorLog::MonitorLog(const std::filesystem::path& output_dir, bool enabled)
    : partial_(output_dir / "monitor.csv.partial"),
      final_(output_dir / "monitor.csv"),
      enabled_(enabled) {}

void MonitorLog::record(const solvers::StepReport& step, double residual,
                        const solvers::Diagnostics& figures) {
  if (!enabled_) return;
  if (!out_.is_open()) {
    std::filesystem::create_directories(partial_.parent_path());
    out_.open(partial_, std::ios::trunc);
    if (!out_) throw Error("cannot write " + partial_.string());
    out_ << "step,time,dt,residual";
    for (const auto& [name, value] : figures) {
      columns_.push_back(name);
      out_ << ',' << name;
    }
    out_ << '\n';
  }
  // Full precision: the CSV is compared against reference codes, not only plotted.
  out_ << step.step << ',' << fmt::format("{:.17g},{:.17g},{:.17g}", step.time, step.dt, residual);
  for (const auto& name : columns_) {
    auto it = figures.find(name);
    out_ << ',' << (it == figures.end() ? std::string("nan") : fmt::format("{:.17g}", it->second));
  }
  out_ << '\n';
  out_.flush();
  ++rows_;
}

std::string MonitorLog::close() {
  if (!enabled_ || !out_.is_open()) return {};
  out_.close();
  std::filesystem::rename(partial_, final_);
  return final_.string();
}

}  // namespace surrox::apps

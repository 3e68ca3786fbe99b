#include "apps/monitor_log.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::apps {

MonitorLog::MonitorLog(const std::filesystem::path& output_dir, bool enabled)
    : partial_(output_dir / "monitor.csv.partial"),
      final_(output_dir / "monitor.csv"),
      enabled_(enabled) {}

void MonitorLog::continue_after(long step) {
  if (!enabled_) return;
  const std::filesystem::path source = std::filesystem::exists(partial_) ? partial_ : final_;
  std::ifstream in(source);
  if (!in) return;  // a first segment without rows
  std::string header;
  if (!std::getline(in, header) || header.rfind("step,time,dt,residual", 0) != 0)
    throw InputError("not a monitor file (its header is '" + header + "'); move it away to restart",
                     {source.string()});
  std::vector<std::string> kept;
  for (std::string line; std::getline(in, line);) {
    const long row_step = std::strtol(line.c_str(), nullptr, 10);
    if (row_step > step) break;  // rows after the checkpoint
    kept.push_back(line);
  }
  in.close();
  std::istringstream names(header);
  columns_.clear();
  int column = 0;
  for (std::string name; std::getline(names, name, ',');)
    if (column++ >= 4) columns_.push_back(name);
  std::string text = header + '\n';
  for (const auto& line : kept) text += line + '\n';
  write_text_atomically(partial_, text);
  if (source == final_) std::filesystem::remove(final_);
  out_.open(partial_, std::ios::app);
  if (!out_) throw Error("cannot write " + partial_.string());
  rows_ = kept.size();
}

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

#include "core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace surrox {

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 60) return fmt::format("{:.1f}s", seconds);
  const long s = std::lround(seconds);
  if (s < 3600) return fmt::format("{}m{:02d}s", s / 60, s % 60);
  return fmt::format("{}h{:02d}m", s / 3600, (s % 3600) / 60);
}

Progress::Progress(std::string label, std::size_t total, bool enabled, std::string unit,
                   std::FILE* stream)
    : label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)),
      enabled_(enabled),
      terminal_(isatty(fileno(stream)) != 0),
      stream_(stream),
      start_(Clock::now()),
      last_print_(start_) {}

Progress::~Progress() {
  if (enabled_ && !finished_ && terminal_ && done_ > 0) std::fputc('\n', stream_);
}

std::string Progress::line(std::size_t done, const std::string& status) const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const double rate = elapsed > 0 ? done / elapsed : 0.0;
  std::string out = label_;
  if (!unit_.empty()) out += fmt::format("  {}/{}", done, total_);
  if (total_ > 0) out += fmt::format("  {:3.0f}%", 100.0 * done / total_);
  if (!unit_.empty()) out += fmt::format("  {:.3g} {}/s", rate, unit_);
  if (done < total_ && rate > 0)
    out += "  ETA " + format_duration((total_ - done) / rate);
  else
    out += "  " + format_duration(elapsed);
  if (!status.empty()) out += "  " + status;
  return out;
}

void Progress::update(std::size_t done, const std::string& status) {
  done_ = done;
  if (!enabled_) return;
  const auto now = Clock::now();
  const double since_print = std::chrono::duration<double>(now - last_print_).count();
  if (terminal_) {
    if (since_print < 0.1 && done < total_) return;
    std::fprintf(stream_, "\r\033[K%s", line(done, status).c_str());
  } else {
    const int decile = total_ ? static_cast<int>(10 * done / total_) : 0;
    if (decile <= last_decile_ && since_print < 30.0) return;
    last_decile_ = decile;
    std::fprintf(stream_, "%s\n", line(done, status).c_str());
  }
  std::fflush(stream_);
  last_print_ = now;
}

void Progress::finish(const std::string& status) {
  if (!enabled_ || finished_) return;
  finished_ = true;
  if (terminal_)
    std::fprintf(stream_, "\r\033[K%s\n", line(done_, status).c_str());
  else if (last_decile_ < 10)
    std::fprintf(stream_, "%s\n", line(done_, status).c_str());
  std::fflush(stream_);
}

}  // namespace surrox

#pragma once
// Logging through spdlog. Rank 0 prints unless every rank is asked to; messages go to
// stderr so that stdout stays free for what a command prints as its result.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>

namespace surrox::log {

// Level names: trace, debug, info, warn, error, off.
void configure(int rank, int size, bool all_ranks, const std::string& level);

// While alive, messages below `level` are dropped (a level already stricter stays); the level
// before comes back at the end of the scope, exceptions included. For runs nested in a command
// (per-frame or per-stage solver runs) whose set-up lines would flood its log.
class RaisedLevel {
 public:
  explicit RaisedLevel(spdlog::level::level_enum level) : before_(spdlog::get_level()) {
    spdlog::set_level(std::max(before_, level));
  }
  ~RaisedLevel() { spdlog::set_level(before_); }
  RaisedLevel(const RaisedLevel&) = delete;
  RaisedLevel& operator=(const RaisedLevel&) = delete;

 private:
  spdlog::level::level_enum before_;
};

}  // namespace surrox::log

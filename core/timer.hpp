#pragma once
// Wall-clock accounting by named phase ("advance", "output", ...) for summaries and benchmarks.
#include <chrono>
#include <ctime>
#include <map>
#include <string>

namespace surrox {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

class PhaseTimes {
 public:
  // Adds the time from construction to destruction of the returned scope to `phase`.
  class Scope {
   public:
    Scope(PhaseTimes& owner, std::string phase) : owner_(owner), phase_(std::move(phase)) {}
    ~Scope() { owner_.add(phase_, watch_.seconds()); }

   private:
    PhaseTimes& owner_;
    std::string phase_;
    Stopwatch watch_;
  };

  Scope measure(std::string phase) { return Scope(*this, std::move(phase)); }
  void add(const std::string& phase, double seconds) { seconds_[phase] += seconds; }
  const std::map<std::string, double>& seconds() const { return seconds_; }

 private:
  std::map<std::string, double> seconds_;
};

// The current time as ISO 8601 UTC, "2026-11-22T09:51:19Z", for summaries and file metadata.
inline std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace surrox

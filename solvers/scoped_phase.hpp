#pragma once
// Adds the wall time of a scope to sink[name] after a Kokkos fence, so that kernels still
// queued on a device count in the phase that launched them. Solvers report these through
// Solver::phase_times().
#include <Kokkos_Core.hpp>
#include <chrono>
#include <map>
#include <string>

namespace surrox::solvers {

class ScopedPhase {
 public:
  ScopedPhase(std::map<std::string, double>& sink, const char* name)
      : sink_(sink), name_(name), start_(std::chrono::steady_clock::now()) {}
  ~ScopedPhase() {
    Kokkos::fence();
    sink_[name_] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  std::map<std::string, double>& sink_;
  const char* name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace surrox::solvers

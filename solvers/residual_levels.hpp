#pragma once
// Where a converging run crossed each residual decade for good: for every level from 1e-4 down
// to the run's criterion, the cycle from which its residual stays at or below that level to the
// end of the run (a start near the answer may begin below a level and rise above it again).
// A multigrid solver converges geometrically, so how much a start near the answer saves depends
// on how deep the criterion is; the warm-start coupler and its ceiling bench count both ways.
#include <fmt/format.h>

#include <string>
#include <vector>

namespace surrox::solvers {

class ResidualLevels {
 public:
  // Decades 1e-4, 1e-5, … above `criterion`, then the criterion itself.
  explicit ResidualLevels(double criterion) {
    for (double level = 1e-4; level > criterion * (1 + 1e-9); level /= 10) levels_.push_back(level);
    levels_.push_back(criterion);
    cycles_.assign(levels_.size(), -1);
  }

  // The residual after `cycle` cycles (count them as the solver does, and the criterion's entry
  // is the run's iteration count).
  void record(double residual, long cycle) {
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      if (residual > levels_[l])
        cycles_[l] = -1;
      else if (cycles_[l] < 0)
        cycles_[l] = cycle;
    }
  }

  const std::vector<double>& levels() const { return levels_; }
  // Per level: the cycle from which the residual stayed below it; −1 where it did not (yet).
  const std::vector<long>& cycles() const { return cycles_; }

  static std::string name(double level) { return fmt::format("{:.0e}", level); }

 private:
  std::vector<double> levels_;
  std::vector<long> cycles_;
};

}  // namespace surrox::solvers

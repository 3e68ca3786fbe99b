#pragma once
// Learning-rate schedules by name (`schedule: {type: cosine}`): the rate for each epoch from
// the optimizer's base rate. Plateau reacts to the validation loss, so schedules keep state
// that checkpoints save and restore (a resumed run continues exactly).
#include <vector>

#include "core/case_node.hpp"
#include "core/registry.hpp"

namespace surrox::training {

class LrSchedule {
 public:
  virtual ~LrSchedule() = default;
  // The rate for epoch `epoch` (0-based), before it is trained.
  virtual double rate(long epoch, double base) const = 0;
  // The validation loss after an epoch.
  virtual void observe(double validation_loss) {}
  virtual std::vector<double> state() const { return {}; }
  virtual void restore(const std::vector<double>& state) {}
};

// Factories take the schedule's section and the run's total number of epochs.
using LrScheduleRegistry = Registry<LrSchedule, const CaseNode&, long>;

// constant, step, exponential, cosine, plateau.
const LrScheduleRegistry& lr_schedules();

}  // namespace surrox::training

#include "training/lr_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace surrox::training {
namespace {

class Constant final : public LrSchedule {
 public:
  double rate(long, double base) const override { return base; }
};

// base · gamma^⌊epoch / step_size⌋
class Step final : public LrSchedule {
 public:
  explicit Step(const CaseNode& c) : step_size_(c.integer("step_size")), gamma_(c.real("gamma")) {}
  double rate(long epoch, double base) const override {
    return base * std::pow(gamma_, static_cast<double>(epoch / step_size_));
  }

 private:
  long step_size_;
  double gamma_;
};

// base · gamma^epoch
class Exponential final : public LrSchedule {
 public:
  explicit Exponential(const CaseNode& c) : gamma_(c.real("gamma")) {}
  double rate(long epoch, double base) const override {
    return base * std::pow(gamma_, static_cast<double>(epoch));
  }

 private:
  double gamma_;
};

// min + (base − min)(1 + cos(π·epoch/epochs))/2: from base at epoch 0 toward min at the end.
class Cosine final : public LrSchedule {
 public:
  Cosine(const CaseNode& c, long epochs) : min_(c.real("min_lr")), epochs_(std::max(1L, epochs)) {}
  double rate(long epoch, double base) const override {
    const double phase =
        M_PI * static_cast<double>(std::min(epoch, epochs_)) / static_cast<double>(epochs_);
    return min_ + (base - min_) * 0.5 * (1 + std::cos(phase));
  }

 private:
  double min_;
  long epochs_;
};

// Multiplies the rate by `factor` after `patience` epochs without a relative improvement of
// the validation loss by `threshold`; never below min_lr.
class Plateau final : public LrSchedule {
 public:
  explicit Plateau(const CaseNode& c)
      : factor_(c.real("factor")),
        patience_(c.integer("patience")),
        threshold_(c.real("threshold")),
        min_(c.real("min_lr")) {}
  double rate(long, double base) const override { return std::max(min_, base * scale_); }
  void observe(double loss) override {
    if (loss < best_ * (1 - threshold_)) {
      best_ = loss;
      bad_ = 0;
    } else if (++bad_ > patience_) {
      scale_ *= factor_;
      bad_ = 0;
    }
  }
  std::vector<double> state() const override { return {scale_, best_, static_cast<double>(bad_)}; }
  void restore(const std::vector<double>& s) override {
    if (s.size() != 3)
      throw InputError("plateau schedule state in the checkpoint has the wrong size");
    scale_ = s[0];
    best_ = s[1];
    bad_ = static_cast<long>(s[2]);
  }

 private:
  double factor_;
  long patience_;
  double threshold_, min_;
  double scale_ = 1, best_ = INFINITY;
  long bad_ = 0;
};

}  // namespace

const LrScheduleRegistry& lr_schedules() {
  static const LrScheduleRegistry registry = [] {
    LrScheduleRegistry r("schedule");
    r.add("constant",
          {[](const CaseNode&, long) { return std::make_unique<Constant>(); },
           Schema("the optimizer's rate throughout"), "the optimizer's rate throughout"});
    Schema step("rate · gamma^⌊epoch / step_size⌋");
    step.integer("step_size", "epochs between reductions").at_least(1).fallback("10");
    step.real("gamma", "factor per reduction").above(0).at_most(1).fallback("0.5");
    r.add("step",
          {[](const CaseNode& c, long) { return std::make_unique<Step>(c); }, step, step.doc()});
    Schema exponential("rate · gamma^epoch");
    exponential.real("gamma", "factor per epoch").above(0).at_most(1).fallback("0.95");
    r.add("exponential", {[](const CaseNode& c, long) { return std::make_unique<Exponential>(c); },
                          exponential, exponential.doc()});
    Schema cosine("cosine annealing from the optimizer's rate to min_lr over the run's epochs");
    cosine.real("min_lr", "rate at the last epoch").at_least(0).fallback("0");
    r.add("cosine",
          {[](const CaseNode& c, long epochs) { return std::make_unique<Cosine>(c, epochs); },
           cosine, cosine.doc()});
    Schema plateau(
        "rate · factor after `patience` epochs without improvement of the validation loss");
    plateau.real("factor", "factor per reduction").above(0).below(1).fallback("0.5");
    plateau.integer("patience", "epochs without improvement before a reduction")
        .at_least(0)
        .fallback("10");
    plateau.real("threshold", "relative improvement that counts").at_least(0).fallback("1e-4");
    plateau.real("min_lr", "lowest rate").at_least(0).fallback("0");
    r.add("plateau", {[](const CaseNode& c, long) { return std::make_unique<Plateau>(c); }, plateau,
                      plateau.doc()});
    return r;
  }();
  return registry;
}

}  // namespace surrox::training

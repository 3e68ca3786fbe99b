#pragma once
// SU2's Cauchy convergence test on force coefficients (CONV_FIELD, CONV_CAUCHY_ELEMS,
// CONV_CAUCHY_EPS, as in SU2 v8's COutput::Convergence_Monitoring): per iteration the change
// |C_n − C_{n−1}| / max(|C_n|, 0.1) goes into a ring of `elements` values (zeros at the start);
// a field has converged when the ring's mean is below `epsilon` and at least `elements`
// iterations were recorded; the test holds when every field has converged. The 0.1 floor keeps a
// coefficient near zero (Cl at α = 0) from dividing by almost nothing.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace surrox::solvers {

// SU2's default window, and our default threshold: the largest measured never to stop the
// default airfoil cases before |ΔCl| ≤ 1e-4 and |ΔCd| ≤ 1e-5 (docs/validation/airfoil.md).
inline constexpr long kCauchyElements = 100;
inline constexpr double kCauchyEpsilon = 1e-7;

class CauchyCriterion {
 public:
  CauchyCriterion(std::vector<std::string> fields, long elements, double epsilon)
      : fields_(std::move(fields)), elements_(elements), epsilon_(epsilon) {
    for (const auto& f : fields_) ring_[f].assign(static_cast<std::size_t>(elements_), 0.0);
  }

  // The coefficients after one more iteration (a map with at least the fields' names).
  template <class Coefficients>
  void record(const Coefficients& coefficients) {
    for (const auto& f : fields_) {
      const double value = coefficients.at(f);
      const double change =
          recorded_ == 0 ? 0.0 : std::abs(value - last_[f]) / std::max(std::abs(value), 0.1);
      ring_[f][static_cast<std::size_t>(recorded_ % elements_)] = change;
      last_[f] = value;
    }
    ++recorded_;
  }

  // The ring's mean of one field (1 before the first recorded change, as SU2 reports it).
  double value(const std::string& field) const {
    if (recorded_ < 2) return 1.0;
    const auto& ring = ring_.at(field);
    double sum = 0;
    for (double c : ring) sum += c;
    return sum / static_cast<double>(elements_);
  }

  bool converged() const {
    if (fields_.empty() || recorded_ <= elements_) return false;  // SU2: iteration ≥ elements
    return std::all_of(fields_.begin(), fields_.end(),
                       [&](const std::string& f) { return value(f) < epsilon_; });
  }

  const std::vector<std::string>& fields() const { return fields_; }
  long elements() const { return elements_; }
  double epsilon() const { return epsilon_; }
  // The history as numbers (for checkpoints): recorded, then per field its last value and ring.
  std::vector<double> history() const {
    std::vector<double> h{static_cast<double>(recorded_)};
    for (const auto& f : fields_) {
      h.push_back(last_.count(f) ? last_.at(f) : 0.0);
      h.insert(h.end(), ring_.at(f).begin(), ring_.at(f).end());
    }
    return h;
  }
  // Restores history() of a criterion with the same fields and elements; false (and a fresh
  // history) when the sizes do not match.
  bool restore(const std::vector<double>& h) {
    reset();
    if (h.size() != 1 + fields_.size() * static_cast<std::size_t>(elements_ + 1)) return false;
    recorded_ = static_cast<long>(h[0]);
    std::size_t at = 1;
    for (const auto& f : fields_) {
      last_[f] = h[at++];
      for (auto& c : ring_[f]) c = h[at++];
    }
    return true;
  }

  // Forgets the history (a warm start begins a new one).
  void reset() {
    recorded_ = 0;
    for (auto& [f, ring] : ring_) std::fill(ring.begin(), ring.end(), 0.0);
  }

 private:
  std::vector<std::string> fields_;
  long elements_;
  double epsilon_;
  long recorded_ = 0;
  std::map<std::string, std::vector<double>> ring_;
  std::map<std::string, double> last_;
};

}  // namespace surrox::solvers

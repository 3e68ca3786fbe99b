#pragma once
// Lennard-Jones 12-6 with a cutoff (LAMMPS pair_style lj/cut), optionally shifted so the
// energy is zero at the cutoff (pair_modify shift yes). One ε, σ, r_c for all type pairs.
#include "solvers/md/pair_driver.hpp"
#include "solvers/md/potential.hpp"

namespace surrox::solvers::md {

struct LjCoeff {
  double cutsq, lj1, lj2, lj3, lj4, offset;
};

// Force over r (F_ij = fpair · r_ij) and energy of one pair at squared distance rsq.
KOKKOS_INLINE_FUNCTION double lj_fpair(const LjCoeff& p, double rsq, double& energy) {
  const double r2inv = 1.0 / rsq;
  const double r6inv = r2inv * r2inv * r2inv;
  energy = r6inv * (p.lj3 * r6inv - p.lj4) - p.offset;
  return r6inv * (p.lj1 * r6inv - p.lj2) * r2inv;
}

// lj/cut for the pair driver. Branch-free: pairs in the skin get a zero force (a liquid's
// neighbour order makes the cutoff test unpredictable, and a mispredicted branch costs more
// than the math).
struct LjCutStyle {
  using List = HalfList;
  static constexpr const char* kName = "lj/cut";
  static constexpr const char* kLabel = "PairLjCut::compute";
  static constexpr bool kThreeBody = false;
  LjCoeff p;
  KOKKOS_INLINE_FUNCTION bool pair(int, int, double rsq, double& fpair, double& energy) const {
    const double inside = rsq < p.cutsq ? 1.0 : 0.0;
    double e;
    fpair = inside * lj_fpair(p, rsq, e);
    energy = inside * e;
    return true;
  }
};

class PairLjCut final : public Potential {
 public:
  static Schema schema();
  PairLjCut(double epsilon, double sigma, double cutoff, bool shift);
  PairLjCut(const CaseNode& config, const std::string& units);

  double cutoff() const override { return cutoff_; }
  bool half_list() const override { return true; }
  void compute(System& s, const NeighborList& list, ForceTally& tally) override {
    compute_pairs(LjCutStyle{coeff_}, s, list, tally);
  }
  const LjCoeff& coeff() const { return coeff_; }

 private:
  double cutoff_;
  LjCoeff coeff_;
};

}  // namespace surrox::solvers::md

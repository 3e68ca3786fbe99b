#pragma once
// Lennard-Jones 12-6 with a cutoff (LAMMPS pair_style lj/cut), optionally shifted so the
// energy is zero at the cutoff (pair_modify shift yes). One ε, σ, r_c for all type pairs.
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

class PairLjCut final : public Potential {
 public:
  static Schema schema();
  PairLjCut(double epsilon, double sigma, double cutoff, bool shift);
  PairLjCut(const CaseNode& config, const std::string& units);

  double cutoff() const override { return cutoff_; }
  bool half_list() const override { return true; }
  double compute(System& s, const NeighborList& list, bool energy) override;
  const LjCoeff& coeff() const { return coeff_; }

 private:
  template <bool kEnergy>
  double kernel(System& s, const NeighborList& list) const;
  double cutoff_;
  LjCoeff coeff_;
};

}  // namespace surrox::solvers::md

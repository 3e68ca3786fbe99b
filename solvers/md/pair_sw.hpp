#pragma once
// Stillinger–Weber three-body potential (LAMMPS pair_style sw) with parameters from a LAMMPS
// .sw file (element1 element2 element3 ε σ a λ γ cosθ0 A B p q tol per entry, e.g. Si.sw).
// Uses a full neighbour list; two-body terms are taken once per pair (LAMMPS's id-parity
// rule), three-body terms once per (i; j < k) triplet, both with the LAMMPS formulas.
#include <string>
#include <vector>

#include "solvers/md/potential.hpp"

namespace surrox::solvers::md {

struct SwParam {
  double epsilon, sigma, littlea, lambda, gamma, costheta, biga, bigb, powerp, powerq, tol;
  double cut, cutsq, sigma_gamma, lambda_epsilon, lambda_epsilon2, c1, c2, c3, c4, c5, c6;
  int whole_p, whole_q;  // powerp, powerq when whole numbers in [0, 12], else −1
};

// The radial factors of one leg i–j of the three-body term, which every triplet through
// that leg shares: computed once per neighbour instead of once per triplet.
struct SwLeg {
  double delr[3], rsq, r, rinvsq, gsrainvsq, expgsrainv;
};

KOKKOS_INLINE_FUNCTION void sw_leg(const SwParam& pij, const double* delr, double rsq, SwLeg& leg) {
  for (int d = 0; d < 3; ++d) leg.delr[d] = delr[d];
  leg.rsq = rsq;
  leg.r = sqrt(rsq);
  leg.rinvsq = 1.0 / rsq;
  const double rainv = 1.0 / (leg.r - pij.cut);
  const double gsrainv = pij.sigma_gamma * rainv;
  leg.gsrainvsq = gsrainv * rainv / leg.r;
  leg.expgsrainv = exp(gsrainv);
}

// sw_threebody from precomputed legs (the same arithmetic, so the same bits).
KOKKOS_INLINE_FUNCTION double sw_threebody_legs(const SwParam& pijk, const SwLeg& a, const SwLeg& b,
                                                double* fj, double* fk) {
  const double rinv12 = 1.0 / (a.r * b.r);
  const double cs =
      (a.delr[0] * b.delr[0] + a.delr[1] * b.delr[1] + a.delr[2] * b.delr[2]) * rinv12;
  const double delcs = cs - pijk.costheta;
  const double delcssq = delcs * delcs;
  const double facexp = a.expgsrainv * b.expgsrainv;
  const double facrad = pijk.lambda_epsilon * facexp * delcssq;
  const double frad1 = facrad * a.gsrainvsq;
  const double frad2 = facrad * b.gsrainvsq;
  const double facang = pijk.lambda_epsilon2 * facexp * delcs;
  const double facang12 = rinv12 * facang;
  const double csfacang = cs * facang;
  const double csfac1 = a.rinvsq * csfacang;
  const double csfac2 = b.rinvsq * csfacang;
  for (int d = 0; d < 3; ++d) {
    fj[d] = a.delr[d] * (frad1 + csfac1) - b.delr[d] * facang12;
    fk[d] = b.delr[d] * (frad2 + csfac2) - a.delr[d] * facang12;
  }
  return facrad;
}

// r^-power: repeated products for the small whole powers of real parameter files (Si.sw has
// p = 4, q = 0), pow otherwise.
KOKKOS_INLINE_FUNCTION double sw_inverse_power(double r, double power, int whole) {
  if (whole < 0) return pow(r, -power);
  const double rinv = 1.0 / r;
  double out = 1.0;
  for (int k = 0; k < whole; ++k) out *= rinv;
  return out;
}

// Two-body force over r and energy at squared distance rsq.
KOKKOS_INLINE_FUNCTION double sw_twobody(const SwParam& p, double rsq, double& energy) {
  const double r = sqrt(rsq);
  const double rinvsq = 1.0 / rsq;
  const double rp = sw_inverse_power(r, p.powerp, p.whole_p);
  const double rq = sw_inverse_power(r, p.powerq, p.whole_q);
  const double rainv = 1.0 / (r - p.cut);
  const double rainvsq = rainv * rainv * r;
  const double expsrainv = exp(p.sigma * rainv);
  energy = (p.c5 * rp - p.c6 * rq) * expsrainv;
  return (p.c1 * rp - p.c2 * rq + (p.c3 * rp - p.c4 * rq) * rainvsq) * expsrainv * rinvsq;
}

// Three-body term of atom i with neighbours j, k at delr1 = x_j − x_i, delr2 = x_k − x_i:
// forces fj on j and fk on k (i gets −fj − fk); returns the energy.
KOKKOS_INLINE_FUNCTION double sw_threebody(const SwParam& pij, const SwParam& pik,
                                           const SwParam& pijk, double rsq1, double rsq2,
                                           const double* delr1, const double* delr2, double* fj,
                                           double* fk) {
  const double r1 = sqrt(rsq1);
  const double rinvsq1 = 1.0 / rsq1;
  const double rainv1 = 1.0 / (r1 - pij.cut);
  const double gsrainv1 = pij.sigma_gamma * rainv1;
  const double gsrainvsq1 = gsrainv1 * rainv1 / r1;
  const double expgsrainv1 = exp(gsrainv1);
  const double r2 = sqrt(rsq2);
  const double rinvsq2 = 1.0 / rsq2;
  const double rainv2 = 1.0 / (r2 - pik.cut);
  const double gsrainv2 = pik.sigma_gamma * rainv2;
  const double gsrainvsq2 = gsrainv2 * rainv2 / r2;
  const double expgsrainv2 = exp(gsrainv2);
  const double rinv12 = 1.0 / (r1 * r2);
  const double cs = (delr1[0] * delr2[0] + delr1[1] * delr2[1] + delr1[2] * delr2[2]) * rinv12;
  const double delcs = cs - pijk.costheta;
  const double delcssq = delcs * delcs;
  const double facexp = expgsrainv1 * expgsrainv2;
  const double facrad = pijk.lambda_epsilon * facexp * delcssq;
  const double frad1 = facrad * gsrainvsq1;
  const double frad2 = facrad * gsrainvsq2;
  const double facang = pijk.lambda_epsilon2 * facexp * delcs;
  const double facang12 = rinv12 * facang;
  const double csfacang = cs * facang;
  const double csfac1 = rinvsq1 * csfacang;
  const double csfac2 = rinvsq2 * csfacang;
  for (int d = 0; d < 3; ++d) {
    fj[d] = delr1[d] * (frad1 + csfac1) - delr2[d] * facang12;
    fk[d] = delr2[d] * (frad2 + csfac2) - delr1[d] * facang12;
  }
  return facrad;
}

class PairSw final : public Potential {
 public:
  static Schema schema();
  // `elements`: the element of each atom type, in type order ("Si", or "Si Ge" for two types).
  PairSw(const std::string& file, const std::string& elements);
  PairSw(const CaseNode& config, const std::string& units);

  double cutoff() const override { return cutmax_; }
  bool half_list() const override { return false; }
  void check(const System& s) const override;
  double compute(System& s, const NeighborList& list, bool energy) override;

 private:
  template <bool kEnergy>
  double kernel(System& s, const NeighborList& list) const;
  std::vector<std::string> elements_;
  double cutmax_ = 0;
  Kokkos::View<SwParam*> params_;
  Kokkos::View<int***> elem3param_;  // (type i, type j, type k) → params_ index
};

}  // namespace surrox::solvers::md

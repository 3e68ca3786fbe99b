#pragma once
// Stillinger–Weber three-body potential (LAMMPS pair_style sw) with parameters from a LAMMPS
// .sw file (element1 element2 element3 ε σ a λ γ cosθ0 A B p q tol per entry, e.g. Si.sw).
// Uses a full neighbour list; two-body terms are taken once per pair (LAMMPS's id-parity
// rule), three-body terms once per (i; j < k) triplet, both with the LAMMPS formulas.
#include <string>
#include <vector>

#include "solvers/md/pair_driver.hpp"
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

// Three-body term of atom i with legs a = i–j and b = i–k (delr = x_j − x_i, x_k − x_i):
// forces fj on j and fk on k (i gets −fj − fk); returns the energy (LAMMPS PairSW::threebody).
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

// sw for the pair driver: parameters by (type i, type j, type k); legs within the i–j cutoff.
struct SwStyle {
  using List = FullList;
  using Leg = SwLeg;
  static constexpr const char* kName = "sw";
  static constexpr const char* kLabel = "PairSw::compute";
  static constexpr bool kThreeBody = true;
  static constexpr int kMaxLegs = 64;
  Kokkos::View<SwParam*> params;
  Kokkos::View<int***> elem3;  // (type i, type j, type k) → params index

  KOKKOS_INLINE_FUNCTION const SwParam& param(int i, int j, int k) const {
    return params(elem3(i, j, k));
  }
  KOKKOS_INLINE_FUNCTION bool pair(int itype, int jtype, double rsq, double& fpair,
                                   double& energy) const {
    const SwParam& p = param(itype, jtype, jtype);
    if (rsq >= p.cutsq) return false;
    fpair = sw_twobody(p, rsq, energy);
    return true;
  }
  KOKKOS_INLINE_FUNCTION bool is_leg(int itype, int jtype, double rsq) const {
    return rsq < param(itype, jtype, jtype).cutsq;
  }
  KOKKOS_INLINE_FUNCTION void make_leg(int itype, int jtype, const double* delr, double rsq,
                                       SwLeg& leg) const {
    sw_leg(param(itype, jtype, jtype), delr, rsq, leg);
  }
  KOKKOS_INLINE_FUNCTION double triplet(int itype, int jtype, int ktype, const SwLeg& ij,
                                        const SwLeg& ik, double* fj, double* fk) const {
    return sw_threebody_legs(param(itype, jtype, ktype), ij, ik, fj, fk);
  }
};

class PairSw final : public Potential {
 public:
  static Schema schema();
  // `elements`: the element of each atom type, in type order ("Si", or "Si Ge" for two types).
  PairSw(const std::string& file, const std::string& elements);
  PairSw(const CaseNode& config, const std::string& units);

  double cutoff() const override { return cutmax_; }
  bool half_list() const override { return false; }
  void check(const System& s) const override;
  void compute(System& s, const NeighborList& list, ForceTally& tally) override {
    compute_pairs(style_, s, list, tally);
  }

 private:
  std::vector<std::string> elements_;
  double cutmax_ = 0;
  SwStyle style_;
};

}  // namespace surrox::solvers::md

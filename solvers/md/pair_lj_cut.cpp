#include "solvers/md/pair_lj_cut.hpp"

#include <Kokkos_ScatterView.hpp>
#include <cmath>

namespace surrox::solvers::md {

Schema PairLjCut::schema() {
  Schema s("Lennard-Jones 12-6, LAMMPS pair_style lj/cut.");
  s.real("epsilon", "well depth ε").above(0).fallback("1.0");
  s.real("sigma", "zero-crossing distance σ").above(0).fallback("1.0");
  s.real("cutoff", "interaction cutoff r_c").above(0).fallback("2.5");
  s.boolean("shift", "shift the energy to zero at r_c (LAMMPS pair_modify shift yes)")
      .fallback("false");
  return s;
}

PairLjCut::PairLjCut(double epsilon, double sigma, double cutoff, bool shift) : cutoff_(cutoff) {
  coeff_.cutsq = cutoff * cutoff;
  coeff_.lj1 = 48.0 * epsilon * std::pow(sigma, 12.0);
  coeff_.lj2 = 24.0 * epsilon * std::pow(sigma, 6.0);
  coeff_.lj3 = 4.0 * epsilon * std::pow(sigma, 12.0);
  coeff_.lj4 = 4.0 * epsilon * std::pow(sigma, 6.0);
  const double ratio = sigma / cutoff;
  coeff_.offset = shift ? 4.0 * epsilon * (std::pow(ratio, 12.0) - std::pow(ratio, 6.0)) : 0.0;
}

PairLjCut::PairLjCut(const CaseNode& c, const std::string&)
    : PairLjCut(c.real("epsilon"), c.real("sigma"), c.real("cutoff"), c.boolean("shift")) {}

double PairLjCut::compute(System& s, const NeighborList& list, bool energy) {
  return energy ? kernel<true>(s, list) : kernel<false>(s, list);
}

template <bool kEnergy>
double PairLjCut::kernel(System& s, const NeighborList& list) const {
  auto x = s.x;
  auto neigh = list.neighbors_;
  auto count = list.count_;
  const LjCoeff p = coeff_;
  // Forces on j from a half list: atomics or per-thread copies where the backend needs them.
  Kokkos::Experimental::ScatterView<double* [3], Kokkos::LayoutRight> scatter(s.f);
  double total = 0;
  Kokkos::parallel_reduce(
      "PairLjCut::compute", s.nlocal,
      KOKKOS_LAMBDA(long i, double& eng) {
        auto f = scatter.access();
        const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
        double fx = 0, fy = 0, fz = 0;
        const int n = count(i);
        for (int k = 0; k < n; ++k) {
          const int j = neigh(i, k);
          const double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
          const double rsq = dx * dx + dy * dy + dz * dz;
          // Branch-free: pairs in the skin get a zero force (a liquid's neighbour order makes
          // the cutoff test unpredictable, and a mispredicted branch costs more than the math).
          const double inside = rsq < p.cutsq ? 1.0 : 0.0;
          double e;
          const double fpair = inside * lj_fpair(p, rsq, e);
          fx += dx * fpair;
          fy += dy * fpair;
          fz += dz * fpair;
          f(j, 0) -= dx * fpair;
          f(j, 1) -= dy * fpair;
          f(j, 2) -= dz * fpair;
          if (kEnergy) eng += inside * e;
        }
        f(i, 0) += fx;
        f(i, 1) += fy;
        f(i, 2) += fz;
      },
      total);
  Kokkos::Experimental::contribute(s.f, scatter);
  return total;
}

}  // namespace surrox::solvers::md

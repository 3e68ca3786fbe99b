#include "solvers/md/pair_lj_cut.hpp"

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

}  // namespace surrox::solvers::md

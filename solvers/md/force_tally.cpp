#include "solvers/md/force_tally.hpp"

namespace surrox::solvers::md {

double virial_fdotr(const System& s) {
  auto x = s.x;
  auto f = s.f;
  double w = 0;
  Kokkos::parallel_reduce(
      "md::virial_fdotr", s.nall,
      KOKKOS_LAMBDA(long i, double& sum) {
        sum += x(i, 0) * f(i, 0) + x(i, 1) * f(i, 1) + x(i, 2) * f(i, 2);
      },
      w);
  return w;
}

}  // namespace surrox::solvers::md

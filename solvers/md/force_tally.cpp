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

std::array<double, 3> virial_fdotr_diagonal(const System& s) {
  auto x = s.x;
  auto f = s.f;
  double wx = 0, wy = 0, wz = 0;
  Kokkos::parallel_reduce(
      "md::virial_fdotr_diagonal", s.nall,
      KOKKOS_LAMBDA(long i, double& sx, double& sy, double& sz) {
        sx += x(i, 0) * f(i, 0);
        sy += x(i, 1) * f(i, 1);
        sz += x(i, 2) * f(i, 2);
      },
      Kokkos::Sum<double>(wx), Kokkos::Sum<double>(wy), Kokkos::Sum<double>(wz));
  return {wx, wy, wz};
}

}  // namespace surrox::solvers::md

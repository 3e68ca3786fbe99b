// The radial distribution function and the pressure sampled with it (LAMMPS compute rdf with
// fix ave/time), from the neighbour list.
#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "solvers/md/md_solver.hpp"

namespace surrox::solvers::md {

void MdSolver::sample_rdf() {
  // Pair distances from the neighbour list (it holds every pair within r_c + skin), each
  // pair counted for both atoms as LAMMPS's full-list compute rdf does.
  const int bins = static_cast<int>(rdf_bins_);
  const double cut = potential_->cutoff(), cutsq = cut * cut, delrinv = bins / cut;
  const double weight = neighbors_.half() ? 2.0 : 1.0;
  Kokkos::View<double*> hist("MdSolver::rdf", bins);
  auto x = system_.x;
  auto neigh = neighbors_.view();
  Kokkos::parallel_for(
      "MdSolver::rdf", system_.nlocal, KOKKOS_LAMBDA(long i) {
        for (int k = 0; k < neigh.count(i); ++k) {
          const int j = neigh(i, k);
          const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          const double rsq = dx * dx + dy * dy + dz * dz;
          if (rsq >= cutsq) continue;
          const int bin = static_cast<int>(sqrt(rsq) * delrinv);
          if (bin < bins) Kokkos::atomic_add(&hist(bin), weight);
        }
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hist);
  MPI_Allreduce(MPI_IN_PLACE, h.data(), bins, MPI_DOUBLE, MPI_SUM, comm_);
  // LAMMPS's normalisation: g = n / (4π/3 (r_hi³ − r_lo³)/V · N (N − 1)).
  const double n = static_cast<double>(natoms_);
  const double constant = 4.0 * M_PI / (3.0 * system_.box.volume());
  const double delr = cut / bins;
  std::vector<double> g(bins);
  for (int b = 0; b < bins; ++b) {
    const double lo = b * delr, hi = (b + 1) * delr;
    g[b] = h(b) / (constant * (hi * hi * hi - lo * lo * lo) * (n - 1.0) * n);
  }
  rdf_samples_.push_back(std::move(g));
  rdf_press_.push_back(thermo().press);
}

MdSolver::Rdf MdSolver::rdf() const {
  Rdf out;
  out.samples = static_cast<long>(rdf_samples_.size());
  if (out.samples == 0) return out;
  const double m = static_cast<double>(out.samples);
  auto mean_and_error = [&](auto value, std::size_t count, double& mean, double& error) {
    double sum = 0, sum2 = 0;
    for (std::size_t s = 0; s < count; ++s) {
      sum += value(s);
      sum2 += value(s) * value(s);
    }
    mean = sum / m;
    const double variance = m > 1 ? std::max(0.0, (sum2 - m * mean * mean) / (m - 1)) : 0.0;
    error = std::sqrt(variance / m);
  };
  const double delr = potential_->cutoff() / rdf_bins_;
  for (long b = 0; b < rdf_bins_; ++b) {
    double mean = 0, error = 0;
    mean_and_error([&](std::size_t s) { return rdf_samples_[s][b]; }, rdf_samples_.size(), mean,
                   error);
    out.r.push_back((b + 0.5) * delr);
    out.g.push_back(mean);
    out.g_stderr.push_back(error);
  }
  mean_and_error([&](std::size_t s) { return rdf_press_[s]; }, rdf_press_.size(), out.press,
                 out.press_stderr);
  return out;
}

}  // namespace surrox::solvers::md

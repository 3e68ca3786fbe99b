// Checkpoints of the airfoil solver: each rank's slab of U with where it lies, the scalars that
// continue the run (iteration, circulation, residual reference), and the Cauchy test's and the
// Anderson acceleration's histories.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"

namespace surrox::solvers::airfoil {

// Scalars are global; each rank saves its slab of U and where the slab lies ("slab": first row,
// rows), so a restart on the same number of ranks puts every row back wherever it now lives.
void AirfoilSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["iteration"] = static_cast<double>(iteration_);
  checkpoint.scalars["circulation"] = fine().circulation;
  checkpoint.scalars["cells_i"] = static_cast<double>(ni_);
  checkpoint.scalars["cells_j"] = static_cast<double>(nj_);
  if (fine().turbulent)
    checkpoint.scalars["turbulence_first_residual"] = turbulence_first_residual_;
  for (int k = 0; k < 4; ++k) {
    checkpoint.scalars["first_residual_" + std::to_string(k)] = first_residual_[k];
    checkpoint.scalars["relative_residual_" + std::to_string(k)] = relative_residual_[k];
  }
  // RANS: ν̃ is a fifth component of the same array.
  const int nc = fine().turbulent ? 5 : 4;
  auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fine().u);
  io::HostArray a("Airfoil::conservative", ni_ * nl_, nc);
  for (long j = 0; j < nl_; ++j)
    for (long i = 0; i < ni_; ++i)
      for (int k = 0; k < 4; ++k) a(i + ni_ * j, k) = u(k, j, i);
  if (nc == 5) {
    auto nt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fine().nu_tilde);
    for (long j = 0; j < nl_; ++j)
      for (long i = 0; i < ni_; ++i) a(i + ni_ * j, 4) = nt(0, j + 2, i);
  }
  checkpoint.arrays.push_back({"conservative", a});
  io::HostArray slab("Airfoil::slab", 1, 2);
  slab(0, 0) = static_cast<double>(j0_);
  slab(0, 1) = static_cast<double>(nl_);
  checkpoint.arrays.push_back({"slab", slab});
  // The Cauchy test's history, so a restarted run stops where the straight one would (the same
  // on every rank, so every rank keeps a copy).
  if (!cauchy_.fields().empty()) {
    const std::vector<double> h = cauchy_.history();
    io::HostArray history("Airfoil::cauchy", 1, h.size());
    for (std::size_t n = 0; n < h.size(); ++n) history(0, n) = h[n];
    checkpoint.arrays.push_back({"cauchy", history});
  }
  // The acceleration's history, so a restart continues bit for bit; not in a converged run's
  // checkpoint (2 · depth + 2 state-sized arrays, ~27 MB at 256 × 128 and depth 12, which a
  // warm start or a later analysis does not need).
  if (acceleration_) {
    checkpoint.scalars["acceleration_restarts"] = static_cast<double>(acceleration_restarts_);
    checkpoint.scalars["acceleration_rejects"] = static_cast<double>(acceleration_rejects_);
  }
  if (acceleration_ && !converged()) {
    acceleration_->save(checkpoint, "acceleration_");
    checkpoint.scalars["acceleration_lowest"] = acceleration_lowest_;
  }
  // Each level's smoother work that later cycles read (the line factors, lagged between
  // refactorisations): a restart between them continues bit for bit. Left out of a converged
  // run's checkpoint, as the history above.
  if (!converged())
    for (std::size_t level = 0; level < flow_levels_.size(); ++level)
      flow_levels_[level].smoother->save(checkpoint, fmt::format("smoother_{}_", level));
}

// Collective. Every rank's piece is gathered, so the rows need not lie where they did when saved
// (another multigrid_levels changes the slabs); a checkpoint without "slab" is one whole grid.
void AirfoilSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  FlowLevel& f = fine();
  const Slab& slab = f.slab;
  const int ranks = slab.ranks(), rank = slab.rank();
  const io::NamedArray& a = checkpoint.array("conservative");
  const long saved_i = static_cast<long>(checkpoint.scalar("cells_i"));
  const long saved_j = static_cast<long>(checkpoint.scalar("cells_j"));
  long first = 0, rows = saved_j;
  if (const io::NamedArray* s = checkpoint.find_array("slab");
      s && s->tuples() == 1 && s->components() == 2)
    first = static_cast<long>(s->values(0, 0)), rows = static_cast<long>(s->values(0, 1));
  const int nc = f.turbulent ? 5 : 4;  // RANS: ν̃ fifth
  int fits = static_cast<int>(a.components()) == nc &&
             static_cast<long>(a.tuples()) == rows * ni_ && first >= 0 && rows >= 0 &&
             first + rows <= nj_;
  if (ranks > 1) MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_MIN, slab.comm());
  if (saved_i != ni_ || saved_j != nj_ || !fits)
    throw InputError(fmt::format(
        "checkpoint of a {} × {} grid{} does not match this {} × {} grid", saved_i, saved_j,
        saved_i == ni_ && saved_j == nj_ ? " (its array 'conservative' does not tile it)" : "", ni_,
        nj_));
  // Pieces of all ranks: (first, rows) pairs, then the values.
  long mine[2] = {first, rows};
  std::vector<long> slabs(static_cast<std::size_t>(2 * ranks));
  std::vector<double> values(static_cast<std::size_t>(nc * rows * ni_));
  for (long n = 0; n < rows * ni_; ++n)
    for (int k = 0; k < nc; ++k) values[static_cast<std::size_t>(nc * n + k)] = a.values(n, k);
  std::vector<double> all = values;
  if (ranks > 1) {
    MPI_Allgather(mine, 2, MPI_LONG, slabs.data(), 2, MPI_LONG, slab.comm());
    std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(counts.size());
    for (std::size_t r = 0, offset = 0; r < counts.size(); ++r) {
      counts[r] = static_cast<int>(nc * slabs[2 * r + 1] * ni_);
      offsets[r] = static_cast<int>(offset);
      offset += static_cast<std::size_t>(counts[r]);
    }
    all.resize(static_cast<std::size_t>(offsets.back() + counts.back()));
    MPI_Allgatherv(values.data(), counts[static_cast<std::size_t>(rank)], MPI_DOUBLE, all.data(),
                   counts.data(), offsets.data(), MPI_DOUBLE, slab.comm());
  } else {
    slabs = {first, rows};
  }
  // Global row → position of its first value in `all`; every row exactly once.
  std::vector<long> where(static_cast<std::size_t>(nj_), -1);
  bool tiles = true;
  for (std::size_t r = 0, offset = 0; r < slabs.size() / 2; ++r) {
    for (long j = 0; j < slabs[2 * r + 1]; ++j) {
      auto& w = where[static_cast<std::size_t>(slabs[2 * r] + j)];
      tiles = tiles && w < 0;
      w = static_cast<long>(offset) + nc * ni_ * j;
    }
    offset += static_cast<std::size_t>(nc * slabs[2 * r + 1] * ni_);
  }
  for (const long w : where) tiles = tiles && w >= 0;
  if (!tiles)  // the same on every rank: all hold the same slab list
    throw InputError(fmt::format(
        "checkpoint of a {} × {} grid: the pieces of its array 'conservative' do not tile the grid",
        saved_i, saved_j));
  auto u = Kokkos::create_mirror_view(f.u);
  for (long j = 0; j < nl_; ++j) {
    const double* row = all.data() + where[static_cast<std::size_t>(j0_ + j)];
    for (long i = 0; i < ni_; ++i)
      for (int k = 0; k < 4; ++k) u(k, j, i) = row[nc * i + k];
  }
  Kokkos::deep_copy(f.u, u);
  if (f.turbulent) {
    auto nt = Kokkos::create_mirror_view(f.nu_tilde);
    Kokkos::deep_copy(nt, f.nu_tilde);
    for (long j = 0; j < nl_; ++j) {
      const double* row = all.data() + where[static_cast<std::size_t>(j0_ + j)];
      for (long i = 0; i < ni_; ++i) nt(0, j + 2, i) = row[nc * i + 4];
    }
    Kokkos::deep_copy(f.nu_tilde, nt);
    turbulence_first_residual_ = checkpoint.scalar("turbulence_first_residual");
  }
  f.update_primitives();
  iteration_ = static_cast<long>(checkpoint.scalar("iteration"));
  f.circulation = checkpoint.scalar("circulation");
  for (int k = 0; k < 4; ++k) {
    first_residual_[k] = checkpoint.scalar("first_residual_" + std::to_string(k));
    relative_residual_[k] = checkpoint.scalar("relative_residual_" + std::to_string(k));
  }
  // A checkpoint without the Cauchy history (or of other stop_on fields) starts a new one.
  cauchy_.reset();
  if (const io::NamedArray* s = checkpoint.find_array("cauchy"); s && s->tuples() == 1)
    cauchy_.restore(std::vector<double>(s->values.data(), s->values.data() + s->components()));
  // The acceleration's history where the checkpoint has one for this depth and slab (else the
  // acceleration starts afresh: the same solution, not the same bits).
  acceleration_lowest_ = INFINITY;
  if (acceleration_ && acceleration_->load(checkpoint, "acceleration_"))
    acceleration_lowest_ = checkpoint.scalar("acceleration_lowest");
  acceleration_restarts_ = static_cast<long>(checkpoint.scalar_or("acceleration_restarts", 0));
  acceleration_rejects_ = static_cast<long>(checkpoint.scalar_or("acceleration_rejects", 0));
  for (std::size_t level = 0; level < flow_levels_.size(); ++level)
    flow_levels_[level].smoother->load(checkpoint, fmt::format("smoother_{}_", level));
  f.check_state(iteration_, relative_residual_[0]);
}

}  // namespace surrox::solvers::airfoil

#include "solvers/md/neighbor_list.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "solvers/md/atom_migration.hpp"
#include "solvers/md/atom_sort.hpp"

namespace surrox::solvers::md {
namespace {

bool same_box(const Box& a, const Box& b) { return a.lo == b.lo && a.hi == b.hi; }

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

}  // namespace

void NeighborList::setup(const Box& box, double cutoff, double skin, bool half, MPI_Comm comm) {
  cutoff_ = cutoff;
  skin_ = skin;
  half_ = half;
  grid_.setup(box, cutoff + skin, comm);
  fill_.setup(grid_, half);
  box_ = box_hold_ = box;
  builds_ = 0;
  last_sort_ = -1;
}

void NeighborList::build(System& s, long step) { build_lists(s, step, /*may_sort=*/true); }

void NeighborList::rebuild_saved(System& s, long step, long builds, long last_sort) {
  build_lists(s, step, /*may_sort=*/false);
  builds_ = builds;
  last_sort_ = last_sort;
}

void NeighborList::set_box(const Box& box) {
  box_ = box;
  ghosts_.set_box(box);
}

void NeighborList::build_lists(System& s, long step, bool may_sort) {
  if (!same_box(box_, grid_.box)) {
    try {
      grid_.setup(box_, cutoff_ + skin_, grid_.comm);
    } catch (const InputError& e) {
      throw Error(
          fmt::format("at step {} the box no longer fits the decomposition: {}", step, e.detail()));
    }
    fill_.setup(grid_, half_);
  }
  wrap_atoms(s, grid_, step);
  if (grid_.nprocs > 1) migrate_atoms(s, grid_);
  if (may_sort && sort_every > 0 && (last_sort_ < 0 || step - last_sort_ >= sort_every)) {
    sort_by_cell(s, grid_);
    last_sort_ = step;
  }
  ghosts_.build(s, grid_);
  fill_.fill(s, grid_, ghosts_.cells(), neighbors_, count_);
  // Migration may have changed the number of owned atoms.
  if (static_cast<long>(xhold_.extent(0)) != s.nlocal)
    xhold_ = Vec3View("NeighborList::xhold", s.nlocal);
  Kokkos::deep_copy(xhold_, Kokkos::subview(s.x, std::make_pair(0L, s.nlocal), Kokkos::ALL));
  box_hold_ = box_;
  ++builds_;
}

void NeighborList::reverse_forces(System& s) const {
  ghosts_.reverse(Kokkos::View<double**, Kokkos::LayoutRight>(s.f.data(), s.f.extent(0), 3));
}

bool NeighborList::displaced_too_far(const System& s) const {
  auto x = s.x;
  auto hold = xhold_;
  double limit = 0.25 * skin_ * skin_;
  if (!same_box(box_, box_hold_)) {
    // A pair across a periodic boundary also moves apart by the change of the period.
    const double corner =
        std::max(distance(box_.lo, box_hold_.lo), distance(box_.hi, box_hold_.hi));
    if (corner >= skin_) return true;  // the same on every rank
    const double reach = 0.5 * (skin_ - corner);
    limit = reach * reach;
  }
  double worst = 0;
  Kokkos::parallel_reduce(
      "NeighborList::displacement", s.nlocal,
      KOKKOS_LAMBDA(long i, double& m) {
        const double dx = x(i, 0) - hold(i, 0), dy = x(i, 1) - hold(i, 1),
                     dz = x(i, 2) - hold(i, 2);
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (!(r2 <= m)) m = r2;  // NaN wins: a lost atom forces a build, which reports it
      },
      Kokkos::Max<double>(worst));
  int far = !(worst <= limit);
  MPI_Allreduce(MPI_IN_PLACE, &far, 1, MPI_INT, MPI_MAX, grid_.comm);
  return far != 0;
}

}  // namespace surrox::solvers::md

#include "solvers/common/dmda_grid.hpp"

#include <algorithm>
#include <cmath>

namespace surrox::solvers {

DmdaGrid::DmdaGrid(MPI_Comm comm, int dim, std::array<long, 3> cells, bool periodic_x)
    : dim_(dim), periodic_x_(periodic_x), comm_(comm), cells_(cells) {
  if (dim == 3 && !periodic_x) throw Error("DmdaGrid: walls in x are for 2D grids only");
  const auto n = [&](int axis) { return static_cast<PetscInt>(cells_[axis]); };
  PetscInt c[6] = {0, 0, 0, 1, 1, 1}, g[6] = {0, 0, 0, 1, 1, 1};
  if (dim == 2) {
    // PETSc's (x, y) are (x, z) here.
    SURROX_PETSC_CHECK(DMDACreate2d(comm, periodic_x ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_GHOSTED,
                                    DM_BOUNDARY_GHOSTED, DMDA_STENCIL_BOX, n(kX), n(kZ),
                                    PETSC_DECIDE, PETSC_DECIDE, 1, 1, nullptr, nullptr, da_.out()));
    SURROX_PETSC_CHECK(DMSetUp(da_.get()));
    SURROX_PETSC_CHECK(
        DMDAGetCorners(da_.get(), &c[kX], &c[kZ], nullptr, &c[3 + kX], &c[3 + kZ], nullptr));
    SURROX_PETSC_CHECK(
        DMDAGetGhostCorners(da_.get(), &g[kX], &g[kZ], nullptr, &g[3 + kX], &g[3 + kZ], nullptr));
  } else {
    SURROX_PETSC_CHECK(DMDACreate3d(comm, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_PERIODIC,
                                    DM_BOUNDARY_GHOSTED, DMDA_STENCIL_BOX, n(kX), n(kY), n(kZ),
                                    PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, nullptr,
                                    nullptr, nullptr, da_.out()));
    SURROX_PETSC_CHECK(DMSetUp(da_.get()));
    SURROX_PETSC_CHECK(DMDAGetCorners(da_.get(), &c[0], &c[1], &c[2], &c[3], &c[4], &c[5]));
    SURROX_PETSC_CHECK(DMDAGetGhostCorners(da_.get(), &g[0], &g[1], &g[2], &g[3], &g[4], &g[5]));
  }
  for (int a = 0; a < 3; ++a) {
    start_[a] = c[a], owned_[a] = c[3 + a], ghosted_[a] = g[3 + a], offset_[a] = c[a] - g[a];
  }
  SURROX_PETSC_CHECK(DMCreateLocalVector(da_.get(), local_.out()));
  SURROX_PETSC_CHECK(DMCreateGlobalVector(da_.get(), global_.out()));
}

CellBox DmdaGrid::owned_box() const {
  CellBox box{};
  for (int a = 0; a < 3; ++a) {
    box.lo[2 - a] = offset_[a];
    box.hi[2 - a] = offset_[a] + owned_[a];
  }
  return box;
}

CellBox DmdaGrid::owned_from_zero() const {
  return {{0, 0, 0}, {owned_[kZ], owned_[kY], owned_[kX]}};
}

Field3 DmdaGrid::ghosted_field(const std::string& label) const {
  return Field3(label, ghosted_[kZ], ghosted_[kY], ghosted_[kX]);
}

Field3 DmdaGrid::owned_field(const std::string& label) const {
  return Field3(label, owned_[kZ], owned_[kY], owned_[kX]);
}

void DmdaGrid::exchange(const Field3& field) const {
  auto host = Kokkos::create_mirror_view(field);
  Kokkos::deep_copy(host, field);
  // Owned values into the global vector (DMLocalToGlobal cannot insert with periodic x).
  PetscScalar* owned = nullptr;
  SURROX_PETSC_CHECK(VecGetArray(global_.get(), &owned));
  const long xm = owned_[kX], ym = owned_[kY], zm = owned_[kZ];
  const long ox = offset_[kX], oy = offset_[kY], oz = offset_[kZ];
  for (long k = 0; k < zm; ++k)
    for (long j = 0; j < ym; ++j)
      std::copy(&host(k + oz, j + oy, ox), &host(k + oz, j + oy, ox) + xm,
                owned + (k * ym + j) * xm);
  SURROX_PETSC_CHECK(VecRestoreArray(global_.get(), &owned));
  SURROX_PETSC_CHECK(VecPlaceArray(local_.get(), host.data()));
  SURROX_PETSC_CHECK(DMGlobalToLocal(da_.get(), global_.get(), INSERT_VALUES, local_.get()));
  SURROX_PETSC_CHECK(VecResetArray(local_.get()));
  Kokkos::deep_copy(field, host);
}

void DmdaGrid::global_to_field(Vec global, const Field3& field) const {
  auto host = Kokkos::create_mirror_view(field);
  SURROX_PETSC_CHECK(VecPlaceArray(local_.get(), host.data()));
  SURROX_PETSC_CHECK(DMGlobalToLocal(da_.get(), global, INSERT_VALUES, local_.get()));
  SURROX_PETSC_CHECK(VecResetArray(local_.get()));
  Kokkos::deep_copy(field, host);
}

double DmdaGrid::global_sum(double value) const {
  double out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return out;
}

double DmdaGrid::global_max(double value) const {
  // NaN must win: reduce a flag alongside the maximum.
  double pair[2] = {std::isnan(value) ? 0.0 : value, std::isnan(value) ? 1.0 : 0.0}, out[2];
  MPI_Allreduce(pair, out, 2, MPI_DOUBLE, MPI_MAX, comm_);
  return out[1] > 0 ? NAN : out[0];
}

}  // namespace surrox::solvers

// Hdf5DatasetWriter's mesh: placing this rank's piece in the global mesh and writing /mesh.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "io/hdf5_dataset.hpp"
#include "io/hdf5_dataset_detail.hpp"
#include "io/hdf5_handle.hpp"
#include "io/hdf5_mpi.hpp"
#include "io/xdmf_writer.hpp"

namespace surrox::io {

using h5::create_dataset;
using h5::Hid;
using h5::own;
using h5::product;
using h5::write_box;

void Hdf5DatasetWriter::Impl::setup_geometry(const MeshData& local) {
  // Same kind everywhere.
  int kind_min = static_cast<int>(local.kind), kind_max = kind_min;
  MPI_Allreduce(MPI_IN_PLACE, &kind_min, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &kind_max, 1, MPI_INT, MPI_MAX, comm);
  mpi::agree(comm, kind_min == kind_max, "mesh pieces of different kinds on different ranks", true);
  kind = local.kind;

  if (is_structured(kind)) {
    const auto& e = local.extent;
    bool ok = e[1] >= e[0] && e[3] >= e[2] && e[5] >= e[4];
    if (kind == MeshKind::kStructured)
      ok = ok && local.points.extent(0) == local.number_of_points() && local.points.extent(1) == 3;
    mpi::agree(
        comm, ok,
        "invalid " + to_string(kind) + " piece: empty extent or points not (number of points) x 3",
        true);
    long lows[3] = {e[0], e[2], e[4]}, highs[3] = {e[1], e[3], e[5]};
    MPI_Allreduce(MPI_IN_PLACE, lows, 3, MPI_LONG, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, highs, 3, MPI_LONG, MPI_MAX, comm);
    for (int axis = 0; axis < 3; ++axis) {
      global_extent[2 * axis] = lows[axis];
      global_extent[2 * axis + 1] = highs[axis];
      global_dims[axis] = highs[axis] - lows[axis] + 1;
      local_offset[axis] = e[2 * axis] - lows[axis];
      local_dims[axis] = e[2 * axis + 1] - e[2 * axis] + 1;
    }
    origin = local.origin;
    spacing = local.spacing;
    MPI_Bcast(origin.data(), 3, MPI_DOUBLE, 0, comm);
    MPI_Bcast(spacing.data(), 3, MPI_DOUBLE, 0, comm);
    mpi::agree(comm,
               kind != MeshKind::kImage || (origin == local.origin && spacing == local.spacing),
               "image pieces with different origin or spacing", true);
    // Every piece must hold as many cells as its box in the global cell index space.
    std::vector<hsize_t> start, count, global;
    spatial_box(true, &start, &count, &global);
    mpi::agree(
        comm, product(count) == local.number_of_cells(),
        "a " + to_string(kind) +
            " piece must be at least 2 points thick along every axis the global extent spans",
        true);
    std::vector<hsize_t> point_count;
    spatial_box(false, &start, &point_count, &global);
    points_total = product(global);
    spatial_box(true, &start, &count, &global);
    cells_total = product(global);
    return;
  }

  // Unstructured / polydata: sanity of this piece, then prefix sums.
  const std::size_t n_points = local.points.extent(0), n_cells = local.cell_types.size();
  bool ok = local.points.extent(1) == 3 || n_points == 0;
  std::string reason = "points must be n x 3";
  if (ok && !(local.cell_offsets.size() == n_cells + 1 ||
              (n_cells == 0 && local.cell_offsets.size() <= 1))) {
    ok = false;
    reason = "cell_offsets must hold number of cells + 1 entries";
  }
  if (ok && n_cells > 0) {
    ok = local.cell_offsets.front() == 0 &&
         local.cell_offsets.back() == static_cast<std::int64_t>(local.connectivity.size()) &&
         std::is_sorted(local.cell_offsets.begin(), local.cell_offsets.end());
    if (!ok) reason = "cell_offsets must rise from 0 to the connectivity length";
  }
  if (ok) {
    for (auto id : local.connectivity)
      if (id < 0 || static_cast<std::size_t>(id) >= n_points) {
        ok = false;
        reason = "connectivity refers to point " + std::to_string(id) + " of " +
                 std::to_string(n_points);
        break;
      }
  }
  mpi::agree(comm, ok, "invalid " + to_string(kind) + " piece: " + reason, true);
  points_local = n_points;
  cells_local = n_cells;
  const auto point_prefix = mpi::exclusive_prefix(comm, points_local, &points_total);
  const auto cell_prefix = mpi::exclusive_prefix(comm, cells_local, &cells_total);
  point_offset = point_prefix;
  cell_offset = cell_prefix;
}

void Hdf5DatasetWriter::Impl::write_mesh(const MeshData& local) {
  Hid mesh = own(H5Gcreate2(file, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, where,
                 "cannot create group /mesh");
  h5::write_attribute(mesh, "kind", to_string(kind), where);
  h5::write_attribute(mesh, "number_of_points", static_cast<std::int64_t>(points_total), where);
  h5::write_attribute(mesh, "number_of_cells", static_cast<std::int64_t>(cells_total), where);
  if (is_structured(kind)) {
    h5::write_attribute(mesh, "extent",
                        std::vector<std::int64_t>(global_extent.begin(), global_extent.end()),
                        where);
    if (kind == MeshKind::kImage) {
      h5::write_attribute(mesh, "origin", std::vector<double>(origin.begin(), origin.end()), where);
      h5::write_attribute(mesh, "spacing", std::vector<double>(spacing.begin(), spacing.end()),
                          where);
      return;
    }
    std::vector<hsize_t> start, count, global;
    spatial_box(false, &start, &count, &global);
    start.push_back(0);
    count.push_back(3);
    global.push_back(3);
    Hid points = create_dataset(mesh, "points", H5T_IEEE_F64LE, global, {}, {}, false, where);
    write_box(points, H5T_NATIVE_DOUBLE, local.points.data(), start, count, dxpl, where,
              "/mesh/points");
    return;
  }

  // Points [N, 3].
  Hid points =
      create_dataset(mesh, "points", H5T_IEEE_F64LE, {points_total, 3}, {}, {}, false, where);
  write_box(points, H5T_NATIVE_DOUBLE, local.points.data(), {point_offset, 0}, {points_local, 3},
            dxpl, where, "/mesh/points");
  // Cell types [C].
  Hid types = create_dataset(mesh, "cell_types", H5T_STD_U8LE, {cells_total}, {}, {}, false, where);
  write_box(types, H5T_NATIVE_UINT8, local.cell_types.data(), {cell_offset}, {cells_local}, dxpl,
            where, "/mesh/cell_types");
  // Connectivity [L], shifted by the points of lower ranks.
  hsize_t connectivity_total = 0;
  const hsize_t connectivity_local = local.connectivity.size();
  const hsize_t connectivity_offset =
      mpi::exclusive_prefix(comm, connectivity_local, &connectivity_total);
  std::vector<std::int64_t> shifted(local.connectivity);
  for (auto& id : shifted) id += static_cast<std::int64_t>(point_offset);
  Hid connectivity = create_dataset(mesh, "connectivity", H5T_STD_I64LE, {connectivity_total}, {},
                                    {}, false, where);
  write_box(connectivity, H5T_NATIVE_INT64, shifted.data(), {connectivity_offset},
            {connectivity_local}, dxpl, where, "/mesh/connectivity");
  // Offsets [C + 1]: each rank its first C entries, the last rank also the closing one.
  std::vector<std::int64_t> offsets;
  for (std::size_t c = 0; c < cells_local; ++c)
    offsets.push_back(local.cell_offsets[c] + static_cast<std::int64_t>(connectivity_offset));
  hsize_t offsets_count = cells_local;
  if (rank == size - 1) {
    offsets.push_back(static_cast<std::int64_t>(connectivity_total));
    ++offsets_count;
  }
  Hid offsets_dataset =
      create_dataset(mesh, "cell_offsets", H5T_STD_I64LE, {cells_total + 1}, {}, {}, false, where);
  write_box(offsets_dataset, H5T_NATIVE_INT64, offsets.data(), {cell_offset}, {offsets_count}, dxpl,
            where, "/mesh/cell_offsets");

  // XDMF Mixed topology, when every cell type has an XDMF equivalent.
  std::vector<std::int64_t> mixed;
  bool mappable = true;
  static const int pixel_order[4] = {0, 1, 3, 2}, voxel_order[8] = {0, 1, 3, 2, 4, 5, 7, 6};
  for (std::size_t c = 0; c < cells_local && mappable; ++c) {
    bool needs_count = false;
    const int vtk_type = local.cell_types[c];
    const int xdmf_type = xdmf_cell_type(vtk_type, &needs_count);
    if (xdmf_type < 0) {
      mappable = false;
      break;
    }
    const auto begin = local.cell_offsets[c], end = local.cell_offsets[c + 1];
    mixed.push_back(xdmf_type);
    if (needs_count) mixed.push_back(end - begin);
    for (auto k = begin; k < end; ++k) {
      auto index = k;
      if (vtk_type == 8 && end - begin == 4) index = begin + pixel_order[k - begin];
      if (vtk_type == 11 && end - begin == 8) index = begin + voxel_order[k - begin];
      mixed.push_back(local.connectivity[index] + static_cast<std::int64_t>(point_offset));
    }
  }
  int all_mappable = mappable && cells_total > 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_mappable, 1, MPI_INT, MPI_MIN, comm);
  if (!all_mappable) return;
  hsize_t mixed_total = 0;
  const hsize_t mixed_offset = mpi::exclusive_prefix<hsize_t>(comm, mixed.size(), &mixed_total);
  Hid topology =
      create_dataset(mesh, "xdmf_topology", H5T_STD_I64LE, {mixed_total}, {}, {}, false, where);
  write_box(topology, H5T_NATIVE_INT64, mixed.data(), {mixed_offset}, {mixed.size()}, dxpl, where,
            "/mesh/xdmf_topology");
  mixed_length = mixed_total;
}

}  // namespace surrox::io

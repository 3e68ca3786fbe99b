#pragma once
// Internal to io/hdf5_dataset_*.cpp: the dataset format's identity and the writer's shared state.
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "io/hdf5_dataset.hpp"
#include "io/hdf5_handle.hpp"

namespace surrox::io {

namespace detail {

inline constexpr const char* kDatasetFormat = "surrox-dataset";
inline constexpr std::int64_t kDatasetFormatVersion = 1;

inline bool is_structured(MeshKind kind) {
  return kind == MeshKind::kImage || kind == MeshKind::kStructured;
}

}  // namespace detail

using detail::is_structured;
using detail::kDatasetFormat;
using detail::kDatasetFormatVersion;
using h5::Hid;
using h5::Where;

// The writer's state, shared by io/hdf5_dataset_writer.cpp and io/hdf5_dataset_mesh_writer.cpp.
struct Hdf5DatasetWriter::Impl {
  std::filesystem::path final_path, temporary_path;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  MeshKind kind = MeshKind::kImage;
  std::vector<FieldSpec> fields;
  Where where;

  // kImage/kStructured: global point dims (i, j, k), this piece's offset and point dims.
  std::array<long, 6> global_extent{};
  std::array<long, 3> global_dims{1, 1, 1}, local_offset{0, 0, 0}, local_dims{1, 1, 1};
  std::array<double, 3> origin{0, 0, 0}, spacing{1, 1, 1};
  // kUnstructured/kPolyData: global counts and this piece's offsets.
  hsize_t points_total = 0, cells_total = 0, points_local = 0, cells_local = 0;
  hsize_t point_offset = 0, cell_offset = 0;
  std::size_t mixed_length = 0;

  Hid file, dxpl;
  Hid time_dataset;
  std::vector<Hid> field_datasets;
  std::vector<double> times;
  bool closed = false;

  // Spatial box (slowest axis first) of this rank's points or cells in the global dataset.
  void spatial_box(bool on_cells, std::vector<hsize_t>* start, std::vector<hsize_t>* count,
                   std::vector<hsize_t>* global) const {
    start->clear();
    count->clear();
    global->clear();
    if (is_structured(kind)) {
      for (int axis = 2; axis >= 0; --axis) {
        const long n = global_dims[axis];
        if (!on_cells) {
          start->push_back(static_cast<hsize_t>(local_offset[axis]));
          count->push_back(static_cast<hsize_t>(local_dims[axis]));
          global->push_back(static_cast<hsize_t>(n));
        } else if (n > 1) {
          start->push_back(static_cast<hsize_t>(local_offset[axis]));
          count->push_back(static_cast<hsize_t>(std::max(0L, local_dims[axis] - 1)));
          global->push_back(static_cast<hsize_t>(n - 1));
        } else {
          start->push_back(0);
          count->push_back(1);
          global->push_back(1);
        }
      }
    } else {
      start->push_back(on_cells ? cell_offset : point_offset);
      count->push_back(on_cells ? cells_local : points_local);
      global->push_back(on_cells ? cells_total : points_total);
    }
  }

  void setup_geometry(const MeshData& local);
  void write_mesh(const MeshData& local);
  void create_fields();
  void close_handles() {
    field_datasets.clear();
    time_dataset.reset();
    dxpl.reset();
    file.reset();
  }
};

}  // namespace surrox::io

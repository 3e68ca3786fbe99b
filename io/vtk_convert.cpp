#include "io/vtk_convert.hpp"

#include <fmt/format.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkMatrix3x3.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkRectilinearGrid.h>
#include <vtkSmartPointer.h>
#include <vtkStructuredGrid.h>
#include <vtkTypeInt32Array.h>
#include <vtkTypeInt64Array.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <cstring>

#include "core/error.hpp"

namespace surrox::io::detail {
namespace {

// ---- VTK → MeshData ---------------------------------------------------------------------

HostArray to_host(vtkDataArray* array, const std::string& label) {
  const auto tuples = static_cast<std::size_t>(array->GetNumberOfTuples());
  const auto components = static_cast<std::size_t>(std::max(array->GetNumberOfComponents(), 1));
  HostArray out(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), tuples, components);
  if (auto* doubles = vtkDoubleArray::SafeDownCast(array)) {  // the common case: one copy
    if (tuples)
      std::memcpy(out.data(), doubles->GetPointer(0), tuples * components * sizeof(double));
    return out;
  }
  for (std::size_t t = 0; t < tuples; ++t)
    for (std::size_t c = 0; c < components; ++c)
      out(t, c) = array->GetComponent(static_cast<vtkIdType>(t), static_cast<int>(c));
  return out;
}

std::vector<NamedArray> arrays_from(vtkFieldData* data) {
  std::vector<NamedArray> out;
  if (!data) return out;
  for (int i = 0; i < data->GetNumberOfArrays(); ++i) {
    vtkDataArray* array = data->GetArray(i);  // null for string and other non-numeric arrays
    if (!array) continue;
    const std::string name = array->GetName() ? array->GetName() : "array" + std::to_string(i);
    out.push_back({name, to_host(array, name)});
  }
  return out;
}

HostArray points_from(vtkPoints* points) {
  if (!points) return HostArray("points", 0, 3);
  return to_host(points->GetData(), "points");
}

// Appends one vtkCellArray to the mesh's flat offsets/connectivity; returns each cell's size.
std::vector<std::int64_t> append_cells(vtkCellArray* cells, MeshData& mesh) {
  std::vector<std::int64_t> sizes;
  if (!cells || cells->GetNumberOfCells() == 0) return sizes;
  const std::int64_t base = mesh.connectivity.size();
  auto copy = [&](const auto* offsets, const auto* connectivity) {
    const vtkIdType n = cells->GetNumberOfCells();
    for (vtkIdType c = 0; c < n; ++c) {
      mesh.cell_offsets.push_back(base + offsets->GetValue(c + 1));
      sizes.push_back(offsets->GetValue(c + 1) - offsets->GetValue(c));
    }
    for (vtkIdType i = 0; i < connectivity->GetNumberOfValues(); ++i)
      mesh.connectivity.push_back(connectivity->GetValue(i));
  };
  if (cells->IsStorage64Bit())
    copy(cells->GetOffsetsArray64(), cells->GetConnectivityArray64());
  else
    copy(cells->GetOffsetsArray32(), cells->GetConnectivityArray32());
  return sizes;
}

// vtkPolyData keeps four cell arrays; surrox keeps one list of typed cells in that order,
// which is also the order of vtkPolyData's cell ids and thus of its cell data.
void polydata_cells(vtkPolyData* poly, MeshData& mesh) {
  for (auto size : append_cells(poly->GetVerts(), mesh))
    mesh.cell_types.push_back(size == 1 ? VTK_VERTEX : VTK_POLY_VERTEX);
  for (auto size : append_cells(poly->GetLines(), mesh))
    mesh.cell_types.push_back(size == 2 ? VTK_LINE : VTK_POLY_LINE);
  for (auto size : append_cells(poly->GetPolys(), mesh))
    mesh.cell_types.push_back(size == 3 ? VTK_TRIANGLE : size == 4 ? VTK_QUAD : VTK_POLYGON);
  for (auto size : append_cells(poly->GetStrips(), mesh)) {
    (void)size;
    mesh.cell_types.push_back(VTK_TRIANGLE_STRIP);
  }
}

void unstructured_cells(vtkUnstructuredGrid* grid, MeshData& mesh) {
  append_cells(grid->GetCells(), mesh);
  vtkUnsignedCharArray* types = grid->GetCellTypesArray();
  for (vtkIdType c = 0; types && c < types->GetNumberOfValues(); ++c)
    mesh.cell_types.push_back(types->GetValue(c));
}

// Explicit points of an image or rectilinear grid, in VTK point order.
HostArray explicit_points(vtkDataSet* data) {
  const vtkIdType n = data->GetNumberOfPoints();
  HostArray out("points", n, 3);
  double xyz[3];
  for (vtkIdType p = 0; p < n; ++p) {
    data->GetPoint(p, xyz);
    for (int d = 0; d < 3; ++d) out(p, d) = xyz[d];
  }
  return out;
}

void copy_extent(const int* extent, MeshData& mesh) {
  for (int i = 0; i < 6; ++i) mesh.extent[i] = extent[i];
}

// ---- MeshData → VTK ---------------------------------------------------------------------

vtkSmartPointer<vtkDoubleArray> to_vtk_array(const HostArray& values, const std::string& name) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(name.c_str());
  array->SetNumberOfComponents(static_cast<int>(values.extent(1)));
  array->SetNumberOfTuples(static_cast<vtkIdType>(values.extent(0)));
  double* out = array->GetPointer(0);
  for (std::size_t t = 0; t < values.extent(0); ++t)
    for (std::size_t c = 0; c < values.extent(1); ++c) *out++ = values(t, c);
  return array;
}

vtkSmartPointer<vtkPoints> to_vtk_points(const HostArray& points) {
  auto out = vtkSmartPointer<vtkPoints>::New();
  out->SetData(to_vtk_array(points, "Points"));
  return out;
}

// Cells [first, last) of the given ids, as a vtkCellArray with 64-bit storage.
vtkSmartPointer<vtkCellArray> to_vtk_cells(const MeshData& mesh,
                                           const std::vector<std::size_t>& ids) {
  vtkNew<vtkTypeInt64Array> offsets, connectivity;
  offsets->SetNumberOfValues(static_cast<vtkIdType>(ids.size() + 1));
  std::int64_t size = 0;
  offsets->SetValue(0, 0);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    size += mesh.cell_offsets[ids[i] + 1] - mesh.cell_offsets[ids[i]];
    offsets->SetValue(static_cast<vtkIdType>(i + 1), size);
  }
  connectivity->SetNumberOfValues(size);
  vtkIdType at = 0;
  for (std::size_t id : ids)
    for (auto k = mesh.cell_offsets[id]; k < mesh.cell_offsets[id + 1]; ++k)
      connectivity->SetValue(at++, mesh.connectivity[k]);
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  cells->SetData(offsets, connectivity);
  return cells;
}

void add_arrays(const std::vector<NamedArray>& arrays, vtkFieldData* out,
                const std::vector<std::size_t>* order = nullptr) {
  for (const auto& array : arrays) {
    if (!order) {
      out->AddArray(to_vtk_array(array.values, array.name));
      continue;
    }
    HostArray permuted("permuted", array.tuples(), array.components());
    for (std::size_t t = 0; t < order->size(); ++t)
      for (std::size_t c = 0; c < array.components(); ++c)
        permuted(t, c) = array.values((*order)[t], c);
    out->AddArray(to_vtk_array(permuted, array.name));
  }
}

// vtkPolyData's four cell lists, by VTK cell type; -1 for a type polydata cannot hold.
int polydata_list(std::uint8_t type) {
  switch (type) {
    case VTK_VERTEX:
    case VTK_POLY_VERTEX:
      return 0;
    case VTK_LINE:
    case VTK_POLY_LINE:
      return 1;
    case VTK_TRIANGLE:
    case VTK_QUAD:
    case VTK_POLYGON:
      return 2;
    case VTK_TRIANGLE_STRIP:
      return 3;
    default:
      return -1;
  }
}

vtkSmartPointer<vtkDataSet> polydata_to_vtk(const MeshData& mesh) {
  std::array<std::vector<std::size_t>, 4> lists;
  for (std::size_t c = 0; c < mesh.cell_types.size(); ++c)
    lists[polydata_list(mesh.cell_types[c])].push_back(c);
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(to_vtk_points(mesh.points));
  poly->SetVerts(to_vtk_cells(mesh, lists[0]));
  poly->SetLines(to_vtk_cells(mesh, lists[1]));
  poly->SetPolys(to_vtk_cells(mesh, lists[2]));
  poly->SetStrips(to_vtk_cells(mesh, lists[3]));
  // Cell data follows vtkPolyData's cell order (verts, lines, polys, strips).
  std::vector<std::size_t> order;
  for (const auto& list : lists) order.insert(order.end(), list.begin(), list.end());
  const bool reordered = !std::is_sorted(order.begin(), order.end());
  add_arrays(mesh.point_data, poly->GetPointData());
  add_arrays(mesh.cell_data, poly->GetCellData(), reordered ? &order : nullptr);
  return poly;
}

std::string arrays_problem(const std::vector<NamedArray>& arrays, std::size_t expected,
                           const char* where) {
  for (const auto& array : arrays) {
    if (array.tuples() != expected)
      return std::string(where) + " array '" + array.name + "' has " +
             std::to_string(array.tuples()) + " tuples, expected " + std::to_string(expected);
    if (array.components() == 0)
      return std::string(where) + " array '" + array.name + "' has no components";
  }
  return {};
}

std::string cells_problem(const MeshData& mesh) {
  const std::size_t n = mesh.cell_types.size();
  if (n == 0) {
    const bool offsets_ok =
        mesh.cell_offsets.empty() || (mesh.cell_offsets.size() == 1 && mesh.cell_offsets[0] == 0);
    return offsets_ok && mesh.connectivity.empty()
               ? ""
               : "cell_offsets or connectivity given without cell_types";
  }
  if (mesh.cell_offsets.size() != n + 1)
    return "cell_offsets has " + std::to_string(mesh.cell_offsets.size()) + " entries for " +
           std::to_string(n) + " cells (expected n_cells + 1)";
  if (mesh.cell_offsets.front() != 0) return "cell_offsets must start at 0";
  for (std::size_t c = 0; c < n; ++c)
    if (mesh.cell_offsets[c + 1] < mesh.cell_offsets[c])
      return "cell_offsets decrease at cell " + std::to_string(c);
  if (static_cast<std::size_t>(mesh.cell_offsets.back()) != mesh.connectivity.size())
    return "cell_offsets end at " + std::to_string(mesh.cell_offsets.back()) +
           " but connectivity has " + std::to_string(mesh.connectivity.size()) + " entries";
  const auto points = static_cast<std::int64_t>(mesh.number_of_points());
  for (auto id : mesh.connectivity)
    if (id < 0 || id >= points)
      return "connectivity refers to point " + std::to_string(id) + " of " + std::to_string(points);
  if (mesh.kind == MeshKind::kPolyData)
    for (auto type : mesh.cell_types)
      if (polydata_list(type) < 0)
        return "cell type " + std::to_string(type) + " cannot be stored in polydata";
  return {};
}

// MeshData keeps a cell's points, not a polyhedron's faces: VTK could not rebuild such a cell
// for the derived channels (it reads the points as a face stream; a real OpenFOAM mesh made it
// ask for 41 GB), so a mesh with polyhedra is refused here, for every reader.
void refuse_polyhedra(const MeshData& mesh, const std::string& source) {
  const auto polyhedra = std::count(mesh.cell_types.begin(), mesh.cell_types.end(),
                                    static_cast<std::uint8_t>(VTK_POLYHEDRON));
  if (polyhedra > 0)
    throw InputError(
        fmt::format("has {} polyhedral cells (of {}), which surrox's meshes cannot hold (they keep "
                    "no polyhedron faces); decompose them first: `foamToVTK -poly-decomp` for "
                    "OpenFOAM cases, ParaView's Tetrahedralize filter for other files",
                    polyhedra, mesh.cell_types.size()),
        {source});
}

}  // namespace

std::string mesh_problem(const MeshData& mesh) {
  const bool gridded = mesh.kind == MeshKind::kImage || mesh.kind == MeshKind::kStructured;
  if (gridded)
    for (int d = 0; d < 3; ++d)
      if (mesh.extent[2 * d + 1] < mesh.extent[2 * d])
        return "extent is empty along axis " + std::to_string(d);
  if (mesh.kind != MeshKind::kImage && mesh.points.extent(1) != 3 && mesh.points.extent(0) > 0)
    return "points must have 3 components, not " + std::to_string(mesh.points.extent(1));
  if (mesh.kind == MeshKind::kStructured && mesh.points.extent(0) != mesh.number_of_points()) {
    const auto d = mesh.dimensions();
    return "structured grid has " + std::to_string(mesh.points.extent(0)) + " points for extent " +
           std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
  }
  if (!gridded) {
    if (auto problem = cells_problem(mesh); !problem.empty()) return problem;
  }
  if (auto problem = arrays_problem(mesh.point_data, mesh.number_of_points(), "point");
      !problem.empty())
    return problem;
  return arrays_problem(mesh.cell_data, mesh.number_of_cells(), "cell");
}

MeshData mesh_from_vtk(vtkDataObject* data, const std::string& source) {
  MeshData mesh;
  auto* dataset = vtkDataSet::SafeDownCast(data);
  if (!dataset)
    throw InputError(std::string("holds a ") + (data ? data->GetClassName() : "null dataset") +
                         ", which surrox cannot read as a mesh",
                     {source});
  if (auto* image = vtkImageData::SafeDownCast(dataset)) {
    copy_extent(image->GetExtent(), mesh);
    if (image->GetDirectionMatrix()->IsIdentity()) {
      mesh.kind = MeshKind::kImage;
      std::copy_n(image->GetOrigin(), 3, mesh.origin.begin());
      std::copy_n(image->GetSpacing(), 3, mesh.spacing.begin());
    } else {  // MeshData has no direction: keep the geometry as explicit points
      mesh.kind = MeshKind::kStructured;
      mesh.points = explicit_points(image);
    }
  } else if (auto* grid = vtkStructuredGrid::SafeDownCast(dataset)) {
    mesh.kind = MeshKind::kStructured;
    copy_extent(grid->GetExtent(), mesh);
    mesh.points = points_from(grid->GetPoints());
  } else if (auto* rectilinear = vtkRectilinearGrid::SafeDownCast(dataset)) {
    mesh.kind = MeshKind::kStructured;
    copy_extent(rectilinear->GetExtent(), mesh);
    mesh.points = explicit_points(rectilinear);
  } else if (auto* unstructured = vtkUnstructuredGrid::SafeDownCast(dataset)) {
    mesh.kind = MeshKind::kUnstructured;
    mesh.points = points_from(unstructured->GetPoints());
    unstructured_cells(unstructured, mesh);
    refuse_polyhedra(mesh, source);
  } else if (auto* poly = vtkPolyData::SafeDownCast(dataset)) {
    mesh.kind = MeshKind::kPolyData;
    mesh.points = points_from(poly->GetPoints());
    polydata_cells(poly, mesh);
  } else {
    throw InputError(
        std::string("holds a ") + dataset->GetClassName() + ", which surrox cannot read", {source});
  }
  if (mesh.kind == MeshKind::kUnstructured || mesh.kind == MeshKind::kPolyData)
    mesh.cell_offsets.insert(mesh.cell_offsets.begin(), 0);
  mesh.point_data = arrays_from(dataset->GetPointData());
  mesh.cell_data = arrays_from(dataset->GetCellData());
  if (auto problem = mesh_problem(mesh); !problem.empty())
    throw InputError("inconsistent dataset: " + problem, {source});
  return mesh;
}

vtkSmartPointer<vtkDataSet> mesh_to_vtk(const MeshData& mesh) {
  if (auto problem = mesh_problem(mesh); !problem.empty())
    throw Error("cannot write " + to_string(mesh.kind) + " mesh: " + problem);
  const auto& e = mesh.extent;
  switch (mesh.kind) {
    case MeshKind::kImage: {
      auto image = vtkSmartPointer<vtkImageData>::New();
      image->SetExtent(e[0], e[1], e[2], e[3], e[4], e[5]);
      image->SetOrigin(mesh.origin.data());
      image->SetSpacing(mesh.spacing.data());
      add_arrays(mesh.point_data, image->GetPointData());
      add_arrays(mesh.cell_data, image->GetCellData());
      return image;
    }
    case MeshKind::kStructured: {
      auto grid = vtkSmartPointer<vtkStructuredGrid>::New();
      grid->SetExtent(e[0], e[1], e[2], e[3], e[4], e[5]);
      grid->SetPoints(to_vtk_points(mesh.points));
      add_arrays(mesh.point_data, grid->GetPointData());
      add_arrays(mesh.cell_data, grid->GetCellData());
      return grid;
    }
    case MeshKind::kUnstructured: {
      auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
      grid->SetPoints(to_vtk_points(mesh.points));
      std::vector<std::size_t> all(mesh.cell_types.size());
      for (std::size_t c = 0; c < all.size(); ++c) all[c] = c;
      vtkNew<vtkUnsignedCharArray> types;
      types->SetNumberOfValues(static_cast<vtkIdType>(all.size()));
      for (std::size_t c = 0; c < all.size(); ++c)
        types->SetValue(static_cast<vtkIdType>(c), mesh.cell_types[c]);
      grid->SetCells(types, to_vtk_cells(mesh, all));
      add_arrays(mesh.point_data, grid->GetPointData());
      add_arrays(mesh.cell_data, grid->GetCellData());
      return grid;
    }
    case MeshKind::kPolyData:
      return polydata_to_vtk(mesh);
  }
  throw Error("unknown mesh kind");
}

}  // namespace surrox::io::detail

#include "io/vtk_geometry.hpp"

#include <vtkCellCenters.h>
#include <vtkCellData.h>
#include <vtkCellLocator.h>
#include <vtkCellSizeFilter.h>
#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>

#include <cmath>

#include "core/error.hpp"
#include "io/vtk_convert.hpp"

namespace surrox::io {

HostArray point_coordinates(const MeshData& mesh) {
  if (mesh.kind != MeshKind::kImage) return mesh.points;
  const auto dims = mesh.dimensions();
  HostArray xyz("points", mesh.number_of_points(), 3);
  std::size_t p = 0;
  for (long k = 0; k < dims[2]; ++k)
    for (long j = 0; j < dims[1]; ++j)
      for (long i = 0; i < dims[0]; ++i, ++p) {
        const long index[3] = {mesh.extent[0] + i, mesh.extent[2] + j, mesh.extent[4] + k};
        for (int d = 0; d < 3; ++d) xyz(p, d) = mesh.origin[d] + index[d] * mesh.spacing[d];
      }
  return xyz;
}

HostArray cell_centers(const MeshData& mesh) {
  vtkSmartPointer<vtkDataSet> data = detail::mesh_to_vtk(mesh);
  vtkNew<vtkCellCenters> centers;
  centers->SetInputData(data);
  centers->VertexCellsOff();
  centers->CopyArraysOff();
  centers->Update();
  vtkPoints* points = centers->GetOutput()->GetPoints();
  const std::size_t n = mesh.number_of_cells();
  if (!points || static_cast<std::size_t>(points->GetNumberOfPoints()) != n)
    throw Error("vtkCellCenters gave " + std::to_string(points ? points->GetNumberOfPoints() : 0) +
                " centres for " + std::to_string(n) + " cells");
  HostArray out("cell_centers", n, 3);
  for (std::size_t c = 0; c < n; ++c) {
    double xyz[3];
    points->GetPoint(static_cast<vtkIdType>(c), xyz);
    for (int d = 0; d < 3; ++d) out(c, d) = xyz[d];
  }
  return out;
}

std::vector<double> cell_sizes(const MeshData& mesh) {
  vtkSmartPointer<vtkDataSet> data = detail::mesh_to_vtk(mesh);
  vtkNew<vtkCellSizeFilter> sizes;
  sizes->SetInputData(data);
  sizes->ComputeVertexCountOff();
  sizes->ComputeLengthOn();
  sizes->ComputeAreaOn();
  sizes->ComputeVolumeOn();
  sizes->ComputeSumOff();
  sizes->Update();
  auto* out = vtkDataSet::SafeDownCast(sizes->GetOutputDataObject(0));
  std::vector<double> result(mesh.number_of_cells(), 0.0);
  // Each cell has a non-zero value only in the array of its own dimension.
  for (const char* name : {"Length", "Area", "Volume"}) {
    vtkDataArray* array = out ? out->GetCellData()->GetArray(name) : nullptr;
    if (!array || static_cast<std::size_t>(array->GetNumberOfTuples()) != result.size())
      throw Error(std::string("vtkCellSizeFilter gave no cell array '") + name + "'");
    for (std::size_t c = 0; c < result.size(); ++c)
      result[c] += std::abs(array->GetTuple1(static_cast<vtkIdType>(c)));
  }
  return result;
}

std::vector<double> distance_to_cells(const MeshData& surface, const HostArray& points) {
  if (surface.number_of_cells() == 0)
    throw InputError("the surface to measure distances to has no cells");
  vtkSmartPointer<vtkDataSet> data = detail::mesh_to_vtk(surface);
  vtkNew<vtkCellLocator> locator;
  locator->SetDataSet(data);
  locator->BuildLocator();
  std::vector<double> result(points.extent(0));
  for (std::size_t p = 0; p < result.size(); ++p) {
    double query[3] = {points(p, 0), points(p, 1), points(p, 2)}, closest[3], distance2 = 0;
    vtkIdType cell = -1;
    int sub = 0;
    locator->FindClosestPoint(query, closest, cell, sub, distance2);
    result[p] = std::sqrt(distance2);
  }
  return result;
}

}  // namespace surrox::io

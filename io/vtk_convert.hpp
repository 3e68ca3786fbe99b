#pragma once
// Internal to surrox_io_vtk (and to tests that link VTK themselves): conversion between
// surrox's MeshData and VTK's dataset classes. Only forward declarations here, so that this
// header stays free of VTK includes; callers that use the results include the VTK headers.
#include <string>

#include "io/mesh_data.hpp"

class vtkDataObject;
class vtkDataSet;
template <class T>
class vtkSmartPointer;

namespace surrox::io::detail {

// Copies a VTK dataset into MeshData: every numeric point and cell array becomes Float64,
// field data and non-numeric (string) arrays are left out. vtkImageData with a non-identity
// direction and vtkRectilinearGrid become kStructured with explicit points. `source` names the
// file in error messages; an unsupported dataset type is an InputError.
MeshData mesh_from_vtk(vtkDataObject* data, const std::string& source);

// Builds the VTK dataset that matches mesh.kind, arrays as vtkDoubleArray. Throws Error when
// the mesh is inconsistent (see mesh_problem).
vtkSmartPointer<vtkDataSet> mesh_to_vtk(const MeshData& mesh);

// What is wrong with a mesh (array lengths, offsets, connectivity, extent), or "" when nothing.
std::string mesh_problem(const MeshData& mesh);

}  // namespace surrox::io::detail

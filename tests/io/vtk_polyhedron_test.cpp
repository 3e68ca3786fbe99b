// ctest-labels: unit
// ctest-libraries: surrox_io_vtk
// A .vtu with polyhedral cells (what foamToVTK writes without -poly-decomp) is refused when read,
// naming the file and the way out: surrox's meshes keep a cell's points, not its faces, and VTK
// rebuilding such a cell later read the points as a face stream (a 41 GB allocation on a real
// OpenFOAM mesh). A grid of ordinary cells beside it still reads.
#include <gtest/gtest.h>
#include <vtkCellType.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <string>

#include "core/error.hpp"
#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"

namespace {

// The unit cube, as one VTK_HEXAHEDRON or as one VTK_POLYHEDRON of its six faces.
void write_cube(const std::string& path, bool polyhedron) {
  vtkNew<vtkPoints> points;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) points->InsertNextPoint(i, j, k);
  vtkNew<vtkUnstructuredGrid> grid;
  grid->SetPoints(points);
  const vtkIdType hex[8] = {0, 1, 3, 2, 4, 5, 7, 6};
  if (polyhedron) {
    const vtkIdType faces[] = {4, 0, 2, 3, 1, 4, 4, 5, 7, 6, 4, 0, 1, 5, 4,
                               4, 2, 6, 7, 3, 4, 0, 4, 6, 2, 4, 1, 3, 7, 5};
    grid->InsertNextCell(VTK_POLYHEDRON, 8, hex, 6, faces);
  } else {
    grid->InsertNextCell(VTK_HEXAHEDRON, 8, hex);
  }
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  writer->SetFileName(path.c_str());
  writer->SetInputData(grid);
  ASSERT_EQ(writer->Write(), 1);
}

TEST(VtkPolyhedra, AreRefusedNamingTheFileAndTheWayOut) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string poly = (dir / "polyhedron.vtu").string();
  write_cube(poly, /*polyhedron=*/true);
  try {
    surrox::io::read_vtk(poly);
    FAIL() << "a polyhedral mesh was read";
  } catch (const surrox::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("polyhedron.vtu"), std::string::npos) << what;
    EXPECT_NE(what.find("has 1 polyhedral cells (of 1)"), std::string::npos) << what;
    EXPECT_NE(what.find("-poly-decomp"), std::string::npos) << what;
  }
  const std::string hex = (dir / "hexahedron.vtu").string();
  write_cube(hex, /*polyhedron=*/false);
  const auto mesh = surrox::io::read_vtk_single(hex);
  EXPECT_EQ(mesh.cell_types.size(), 1u);
}

}  // namespace

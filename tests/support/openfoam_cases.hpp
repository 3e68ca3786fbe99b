#pragma once
// OpenFOAM case folders for the tests of the OpenFOAM case reader:
//  - write_two_cell_case: a hand-written mesh of two unit cubes side by side along x (cell 0 in
//    [0,1]³, cell 1 in [1,2]×[0,1]²), patches `left` (x = 0), `right` (x = 2), `sides` (the
//    eight faces at y, z = 0, 1) and `unused` (no faces), and fields p and U at times 0 and 0.5
//    with values one can check by hand. Needs no OpenFOAM.
//  - write_cavity_case + run_openfoam: the lid-driven cavity of OpenFOAM's tutorial on an n × n
//    mesh, run for a few icoFoam steps by Debian's OpenFOAM (v1912), exported by foamToVTK.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/test_paths.hpp"

namespace surrox::testing {

inline void write_foam_file(const std::filesystem::path& path, const std::string& foam_class,
                            const std::string& body, const std::string& note = "") {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path);
  out << "FoamFile\n{\n    version 2.0;\n    format ascii;\n    class " << foam_class << ";\n"
      << (note.empty() ? "" : "    note \"" + note + "\";\n") << "    object "
      << path.filename().string() << ";\n}\n"
      << body << "\n";
}

inline const char* kTwoCellControlDict =
    "application icoFoam;\nstartFrom startTime;\nstartTime 0;\nstopAt endTime;\nendTime 0.5;\n"
    "deltaT 0.5;\nwriteControl timeStep;\nwriteInterval 1;\nwriteFormat ascii;\n"
    "writePrecision 12;\ntimeFormat general;\ntimePrecision 6;\n";

inline void write_two_cell_fields(const std::filesystem::path& dir, const std::string& p_internal,
                                  const std::string& u_internal) {
  const std::string patches_p =
      "boundaryField\n{\n  left { type fixedValue; value uniform 1; }\n"
      "  right { type fixedValue; value uniform 3; }\n"
      "  sides { type fixedValue; value uniform 0; }\n  unused { type zeroGradient; }\n}\n";
  const std::string patches_u =
      "boundaryField\n{\n  left { type fixedValue; value uniform (1 0 0); }\n"
      "  right { type fixedValue; value uniform (2 0 0); }\n"
      "  sides { type fixedValue; value uniform (0 0 0); }\n  unused { type zeroGradient; }\n}\n";
  write_foam_file(dir / "p", "volScalarField",
                  "dimensions [0 2 -2 0 0 0 0];\ninternalField " + p_internal + ";\n" + patches_p);
  write_foam_file(dir / "U", "volVectorField",
                  "dimensions [0 1 -1 0 0 0 0];\ninternalField " + u_internal + ";\n" + patches_u);
}

// Points p = i + 3 j + 6 k at (i, j, k); faces ordered as OpenFOAM wants them (the internal face
// first, normal from owner to neighbour; then each patch's faces, normals outward). With
// `polyhedra` the internal face is split into two triangles: both cells then have seven faces,
// which no VTK cell shape has, so vtkOpenFOAMReader makes them polyhedra.
inline void write_two_cell_case(const std::filesystem::path& dir, bool polyhedra = false) {
  const auto mesh = dir / "constant" / "polyMesh";
  write_foam_file(dir / "system" / "controlDict", "dictionary", kTwoCellControlDict);
  std::string points = "12\n(\n";
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) points += fmt::format("({} {} {})\n", i, j, k);
  write_foam_file(mesh / "points", "vectorField", points + ")");
  const int internal = polyhedra ? 2 : 1, faces = 10 + internal;
  write_foam_file(mesh / "faces", "faceList",
                  fmt::format("{}\n(\n{}4(0 6 9 3)\n4(2 5 11 8)\n4(0 1 7 6)\n4(1 2 8 7)\n"
                              "4(3 9 10 4)\n4(4 10 11 5)\n4(0 3 4 1)\n4(1 4 5 2)\n4(6 7 10 9)\n"
                              "4(7 8 11 10)\n)",
                              faces, polyhedra ? "3(1 4 10)\n3(1 10 7)\n" : "4(1 4 10 7)\n"));
  const std::string note =
      fmt::format("nPoints:12 nCells:2 nFaces:{} nInternalFaces:{}", faces, internal);
  write_foam_file(
      mesh / "owner", "labelList",
      fmt::format("{}\n(\n{}0\n1\n0\n1\n0\n1\n0\n1\n0\n1\n)", faces, polyhedra ? "0\n0\n" : "0\n"),
      note);
  write_foam_file(mesh / "neighbour", "labelList",
                  fmt::format("{}\n(\n{})", internal, polyhedra ? "1\n1\n" : "1\n"), note);
  write_foam_file(mesh / "boundary", "polyBoundaryMesh",
                  fmt::format("4\n(\n  left {{ type wall; nFaces 1; startFace {}; }}\n"
                              "  right {{ type patch; nFaces 1; startFace {}; }}\n"
                              "  sides {{ type wall; nFaces 8; startFace {}; }}\n"
                              "  unused {{ type patch; nFaces 0; startFace {}; }}\n)",
                              internal, internal + 1, internal + 2, faces));
  write_two_cell_fields(dir / "0", "uniform 0", "uniform (0 0 0)");
  write_two_cell_fields(dir / "0.5", "nonuniform List<scalar> 2(1.5 2.5)",
                        "nonuniform List<vector> 2((1 2 3) (4 5 6))");
}

// The lid-driven cavity (OpenFOAM's icoFoam tutorial) on n × n × 1 cells in 0.1 m × 0.1 m
// (`grading`: the ratio of the last to the first cell's size along x and y, 1 for a uniform
// mesh), with `steps` time steps of 0.005 s, each written in `format` (ascii or binary).
inline void write_cavity_case(const std::filesystem::path& dir, int n, int steps,
                              double grading = 1.0, const std::string& format = "ascii") {
  write_foam_file(dir / "system" / "controlDict", "dictionary",
                  fmt::format("application icoFoam;\nstartFrom startTime;\nstartTime 0;\n"
                              "stopAt endTime;\nendTime {};\ndeltaT 0.005;\n"
                              "writeControl timeStep;\nwriteInterval 1;\nwriteFormat {};\n"
                              "writePrecision 12;\ntimeFormat general;\ntimePrecision 6;\n"
                              "runTimeModifiable false;\n",
                              0.005 * steps, format));
  write_foam_file(
      dir / "system" / "blockMeshDict", "dictionary",
      fmt::format("scale 0.1;\nvertices ((0 0 0) (1 0 0) (1 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) "
                  "(1 1 0.1) (0 1 0.1));\nblocks (hex (0 1 2 3 4 5 6 7) ({} {} 1) simpleGrading "
                  "({} {} 1));\nedges ();\nboundary (\n  movingWall {{ type wall; faces ((3 7 6 "
                  "2)); }}\n  fixedWalls {{ type wall; faces ((0 4 7 3) (2 6 5 1) (1 5 4 0)); }}\n"
                  "  frontAndBack {{ type empty; faces ((0 3 2 1) (4 5 6 7)); }}\n);\n",
                  n, n, grading, grading));
  write_foam_file(dir / "system" / "fvSchemes", "dictionary",
                  "ddtSchemes { default Euler; }\ngradSchemes { default Gauss linear; }\n"
                  "divSchemes { default none; div(phi,U) Gauss linear; }\n"
                  "laplacianSchemes { default Gauss linear orthogonal; }\n"
                  "interpolationSchemes { default linear; }\n"
                  "snGradSchemes { default orthogonal; }\n");
  write_foam_file(dir / "system" / "fvSolution", "dictionary",
                  "solvers\n{\n  p { solver PCG; preconditioner DIC; tolerance 1e-06; relTol "
                  "0.05; }\n  pFinal { $p; relTol 0; }\n  U { solver smoothSolver; smoother "
                  "symGaussSeidel; tolerance 1e-05; relTol 0; }\n}\nPISO { nCorrectors 2; "
                  "nNonOrthogonalCorrectors 0; pRefCell 0; pRefValue 0; }\n");
  write_foam_file(dir / "constant" / "transportProperties", "dictionary", "nu 0.01;\n");
  write_foam_file(dir / "0" / "U", "volVectorField",
                  "dimensions [0 1 -1 0 0 0 0];\ninternalField uniform (0 0 0);\nboundaryField\n"
                  "{\n  movingWall { type fixedValue; value uniform (1 0 0); }\n"
                  "  fixedWalls { type noSlip; }\n  frontAndBack { type empty; }\n}\n");
  write_foam_file(dir / "0" / "p", "volScalarField",
                  "dimensions [0 2 -2 0 0 0 0];\ninternalField uniform 0;\nboundaryField\n{\n"
                  "  movingWall { type zeroGradient; }\n  fixedWalls { type zeroGradient; }\n"
                  "  frontAndBack { type empty; }\n}\n");
}

// OpenFOAM's environment: $SURROX_OPENFOAM_BASHRC, else Debian's (openfoam package) or an
// openfoam.com install's etc/bashrc. Empty when none is found.
inline std::string openfoam_bashrc() {
  if (const char* from_env = std::getenv("SURROX_OPENFOAM_BASHRC"); from_env && *from_env)
    return from_env;
  for (const char* candidate :
       {"/usr/share/openfoam/etc/bashrc", "/usr/lib/openfoam/openfoam1912/etc/bashrc"})
    if (std::filesystem::is_regular_file(candidate)) return candidate;
  return "";
}

// True when blockMesh, icoFoam and foamToVTK run (with OpenFOAM's bashrc sourced).
inline bool openfoam_available(std::string* why) {
  const std::string bashrc = openfoam_bashrc();
  const std::string probe = fmt::format(
      "bash -c '{}command -v blockMesh && command -v icoFoam && command -v foamToVTK' >/dev/null",
      bashrc.empty() ? "" : ". " + bashrc + " >/dev/null 2>&1; ");
  if (run_command(probe) == 0) return true;
  *why = fmt::format(
      "OpenFOAM is not installed (blockMesh, icoFoam and foamToVTK not found{}): run "
      "scripts/bootstrap.sh (Debian's `openfoam` package) or set SURROX_OPENFOAM_BASHRC to its "
      "etc/bashrc",
      bashrc.empty() ? ", no etc/bashrc" : " after sourcing " + bashrc);
  return false;
}

// Runs OpenFOAM commands ("blockMesh && icoFoam") in `dir` with OpenFOAM's bashrc sourced; the
// output goes to `log`. Returns the exit code.
inline int run_openfoam(const std::filesystem::path& dir, const std::string& commands,
                        std::string* log) {
  const std::string bashrc = openfoam_bashrc();
  return run_command(fmt::format("bash -c '{}cd \"{}\" && {}'",
                                 bashrc.empty() ? "" : ". " + bashrc + " >/dev/null 2>&1; ",
                                 dir.string(), commands),
                     log);
}

}  // namespace surrox::testing

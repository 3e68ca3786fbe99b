// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// ctest-timeout: 600
// `surrox predict MODEL CASE --openfoam`: Debian's OpenFOAM v1912 makes a 6 × 6 lid-driven cavity
// (blockMesh, two icoFoam steps; one wall's U refers to $internalField), an mlp is trained in
// seconds on its cells (U and p from x, y), and the prediction goes into OUT/case: only 0/ of
// the time directories, 0/U and 0/p with the predicted values per cell (read back by the case
// reader equal to prediction.vtu's cell arrays), boundary conditions as written ($internalField
// replaced by its former uniform value), and icoFoam and simpleFoam run from it. A VTK file with
// --openfoam is exit 2. OpenFOAM missing is a failure, not a skip: CI installs it
// (scripts/bootstrap.sh).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/vtk_openfoam_case.hpp"
#include "io/vtk_reader.hpp"
#include "support/openfoam_cases.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string boundary_of(const std::string& field) {
  return field.substr(field.find("boundaryField"));
}

// The dictionaries that make the cavity a steady laminar simpleFoam case (3 iterations).
void write_steady_dictionaries(const fs::path& dir) {
  using surrox::testing::write_foam_file;
  write_foam_file(dir / "system" / "controlDict", "dictionary",
                  "application simpleFoam;\nstartFrom startTime;\nstartTime 0;\nstopAt endTime;\n"
                  "endTime 3;\ndeltaT 1;\nwriteControl timeStep;\nwriteInterval 3;\n"
                  "writeFormat ascii;\nwritePrecision 8;\n");
  write_foam_file(
      dir / "system" / "fvSchemes", "dictionary",
      "ddtSchemes { default steadyState; }\ngradSchemes { default Gauss linear; }\n"
      "divSchemes { default none; div(phi,U) bounded Gauss linearUpwind grad(U);\n"
      "  div((nuEff*dev2(T(grad(U))))) Gauss linear; }\n"
      "laplacianSchemes { default Gauss linear corrected; }\n"
      "interpolationSchemes { default linear; }\nsnGradSchemes { default corrected; }\n");
  write_foam_file(
      dir / "system" / "fvSolution", "dictionary",
      "solvers {\n  p { solver PCG; preconditioner DIC; tolerance 1e-06; relTol 0.1; }\n"
      "  U { solver smoothSolver; smoother symGaussSeidel; tolerance 1e-05; relTol 0.1; }\n"
      "}\nSIMPLE { nNonOrthogonalCorrectors 0; pRefCell 0; pRefValue 0; }\n"
      "relaxationFactors { fields { p 0.3; } equations { U 0.7; } }\n");
  write_foam_file(dir / "constant" / "turbulenceProperties", "dictionary",
                  "simulationType laminar;\n");
  write_foam_file(dir / "constant" / "transportProperties", "dictionary",
                  "transportModel Newtonian;\nnu 0.01;\n");
}

TEST(PredictOpenFoam, WritesThePredictionAsTheInitialFieldsOfACopyOfTheCase) {
  std::string why;
  ASSERT_TRUE(surrox::testing::openfoam_available(&why)) << why;
  const auto dir = surrox::testing::scratch_dir();
  const fs::path cavity = dir / "cavity";
  surrox::testing::write_cavity_case(cavity, 6, 2);
  {  // fixedWalls as a fixed value that is the internal field's
    std::string u = text_of(cavity / "0" / "U");
    const std::string wall = "fixedWalls { type noSlip; }";
    u.replace(u.find(wall), wall.size(), "fixedWalls { type fixedValue; value $internalField; }");
    std::ofstream(cavity / "0" / "U") << u;
  }
  std::string log;
  ASSERT_EQ(surrox::testing::run_openfoam(cavity,
                                          "blockMesh > log.blockMesh 2>&1 && icoFoam > "
                                          "log.icoFoam 2>&1",
                                          &log),
            0)
      << log << text_of(cavity / "log.icoFoam");
  std::ofstream(dir / "train.yml") << R"(family: field
runtime: {threads: 1, log_level: warn}
data: {type: collection, files: cavity, rows: cells, inputs: [coord_x, coord_y], outputs: [U, p],
       split: [1, 0, 0]}
network: {type: mlp, hidden: [8], activation: tanh}
training: {epochs: 3, batch_size: 16, seed: 1, optimizer: {type: adam, lr: 3.0e-3},
           loss: {type: mse}}
)";
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                "train " + (dir / "train.yml").string() + " -o " + (dir / "model").string(), &out),
            0)
      << out;
  const std::string model = (dir / "model" / "model.pt").string();
  const fs::path predicted = dir / "predicted";
  ASSERT_EQ(surrox::testing::run_surrox(
                "predict " + model + " " + cavity.string() + " --openfoam -o " + predicted.string(),
                &out),
            0)
      << out;
  const fs::path copy = predicted / "case";
  EXPECT_EQ(io::openfoam_times(copy), std::vector<std::string>{"0"});
  EXPECT_TRUE(fs::is_directory(copy / "constant" / "polyMesh"));
  const std::string u = text_of(copy / "0" / "U"), p = text_of(copy / "0" / "p");
  EXPECT_NE(u.find("nonuniform List<vector>"), std::string::npos) << u;
  EXPECT_NE(p.find("nonuniform List<scalar>"), std::string::npos) << p;
  EXPECT_EQ(u.find("$internalField"), std::string::npos) << u;
  std::string want_u = boundary_of(text_of(cavity / "0" / "U"));
  want_u.replace(want_u.find("$internalField"), 14, "uniform (0 0 0)");
  EXPECT_EQ(boundary_of(u), want_u);
  EXPECT_EQ(boundary_of(p), boundary_of(text_of(cavity / "0" / "p")));

  // The copy's time 0 is the prediction (VTK reads single precision).
  const io::MeshData vtu = io::read_vtk_single(predicted / "prediction.vtu");
  const io::MeshData zero = io::read_openfoam_case(copy, "0").entries.front().mesh;
  ASSERT_EQ(zero.number_of_cells(), 36u);
  for (const char* name : {"U", "p"}) {
    const io::NamedArray *a = vtu.find_cell_array(name), *b = zero.find_cell_array(name);
    ASSERT_NE(a, nullptr) << name;
    ASSERT_NE(b, nullptr) << name;
    ASSERT_EQ(a->components(), b->components()) << name;
    for (std::size_t r = 0; r < a->tuples(); ++r)
      for (std::size_t k = 0; k < a->components(); ++k)
        EXPECT_NEAR(b->values(r, k), a->values(r, k),
                    1e-6 * std::max(1.0, std::abs(a->values(r, k))))
            << name << " cell " << r;
  }
  ASSERT_EQ(surrox::testing::run_openfoam(copy, "icoFoam > log.icoFoam 2>&1", &log), 0)
      << log << text_of(copy / "log.icoFoam");
  EXPECT_TRUE(fs::is_directory(copy / "0.01")) << text_of(copy / "log.icoFoam");

  // simpleFoam (steady SIMPLE, laminar) starts from the same predicted fields: a copy made a
  // steady case, three iterations.
  const fs::path steady = dir / "steady";
  fs::create_directories(steady);
  for (const char* part : {"0", "constant", "system"})
    fs::copy(copy / part, steady / part, fs::copy_options::recursive);
  fs::remove_all(steady / "constant" / "polyMesh");
  fs::copy(copy / "constant" / "polyMesh", steady / "constant" / "polyMesh",
           fs::copy_options::recursive);
  write_steady_dictionaries(steady);
  ASSERT_EQ(surrox::testing::run_openfoam(steady, "simpleFoam > log.simpleFoam 2>&1", &log), 0)
      << log << text_of(steady / "log.simpleFoam");
  EXPECT_TRUE(fs::is_directory(steady / "3")) << text_of(steady / "log.simpleFoam");
  EXPECT_NE(text_of(steady / "log.simpleFoam").find("Time = 3"), std::string::npos);

  // A VTK file is no case to copy.
  ASSERT_EQ(surrox::testing::run_surrox("predict " + model + " " +
                                            (predicted / "prediction.vtu").string() +
                                            " --openfoam -o " + (dir / "vtk").string(),
                                        &out),
            2)
      << out;
  EXPECT_NE(out.find("--openfoam writes into a copy of an OpenFOAM case"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace surrox

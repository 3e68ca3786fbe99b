// ctest-labels: regression
// ctest-libraries: surrox_io
// ctest-timeout: 300
// ParaView writes a multiblock shaped like its OpenFOAM reader's output (internalMesh as an
// unstructured grid, boundary/inlet and boundary/outlet as polydata, a probe image; point and
// cell arrays of one name), `surrox convert` turns it into one HDF5 file, and ParaView's XDMF
// reader opens the sidecar as a collection of the same blocks with the same points, cells and
// array ranges. Skipped, saying so, only when ParaView's Python is absent.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"

namespace surrox {
namespace {

nlohmann::json run_json(const std::string& command) {
  std::string output;
  const int status = surrox::testing::run_command(command, &output);
  EXPECT_EQ(status, 0) << command << "\n" << output;
  const auto marker = output.find("SURROX_JSON ");
  if (marker == std::string::npos) {
    ADD_FAILURE() << command << "\n" << output;
    return {};
  }
  return nlohmann::json::parse(output.substr(marker + 12, output.find('\n', marker) - marker - 12));
}

TEST(MultiblockParaView, ParaViewMultiblockConvertsAndOpensAsCollection) {
  std::string why;
  const std::string pvpython = surrox::testing::paraview_python(&why);
  if (pvpython.empty()) GTEST_SKIP() << why << "; ParaView cross-check NOT run";
  const auto dir = surrox::testing::scratch_dir();
  const auto scripts = surrox::testing::source_dir() / "tests/io";
  const auto written =
      run_json(pvpython + " " + (scripts / "write_multiblock_with_paraview.py").string() + " " +
               (dir / "foam.vtm").string());
  ASSERT_EQ(written.size(), 4u) << written.dump();

  std::string output;
  ASSERT_EQ(
      surrox::testing::run_surrox(
          "convert " + (dir / "foam.vtm").string() + " " + (dir / "foam.h5").string(), &output),
      0)
      << output;
  const auto seen =
      run_json(pvpython + " " + (scripts / "check_xdmf_blocks_with_pvpython.py").string() + " " +
               (dir / "foam.xdmf").string());
  ASSERT_EQ(seen["class"], "vtkMultiBlockDataSet") << seen.dump();
  ASSERT_EQ(seen["blocks"].size(), written.size()) << seen.dump();
  for (const auto& [name, block] : written.items()) {
    ASSERT_TRUE(seen["blocks"].contains(name)) << name << " missing: " << seen.dump();
    const auto& got = seen["blocks"][name];
    EXPECT_EQ(got["points"], block["points"]) << name;
    EXPECT_EQ(got["cells"], block["cells"]) << name;
    for (const auto& [array, range] : block["arrays"].items()) {
      // A cell array named like a point array is stored as "<name>_cell".
      std::string key = array;
      if (array.rfind("cell:", 0) == 0 && block["arrays"].contains("point:" + array.substr(5)))
        key += "_cell";
      ASSERT_TRUE(got["arrays"].contains(key)) << name << " lacks " << key << ": " << got.dump();
      // ParaView's writer stored float32; surrox widened to float64 without changing a value.
      EXPECT_EQ(got["arrays"][key][0].get<double>(), range[0].get<double>()) << name << " " << key;
      EXPECT_EQ(got["arrays"][key][1].get<double>(), range[1].get<double>()) << name << " " << key;
    }
  }
  // Polydata patches come back as unstructured grids (XDMF has one unstructured topology) and
  // the image as an image.
  EXPECT_EQ(seen["blocks"]["boundary/inlet"]["class"], "vtkUnstructuredGrid");
  EXPECT_EQ(seen["blocks"]["probe"]["class"], "vtkImageData");
}

}  // namespace
}  // namespace surrox

// ctest-libraries: surrox_io_hdf5
// ctest-labels: regression
// ctest-timeout: 600
// The .xdmf sidecar opens in ParaView 5.11: pvpython (or pvbatch) loads it with the XDMF
// reader, prints points, cells, times and array ranges as JSON, and they match what was
// written. Skipped, saying so, only when ParaView's Python is absent (scripts/bootstrap.sh
// installs it; tests/support finds it).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/hdf5_dataset.hpp"
#include "io/xdmf_writer.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

constexpr const char* kScript = R"(
import json, sys
from paraview.simple import XDMFReader
result = {}
for path in sys.argv[1:]:
    reader = XDMFReader(FileNames=[path])
    times = list(reader.TimestepValues) if reader.TimestepValues else []
    reader.UpdatePipeline(times[-1] if times else 0.0)
    info = reader.GetDataInformation()
    entry = {"points": info.GetNumberOfPoints(), "cells": info.GetNumberOfCells(), "times": times,
             "point_data": {}, "cell_data": {}}
    for key, data in (("point_data", reader.PointData), ("cell_data", reader.CellData)):
        for name in data.keys():
            array = data[name]
            entry[key][name] = {"components": array.GetNumberOfComponents(), "range": list(array.GetRange(0))}
    result[path] = entry
print("JSON" + json.dumps(result))
)";

struct Written {
  std::filesystem::path xdmf;
  std::size_t points = 0, cells = 0;
  std::vector<double> times;
  // name → (association "point"/"cell", components, min, max of component 0 at the last step)
  std::map<std::string, std::tuple<std::string, std::size_t, double, double>> arrays;
};

NamedArray ramp(const std::string& name, std::size_t n, std::size_t components, double scale) {
  NamedArray a{name, HostArray(name, n, components)};
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < components; ++c) a.values(i, c) = scale * i + c;
  return a;
}

Written write_dataset(const std::filesystem::path& path, const MeshData& mesh) {
  Written w;
  w.xdmf = xdmf_path_for(path);
  w.points = mesh.number_of_points();
  w.cells = mesh.number_of_cells();
  w.times = {0.0, 0.5, 2.0};
  Hdf5DatasetWriter writer(path, MPI_COMM_SELF, mesh,
                           {{"T", FieldSpec::On::kPoints, 1, "K", ""},
                            {"u", FieldSpec::On::kPoints, 3, "m/s", ""},
                            {"p", FieldSpec::On::kCells, 1, "Pa", ""}},
                           "", "xdmf_paraview_test");
  for (double t : w.times)
    writer.append(t, {ramp("T", w.points, 1, 1 + t), ramp("u", w.points, 3, 2 + t),
                      ramp("p", w.cells, 1, -1 - t)});
  writer.close();
  const double t = w.times.back();
  w.arrays["T"] = {"point", 1, 0.0, (1 + t) * (w.points - 1)};
  w.arrays["u"] = {"point", 3, 0.0, (2 + t) * (w.points - 1)};
  w.arrays["p"] = {"cell", 1, (-1 - t) * (w.cells - 1), 0.0};
  return w;
}

TEST(XdmfParaView, SidecarsOpenInParaView) {
  const auto dir = surrox::testing::scratch_dir();
  std::string why;
  const std::string python = surrox::testing::paraview_python(&why);
  if (python.empty()) GTEST_SKIP() << "ParaView's Python is unavailable: " << why;

  std::vector<Written> written;
  MeshData image;
  image.kind = MeshKind::kImage;
  image.extent = {0, 6, 0, 4, 0, 3};
  image.origin = {1, 2, 3};
  image.spacing = {0.5, 0.25, 2};
  written.push_back(write_dataset(dir / "image.h5", image));
  MeshData flat = image;
  flat.extent = {0, 6, 0, 4, 0, 0};
  written.push_back(write_dataset(dir / "flat.h5", flat));
  MeshData grid;
  grid.kind = MeshKind::kStructured;
  grid.extent = {0, 3, 0, 2, 0, 1};
  grid.points = HostArray("points", 24, 3);
  for (std::size_t n = 0; n < 24; ++n) {
    grid.points(n, 0) = n % 4 + 0.1 * (n / 4 % 3);
    grid.points(n, 1) = n / 4 % 3;
    grid.points(n, 2) = n / 12;
  }
  written.push_back(write_dataset(dir / "grid.h5", grid));
  MeshData mesh;
  mesh.kind = MeshKind::kUnstructured;
  mesh.points = HostArray("points", 6, 3);
  for (int n = 0; n < 6; ++n) {
    mesh.points(n, 0) = n % 3;
    mesh.points(n, 1) = n / 3;
  }
  mesh.cell_types = {9, 5, 5, 1};
  mesh.connectivity = {0, 1, 4, 3, 1, 2, 5, 1, 5, 4, 0};
  mesh.cell_offsets = {0, 4, 7, 10, 11};
  written.push_back(write_dataset(dir / "mesh.h5", mesh));

  std::ofstream(dir / "inspect.py") << kScript;
  std::string command = python + " " + (dir / "inspect.py").string();
  for (const auto& w : written) command += " " + w.xdmf.string();
  std::string output;
  const int code = surrox::testing::run_command(command, &output);
  ASSERT_EQ(code, 0) << output;
  const auto marker = output.find("JSON{");
  ASSERT_NE(marker, std::string::npos) << output;
  const auto result =
      nlohmann::json::parse(output.substr(marker + 4, output.find('\n', marker) - marker - 4));
  for (const auto& w : written) {
    SCOPED_TRACE(w.xdmf.string());
    ASSERT_TRUE(result.contains(w.xdmf.string())) << output;
    const auto& entry = result[w.xdmf.string()];
    EXPECT_EQ(entry["points"].get<std::size_t>(), w.points);
    EXPECT_EQ(entry["cells"].get<std::size_t>(), w.cells);
    EXPECT_EQ(entry["times"].get<std::vector<double>>(), w.times);
    for (const auto& [name, expected] : w.arrays) {
      const auto& [association, components, low, high] = expected;
      const auto& group = entry[association == "point" ? "point_data" : "cell_data"];
      ASSERT_TRUE(group.contains(name)) << name << " missing: " << entry.dump();
      EXPECT_EQ(group[name]["components"].get<std::size_t>(), components) << name;
      EXPECT_DOUBLE_EQ(group[name]["range"][0].get<double>(), low) << name;
      EXPECT_DOUBLE_EQ(group[name]["range"][1].get<double>(), high) << name;
    }
  }
}

}  // namespace
}  // namespace surrox::io

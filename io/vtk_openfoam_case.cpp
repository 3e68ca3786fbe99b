#include "io/vtk_openfoam_case.hpp"

#include <fmt/format.h>
#include <vtkCompositeDataSet.h>
#include <vtkDataSet.h>
#include <vtkDoubleArray.h>
#include <vtkInformation.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkNew.h>
#include <vtkOpenFOAMReader.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"
#include "io/vtk_convert.hpp"
#include "io/vtk_error_capture.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;

// Refuses, before VTK sees it, what vtkOpenFOAMReader would fail on without a clear message
// (or, for a folder given as the file name, crash on).
void openfoam_check_folder(const fs::path& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error))
    throw InputError("not an OpenFOAM case folder (no such folder)", {folder.string()});
  if (!fs::is_regular_file(folder / "system" / "controlDict", error))
    throw InputError(
        "is not an OpenFOAM case folder: it has no system/controlDict (a case folder holds "
        "system/controlDict, constant/polyMesh and its time directories)",
        {folder.string()});
  if (!fs::is_directory(folder / "constant" / "polyMesh", error)) {
    if (fs::is_directory(folder / "processor0", error))
      throw InputError(
          "is a decomposed OpenFOAM case (processor0/ but no constant/polyMesh): run "
          "reconstructPar first",
          {folder.string()});
    throw InputError(
        "is an OpenFOAM case without a mesh (no constant/polyMesh): run blockMesh (or another "
        "mesh generator) first",
        {folder.string()});
  }
}

// What VTK reported, as the reason of an InputError naming the folder.
[[noreturn]] void openfoam_fail(const std::string& what, const detail::VtkErrorCapture& capture,
                                const fs::path& folder) {
  throw InputError(what + (capture.has_errors() ? ": " + capture.summary() : ""),
                   {folder.string()});
}

struct OpenFoamTimes {
  std::vector<std::string> names;
  std::vector<double> values;
};

OpenFoamTimes openfoam_listed_times(vtkOpenFOAMReader* reader) {
  OpenFoamTimes times;
  vtkStringArray* names = reader->GetTimeNames();
  vtkDoubleArray* values = reader->GetTimeValues();
  if (!names || !values) return times;
  for (vtkIdType t = 0; t < values->GetNumberOfTuples() && t < names->GetNumberOfValues(); ++t) {
    // Without a time directory VTK lists the mesh alone as "constant" (time 0): no fields.
    if (names->GetValue(t) == "constant") continue;
    times.names.push_back(names->GetValue(t));
    times.values.push_back(values->GetValue(t));
  }
  return times;
}

// The index of `time` ("latest", a directory's name or a value) among the case's times.
std::size_t openfoam_time_index(const OpenFoamTimes& times, const std::string& time,
                                const fs::path& folder) {
  const std::string known = fmt::format("{}", fmt::join(times.names, ", "));
  if (times.names.empty())
    throw InputError(
        "has no time directory (0, or one a solver wrote): nothing to read the fields from",
        {folder.string()});
  if (time == kOpenFoamLatestTime) return times.names.size() - 1;
  for (std::size_t t = 0; t < times.names.size(); ++t)
    if (times.names[t] == time) return t;
  char* end = nullptr;
  const double value = std::strtod(time.c_str(), &end);
  if (time.empty() || *end)
    throw InputError(fmt::format("time '{}' is neither `{}` nor a number; its times: {}", time,
                                 kOpenFoamLatestTime, known),
                     {folder.string()});
  for (std::size_t t = 0; t < times.values.size(); ++t)
    if (std::abs(times.values[t] - value) <= 1e-12 * std::max(1.0, std::abs(value))) return t;
  throw InputError(fmt::format("has no time directory for time {}; its times: {} (or `{}`)", time,
                               known, kOpenFoamLatestTime),
                   {folder.string()});
}

std::string openfoam_block_name(vtkMultiBlockDataSet* parent, unsigned index) {
  std::string name;
  if (parent->HasMetaData(index) && parent->GetMetaData(index)->Has(vtkCompositeDataSet::NAME()))
    name = parent->GetMetaData(index)->Get(vtkCompositeDataSet::NAME());
  std::replace(name.begin(), name.end(), '/', '_');
  return name.empty() ? "block" + std::to_string(index) : name;
}

// Depth first, as the .vtm reader walks foamToVTK's blocks: "internalMesh", "boundary/<patch>".
// A patch without faces (OpenFOAM keeps empty patches in the boundary list) is left out.
void openfoam_collect(vtkMultiBlockDataSet* blocks, const std::string& prefix, double time,
                      const fs::path& folder, MeshCollection* out) {
  for (unsigned i = 0; i < blocks->GetNumberOfBlocks(); ++i) {
    vtkDataObject* child = blocks->GetBlock(i);
    const std::string name = prefix + openfoam_block_name(blocks, i);
    if (auto* nested = vtkMultiBlockDataSet::SafeDownCast(child)) {
      openfoam_collect(nested, name + "/", time, folder, out);
    } else if (auto* data = vtkDataSet::SafeDownCast(child); data && data->GetNumberOfCells() > 0) {
      out->entries.push_back({time, name, detail::mesh_from_vtk(data, folder.string())});
    }
  }
}

}  // namespace

bool is_openfoam_case(const std::filesystem::path& path) {
  std::error_code error;
  return fs::is_directory(path, error) &&
         fs::is_regular_file(path / "system" / "controlDict", error);
}

std::vector<std::string> openfoam_times(const std::filesystem::path& folder) {
  openfoam_check_folder(folder);
  detail::VtkErrorCapture capture;
  vtkNew<vtkOpenFOAMReader> reader;
  capture.watch(reader);
  reader->SetFileName((folder / "system" / "controlDict").c_str());
  reader->SkipZeroTimeOff();
  reader->UpdateInformation();
  if (capture.has_errors()) openfoam_fail("vtkOpenFOAMReader cannot read it", capture, folder);
  return openfoam_listed_times(reader).names;
}

MeshCollection read_openfoam_case(const std::filesystem::path& folder, const std::string& time) {
  openfoam_check_folder(folder);
  detail::VtkErrorCapture capture;
  vtkNew<vtkOpenFOAMReader> reader;
  capture.watch(reader);
  reader->SetFileName((folder / "system" / "controlDict").c_str());
  reader->SkipZeroTimeOff();        // 0/ is a time like any other
  reader->DecomposePolyhedraOff();  // one row per OpenFOAM cell, as foamToVTK writes
  reader->CreateCellToPointOn();    // point data for `rows: points`
  reader->Use64BitFloatsOn();  // binary files without an `arch` header: OpenFOAM's double build
  reader->ListTimeStepsByControlDictOff();  // every time directory present
  reader->UpdateInformation();
  if (capture.has_errors()) openfoam_fail("vtkOpenFOAMReader cannot read it", capture, folder);
  const OpenFoamTimes times = openfoam_listed_times(reader);
  const std::size_t t = openfoam_time_index(times, time, folder);
  reader->EnableAllPatchArrays();
  reader->EnableAllCellArrays();
  reader->EnableAllPointArrays();
  try {
    reader->UpdateTimeStep(times.values[t]);
  } catch (const std::exception& e) {
    throw InputError(std::string("VTK failed reading it: ") + e.what(), {folder.string()});
  }
  if (capture.has_errors() || reader->GetErrorCode() != 0)
    openfoam_fail(fmt::format("vtkOpenFOAMReader cannot read time {}", times.names[t]), capture,
                  folder);
  auto* blocks = vtkMultiBlockDataSet::SafeDownCast(reader->GetOutputDataObject(0));
  if (!blocks) openfoam_fail("vtkOpenFOAMReader produced no data", capture, folder);
  MeshCollection out;
  out.kind = MeshCollection::Kind::kMultiBlock;
  openfoam_collect(blocks, "", times.values[t], folder, &out);
  if (out.entries.empty() || out.entries.front().name != "internalMesh")
    openfoam_fail("vtkOpenFOAMReader gave no internal mesh (no cells?)", capture, folder);
  return out;
}

}  // namespace surrox::io

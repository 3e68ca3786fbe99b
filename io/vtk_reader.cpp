#include "io/vtk_reader.hpp"

#include <vtkCompositeDataSet.h>
#include <vtkDataSetReader.h>
#include <vtkInformation.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkPartitionedDataSet.h>
#include <vtkSmartPointer.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLMultiBlockDataReader.h>
#include <vtkXMLPImageDataReader.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPRectilinearGridReader.h>
#include <vtkXMLPStructuredGridReader.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLRectilinearGridReader.h>
#include <vtkXMLStructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>

#include "core/error.hpp"
#include "io/vtk_convert.hpp"
#include "io/vtk_error_capture.hpp"
#include "io/vtk_series.hpp"

namespace surrox::io {
namespace {

using XmlReaderFactory = std::function<vtkSmartPointer<vtkXMLReader>()>;

template <class Reader>
XmlReaderFactory make() {
  return [] { return vtkSmartPointer<Reader>::New(); };
}

// The XML formats, by extension. .vtm is here too: its reader is an XML reader as well.
const std::map<std::string, XmlReaderFactory>& xml_readers() {
  static const std::map<std::string, XmlReaderFactory> readers{
      {".vti", make<vtkXMLImageDataReader>()},
      {".vts", make<vtkXMLStructuredGridReader>()},
      {".vtr", make<vtkXMLRectilinearGridReader>()},
      {".vtu", make<vtkXMLUnstructuredGridReader>()},
      {".vtp", make<vtkXMLPolyDataReader>()},
      {".pvti", make<vtkXMLPImageDataReader>()},
      {".pvts", make<vtkXMLPStructuredGridReader>()},
      {".pvtr", make<vtkXMLPRectilinearGridReader>()},
      {".pvtu", make<vtkXMLPUnstructuredGridReader>()},
      {".pvtp", make<vtkXMLPPolyDataReader>()},
      {".vtm", make<vtkXMLMultiBlockDataReader>()},
  };
  return readers;
}

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
}

void require_nonempty_file(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw InputError("no such file", {path.string()});
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError("not a regular file", {path.string()});
  if (std::filesystem::file_size(path, error) == 0)
    throw InputError("file is empty", {path.string()});
}

// Runs a reader with VTK's error output captured; any error, exception or missing output
// becomes an InputError naming the file. VTK may throw bad_alloc on a corrupt size field.
vtkSmartPointer<vtkDataObject> run(vtkAlgorithm* reader, detail::VtkErrorCapture& capture,
                                   const std::filesystem::path& path) {
  capture.watch(reader);
  try {
    reader->Update();
  } catch (const std::exception& e) {
    throw InputError(std::string("VTK failed reading it (corrupt size field?): ") + e.what(),
                     {path.string()});
  }
  if (capture.has_errors())
    throw InputError("corrupt or truncated: " + capture.summary(), {path.string()});
  if (reader->GetErrorCode() != 0)
    throw InputError("VTK reports error code " + std::to_string(reader->GetErrorCode()),
                     {path.string()});
  vtkSmartPointer<vtkDataObject> output = reader->GetOutputDataObject(0);
  if (!output) throw InputError("VTK produced no data", {path.string()});
  return output;
}

vtkSmartPointer<vtkDataObject> read_xml(const std::filesystem::path& path,
                                        const XmlReaderFactory& factory) {
  detail::VtkErrorCapture capture;
  auto reader = factory();
  capture.watch(reader);
  if (!reader->CanReadFile(path.c_str()))
    throw InputError("not a VTK XML file of the type its extension '" + lower_extension(path) +
                         "' names" + (capture.has_errors() ? ": " + capture.summary() : ""),
                     {path.string()});
  reader->SetFileName(path.c_str());
  return run(reader, capture, path);
}

// VTK 9.1's legacy unstructured-grid reader dereferences a null cell array when CELL_TYPES comes
// without a CELLS section before it (found by fuzzing, fuzz/regressions/vtk): refused here.
void check_legacy_sections(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  bool unstructured = false, cells = false;
  while (std::getline(in, line)) {
    if (line.rfind("DATASET", 0) == 0)
      unstructured = line.find("UNSTRUCTURED_GRID") != std::string::npos;
    if (line.rfind("CELLS ", 0) == 0) cells = true;
    if (unstructured && line.rfind("CELL_TYPES", 0) == 0 && !cells)
      throw InputError("corrupt legacy file: CELL_TYPES without a CELLS section before it",
                       {path.string()});
  }
}

// VTK 9.1's multiblock reader dereferences a null element when the file lacks the
// <vtkMultiBlockDataSet> element its type names (found by fuzzing, fuzz/regressions/vtm).
void check_multiblock_structure(const std::filesystem::path& path) {
  detail::VtkErrorCapture capture;
  vtkNew<vtkXMLDataParser> parser;
  capture.watch(parser);
  parser->SetFileName(path.c_str());
  if (!parser->Parse() || capture.has_errors() || !parser->GetRootElement())
    throw InputError("not well-formed XML (truncated?): " + capture.summary(), {path.string()});
  vtkXMLDataElement* root = parser->GetRootElement();
  const char* type = root->GetAttribute("type");
  if (std::string(root->GetName()) != "VTKFile" || !type ||
      std::string(type) != "vtkMultiBlockDataSet" ||
      !root->FindNestedElementWithName("vtkMultiBlockDataSet"))
    throw InputError(
        "not a VTK multiblock file (expected <VTKFile type=\"vtkMultiBlockDataSet\"> holding a "
        "<vtkMultiBlockDataSet> element)",
        {path.string()});
}

vtkSmartPointer<vtkDataObject> read_legacy(const std::filesystem::path& path) {
  check_legacy_sections(path);
  detail::VtkErrorCapture capture;
  vtkNew<vtkDataSetReader> reader;
  capture.watch(reader);
  reader->SetFileName(path.c_str());
  // By default the legacy reader keeps only the first scalars/vectors/...; surrox wants all.
  reader->ReadAllScalarsOn();
  reader->ReadAllVectorsOn();
  reader->ReadAllNormalsOn();
  reader->ReadAllTensorsOn();
  reader->ReadAllColorScalarsOn();
  reader->ReadAllTCoordsOn();
  reader->ReadAllFieldsOn();
  if (reader->ReadOutputType() < 0)
    throw InputError(
        "not a legacy VTK dataset file" + (capture.has_errors() ? ": " + capture.summary() : ""),
        {path.string()});
  return run(reader, capture, path);
}

MeshData checked_mesh(vtkDataObject* data, const std::filesystem::path& path) {
  MeshData mesh = detail::mesh_from_vtk(data, path.string());
  if (mesh.number_of_points() == 0 && mesh.number_of_cells() == 0)
    throw InputError("holds no points and no cells (empty or truncated dataset)", {path.string()});
  return mesh;
}

// A block's own name, or "block<flat index>" (VTK's pre-order numbering) when it has none or
// one that cannot be a path component.
std::string vtk_block_name(vtkMultiBlockDataSet* parent, unsigned index, unsigned flat_index) {
  std::string name;
  if (parent->HasMetaData(index) && parent->GetMetaData(index)->Has(vtkCompositeDataSet::NAME()))
    name = parent->GetMetaData(index)->Get(vtkCompositeDataSet::NAME());
  std::replace(name.begin(), name.end(), '/', '_');
  if (name.empty() || name == "." || name == "..") name = "block" + std::to_string(flat_index);
  return name;
}

// Depth first through nested multiblocks (ParaView's OpenFOAM reader nests the patches under
// "boundary"): every non-empty leaf becomes an entry named by the path of block names,
// "internalMesh" or "boundary/inlet". Partitioned leaves give one entry per piece.
void collect_vtk_blocks(vtkMultiBlockDataSet* blocks, const std::string& prefix,
                        unsigned* flat_index, const std::filesystem::path& path,
                        MeshCollection* out) {
  for (unsigned i = 0; i < blocks->GetNumberOfBlocks(); ++i) {
    const unsigned own_index = ++*flat_index;
    vtkDataObject* child = blocks->GetBlock(i);
    const std::string name = prefix + vtk_block_name(blocks, i, own_index);
    if (!child) continue;
    if (auto* nested = vtkMultiBlockDataSet::SafeDownCast(child)) {
      collect_vtk_blocks(nested, name + "/", flat_index, path, out);
    } else if (auto* pieces = vtkPartitionedDataSet::SafeDownCast(child)) {
      std::vector<vtkDataObject*> present;
      for (unsigned p = 0; p < pieces->GetNumberOfPartitions(); ++p) {
        ++*flat_index;
        if (pieces->GetPartitionAsDataObject(p))
          present.push_back(pieces->GetPartitionAsDataObject(p));
      }
      for (std::size_t p = 0; p < present.size(); ++p)
        out->entries.push_back({0.0,
                                present.size() > 1 ? name + "/piece" + std::to_string(p) : name,
                                checked_mesh(present[p], path)});
    } else {
      out->entries.push_back({0.0, name, checked_mesh(child, path)});
    }
  }
}

MeshCollection multiblock_entries(vtkDataObject* data, const std::filesystem::path& path) {
  MeshCollection out;
  out.kind = MeshCollection::Kind::kMultiBlock;
  auto* blocks = vtkMultiBlockDataSet::SafeDownCast(data);
  if (!blocks)
    throw InputError(std::string("expected a multiblock dataset, got ") + data->GetClassName(),
                     {path.string()});
  unsigned flat_index = 0;
  collect_vtk_blocks(blocks, "", &flat_index, path, &out);
  if (out.entries.empty()) throw InputError("multiblock file holds no datasets", {path.string()});
  // Two blocks of one name (ParaView allows it) would collide as HDF5 groups: number them.
  std::map<std::string, int> seen;
  for (auto& entry : out.entries)
    if (int count = seen[entry.name]++; count > 0) entry.name += "_" + std::to_string(count + 1);
  return out;
}

MeshCollection pvd_entries(const std::filesystem::path& path) {
  MeshCollection out;
  out.kind = MeshCollection::Kind::kTimeSeries;
  const auto folder = path.parent_path();
  for (const auto& step : read_pvd_index(path)) {
    const auto file = step.file.is_absolute() ? step.file : folder / step.file;
    if (lower_extension(file) == ".pvd")
      throw InputError("a .pvd must not list another .pvd", {path.string()});
    MeshCollection inner;
    try {
      inner = read_vtk(file);
    } catch (const InputError& e) {
      throw InputError("step at time " + std::to_string(step.time) + ": " + e.what(),
                       {path.string()});
    }
    for (auto& entry : inner.entries) {
      entry.time = step.time;
      entry.name = step.file.generic_string() + (inner.entries.size() > 1 ? "/" + entry.name : "");
      out.entries.push_back(std::move(entry));
    }
  }
  if (out.entries.empty()) throw InputError("collection lists no datasets", {path.string()});
  return out;
}

}  // namespace

bool is_vtk_file(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return xml_readers().count(ext) || ext == ".vtk" || ext == ".pvd";
}

MeshCollection read_vtk(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  if (!is_vtk_file(path))
    throw InputError(
        "'" + ext +
            "' is not a VTK extension (.vti .vts .vtr .vtu .vtp .pvti .pvts .pvtr .pvtu .pvtp "
            ".vtm .vtk .pvd)",
        {path.string()});
  require_nonempty_file(path);
  if (ext == ".pvd") return pvd_entries(path);
  if (ext == ".vtm") check_multiblock_structure(path);
  auto data = ext == ".vtk" ? read_legacy(path) : read_xml(path, xml_readers().at(ext));
  if (ext == ".vtm") return multiblock_entries(data, path);
  MeshCollection out;
  out.entries.push_back({0.0, path.filename().string(), checked_mesh(data, path)});
  return out;
}

MeshData read_vtk_single(const std::filesystem::path& path) {
  MeshCollection collection = read_vtk(path);
  if (collection.entries.size() != 1)
    throw InputError(
        "holds " + std::to_string(collection.entries.size()) + " datasets where one was expected",
        {path.string()});
  return std::move(collection.entries.front().mesh);
}

}  // namespace surrox::io

#include "io/vtk_writer.hpp"

#include <vtkDataSet.h>
#include <vtkSmartPointer.h>
#include <vtkXMLImageDataWriter.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLStructuredGridWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/vtk_convert.hpp"
#include "io/vtk_error_capture.hpp"

namespace surrox::io {
namespace {

vtkSmartPointer<vtkXMLWriter> writer_for(MeshKind kind) {
  switch (kind) {
    case MeshKind::kImage:
      return vtkSmartPointer<vtkXMLImageDataWriter>::New();
    case MeshKind::kStructured:
      return vtkSmartPointer<vtkXMLStructuredGridWriter>::New();
    case MeshKind::kUnstructured:
      return vtkSmartPointer<vtkXMLUnstructuredGridWriter>::New();
    case MeshKind::kPolyData:
      return vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  }
  throw Error("unknown mesh kind");
}

void configure(vtkXMLWriter* writer, const VtkWriteOptions& options) {
  if (options.binary) {
    writer->SetDataModeToAppended();
    writer->EncodeAppendedDataOff();  // raw bytes, not base64: what ParaView itself writes
  } else {
    writer->SetDataModeToAscii();
  }
  if (options.compress && options.binary)
    writer->SetCompressorTypeToZLib();
  else
    writer->SetCompressorTypeToNone();
  writer->SetHeaderTypeToUInt64();  // arrays over 4 GiB
  writer->SetIdTypeToInt64();
}

}  // namespace

std::string vtk_extension(MeshKind kind) {
  switch (kind) {
    case MeshKind::kImage:
      return ".vti";
    case MeshKind::kStructured:
      return ".vts";
    case MeshKind::kUnstructured:
      return ".vtu";
    case MeshKind::kPolyData:
      return ".vtp";
  }
  return "";
}

std::filesystem::path vtk_piece_path(const std::filesystem::path& summary_path, MeshKind kind,
                                     int rank) {
  return summary_path.parent_path() /
         (summary_path.stem().string() + "_" + std::to_string(rank) + vtk_extension(kind));
}

void write_vtk(const MeshData& mesh, const std::filesystem::path& path,
               const VtkWriteOptions& options) {
  if (path.extension() != vtk_extension(mesh.kind))
    throw Error("a " + to_string(mesh.kind) + " mesh is written as " + vtk_extension(mesh.kind) +
                    ", not as '" + path.extension().string() + "'",
                {path.string()});
  vtkSmartPointer<vtkDataSet> data;
  try {
    data = detail::mesh_to_vtk(mesh);
  } catch (const Error& e) {
    throw Error(e.detail(), {path.string()});
  }
  auto writer = writer_for(mesh.kind);
  configure(writer, options);
  writer->SetInputData(data);
  try {
    AtomicFile file(path);
    detail::VtkErrorCapture capture;
    capture.watch(writer);
    writer->SetFileName(file.temporary().c_str());
    const int ok = writer->Write();
    if (!ok || capture.has_errors() || writer->GetErrorCode() != 0)
      throw Error(
          "VTK could not write it: " +
              (capture.has_errors() ? capture.summary()
                                    : "error code " + std::to_string(writer->GetErrorCode())),
          {path.string()});
    file.commit();
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error(e.what(), {path.string()});
  }
}

}  // namespace surrox::io

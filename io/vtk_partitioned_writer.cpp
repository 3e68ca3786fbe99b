// write_vtk_partitioned: every rank writes its piece with the serial XML writer, then rank 0
// writes the small summary XML (.pvti/.pvts/.pvtu/.pvtp) itself. VTK's vtkXMLP*Writer would
// need the pieces wired through a pipeline with a vtkMPIController and extent requests; the
// summary is twenty lines of XML, written here directly and checked by reading it back with
// VTK's parallel readers (and with ParaView in the pvpython test).
#include <cstdint>
#include <functional>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/vtk_writer.hpp"
#include "io/xml_text.hpp"

namespace surrox::io {
namespace {

std::string summary_extension(MeshKind kind) { return ".p" + vtk_extension(kind).substr(1); }

// Kind and array layout; every rank's must match or the summary would lie about the pieces.
std::string layout_signature(const MeshData& mesh) {
  std::string out = to_string(mesh.kind);
  for (const auto* arrays : {&mesh.point_data, &mesh.cell_data}) {
    out += '|';
    for (const auto& a : *arrays) out += a.name + ':' + std::to_string(a.components()) + ';';
  }
  if (mesh.kind == MeshKind::kImage)
    for (double v : {mesh.origin[0], mesh.origin[1], mesh.origin[2], mesh.spacing[0],
                     mesh.spacing[1], mesh.spacing[2]})
      out += '|' + std::to_string(v);
  return out;
}

bool same_on_all_ranks(const std::string& text, MPI_Comm comm) {
  const auto hash = static_cast<unsigned long long>(std::hash<std::string>{}(text));
  unsigned long long low = 0, high = 0;
  MPI_Allreduce(&hash, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
  MPI_Allreduce(&hash, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  return low == high;
}

bool failed_anywhere(bool failed, MPI_Comm comm) {
  int local = failed ? 1 : 0, any = 0;
  MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, comm);
  return any != 0;
}

std::string extent_text(const long* e) {
  std::ostringstream out;
  out << e[0] << ' ' << e[1] << ' ' << e[2] << ' ' << e[3] << ' ' << e[4] << ' ' << e[5];
  return out.str();
}

void write_arrays(std::ostringstream& xml, const char* tag, const std::vector<NamedArray>& arrays) {
  xml << "    <" << tag << ">\n";
  for (const auto& a : arrays)
    xml << "      <PDataArray type=\"Float64\" Name=\"" << detail::xml_escaped(a.name)
        << "\" NumberOfComponents=\"" << a.components() << "\"/>\n";
  xml << "    </" << tag << ">\n";
}

// `extents`: 6 per rank, global index space (image and structured only).
std::string summary_xml(const MeshData& piece, const std::filesystem::path& summary_path,
                        const std::vector<long>& extents, int ranks) {
  const bool gridded = piece.kind == MeshKind::kImage || piece.kind == MeshKind::kStructured;
  const char* type = piece.kind == MeshKind::kImage        ? "PImageData"
                     : piece.kind == MeshKind::kStructured ? "PStructuredGrid"
                     : piece.kind == MeshKind::kPolyData   ? "PPolyData"
                                                           : "PUnstructuredGrid";
  long whole[6] = {extents[0], extents[1], extents[2], extents[3], extents[4], extents[5]};
  for (int r = 1; r < ranks; ++r)
    for (int d = 0; d < 3; ++d) {
      whole[2 * d] = std::min(whole[2 * d], extents[6 * r + 2 * d]);
      whole[2 * d + 1] = std::max(whole[2 * d + 1], extents[6 * r + 2 * d + 1]);
    }
  const std::uint16_t probe = 1;
  const bool little = *reinterpret_cast<const unsigned char*>(&probe) == 1;

  std::ostringstream xml;
  xml << "<?xml version=\"1.0\"?>\n<VTKFile type=\"" << type << "\" version=\"1.0\" byte_order=\""
      << (little ? "LittleEndian" : "BigEndian") << "\" header_type=\"UInt64\">\n  <" << type;
  if (gridded) xml << " WholeExtent=\"" << extent_text(whole) << "\"";
  xml << " GhostLevel=\"0\"";
  if (piece.kind == MeshKind::kImage) {
    xml << " Origin=\"" << detail::exact_number(piece.origin[0]) << ' '
        << detail::exact_number(piece.origin[1]) << ' ' << detail::exact_number(piece.origin[2])
        << "\" Spacing=\"" << detail::exact_number(piece.spacing[0]) << ' '
        << detail::exact_number(piece.spacing[1]) << ' ' << detail::exact_number(piece.spacing[2])
        << "\" Direction=\"1 0 0 0 1 0 0 0 1\"";
  }
  xml << ">\n";
  write_arrays(xml, "PPointData", piece.point_data);
  write_arrays(xml, "PCellData", piece.cell_data);
  if (piece.kind != MeshKind::kImage)
    xml << "    <PPoints>\n      <PDataArray type=\"Float64\" Name=\"Points\" "
           "NumberOfComponents=\"3\"/>\n"
           "    </PPoints>\n";
  for (int r = 0; r < ranks; ++r) {
    xml << "    <Piece";
    if (gridded) xml << " Extent=\"" << extent_text(&extents[6 * r]) << "\"";
    xml << " Source=\""
        << detail::xml_escaped(vtk_piece_path(summary_path, piece.kind, r).filename().string())
        << "\"/>\n";
  }
  xml << "  </" << type << ">\n</VTKFile>\n";
  return xml.str();
}

}  // namespace

void write_vtk_partitioned(const MeshData& local_piece, const std::filesystem::path& summary_path,
                           MPI_Comm comm, const VtkWriteOptions& options) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const ErrorContext context{summary_path.string()};

  if (!same_on_all_ranks(layout_signature(local_piece), comm))
    throw Error("pieces differ between ranks in kind, array names/components, origin or spacing",
                context);
  if (summary_path.extension() != summary_extension(local_piece.kind))
    throw Error("a partitioned " + to_string(local_piece.kind) + " mesh is written as " +
                    summary_extension(local_piece.kind) + ", not as '" +
                    summary_path.extension().string() + "'",
                context);

  std::string failure;
  try {
    write_vtk(local_piece, vtk_piece_path(summary_path, local_piece.kind, rank), options);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (failed_anywhere(!failure.empty(), comm))
    throw Error(failure.empty() ? "another rank failed to write its piece" : failure, context);

  std::vector<long> extents(6 * static_cast<std::size_t>(ranks));
  MPI_Gather(local_piece.extent.data(), 6, MPI_LONG, extents.data(), 6, MPI_LONG, 0, comm);
  if (rank == 0) {
    try {
      write_text_atomically(summary_path, summary_xml(local_piece, summary_path, extents, ranks));
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (failed_anywhere(!failure.empty(), comm))
    throw Error(failure.empty() ? "rank 0 failed to write the summary file" : failure, context);
}

}  // namespace surrox::io

#pragma once
// Writing MeshData as VTK XML files that ParaView opens: one dataset (.vti .vts .vtu .vtp, by
// MeshData::kind), or one partitioned dataset over MPI ranks (.pvti .pvts .pvtu .pvtp). Arrays
// are written as Float64 under their own names and component counts; nothing is ever left
// half-written under a final name (temporary name + rename).
#include <mpi.h>

#include <filesystem>

#include "io/mesh_data.hpp"

namespace surrox::io {

struct VtkWriteOptions {
  bool compress = true;  // zlib-compressed blocks
  bool binary = true;    // raw appended binary (ParaView's default layout); false: ASCII
};

// Writes `mesh` to `path`, whose extension must match mesh.kind (.vti image, .vts structured,
// .vtu unstructured, .vtp polydata), else Error. An inconsistent mesh (array lengths, cell
// offsets, point ids out of range) or a failed write is an Error; no file appears at `path`
// then, and no temporary file is left behind.
void write_vtk(const MeshData& mesh, const std::filesystem::path& path,
               const VtkWriteOptions& options = {});

// Collective over `comm`: every rank passes its own piece; all pieces must have the same kind
// and the same arrays (names, component counts). Image and structured pieces carry their
// extent in the global index space (and images the same origin and spacing); unstructured and
// polydata pieces are simply their own points and cells. Rank r writes its piece to
// "<stem>_<r>.<vti|vts|vtu|vtp>" beside the summary; rank 0 then writes the summary file
// (.pvti .pvts .pvtu .pvtp, extension matching the kind) only once every piece is on disk.
// On failure every rank throws Error.
void write_vtk_partitioned(const MeshData& local_piece, const std::filesystem::path& summary_path,
                           MPI_Comm comm, const VtkWriteOptions& options = {});

// Where rank `rank`'s piece of `summary_path` goes: "<folder>/<stem>_<rank>.<ext>".
std::filesystem::path vtk_piece_path(const std::filesystem::path& summary_path, MeshKind kind,
                                     int rank);

// The serial extension of a kind, with the dot: ".vti", ".vts", ".vtu", ".vtp".
std::string vtk_extension(MeshKind kind);

}  // namespace surrox::io

#pragma once
// The full neighbour list a deep potential needs (every neighbour of each owned atom, owned or
// ghost), built from coordinates alone by binning. LAMMPS's own full list would need
// neigh_request.h, which Debian's liblammps-dev does not ship; LAMMPS still communicates
// ghosts out to the pair cutoff plus the skin, and this list is rebuilt whenever LAMMPS
// reneighbours (its ghost indices change only then), with the same skin.
#include <vector>

namespace surrox::lammps {

struct GhostNeighborList {
  std::vector<long> first;      // (nlocal + 1)
  std::vector<long> neighbors;  // atom i's: neighbors[first[i]] … neighbors[first[i + 1] − 1]
};

// x: (nall, 3) row-major, owned atoms first; pairs closer than `cutoff`.
GhostNeighborList build_ghost_neighbor_list(const double* x, long nlocal, long nall, double cutoff);

}  // namespace surrox::lammps

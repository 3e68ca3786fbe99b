#include "solvers/md/deepmd_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"

namespace surrox::solvers::md {

void DeepmdRecorder::setup(long every, long first, long set_size,
                           std::vector<std::string> type_map) {
  every_ = every;
  first_ = first;
  set_size_ = set_size;
  frames_ = io::DeepmdFrames();
  frames_.type_map = std::move(type_map);
}

void DeepmdRecorder::record(const System& s, const VirialView& vatom, double energy,
                            MPI_Comm comm) {
  // Rows of 8 doubles per owned atom: id, type, x (shifted so the box starts at 0), f.
  constexpr int kRow = 8;
  const long n = s.nlocal;
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.f);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.type);
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), vatom);
  std::vector<double> rows(kRow * n);
  double virial[6] = {0, 0, 0, 0, 0, 0};
  for (long i = 0; i < n; ++i) {
    double* r = &rows[kRow * i];
    r[0] = static_cast<double>(hg(i));
    r[1] = ht(i);
    for (int d = 0; d < 3; ++d) {
      double x = hx(i, d);
      const double lo = s.box.lo[d], length = s.box.length(d);
      x -= std::floor((x - lo) / length) * length;  // wrap: atoms move between builds
      r[2 + d] = x - lo;
      r[5 + d] = hf(i, d);
    }
    for (int c = 0; c < 6; ++c) virial[c] += hv(i, c);
  }
  MPI_Allreduce(MPI_IN_PLACE, virial, 6, MPI_DOUBLE, MPI_SUM, comm);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  int count = static_cast<int>(rows.size());
  std::vector<int> counts(ranks), offsets(ranks + 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  for (int r = 0; r < ranks; ++r) offsets[r + 1] = offsets[r] + counts[r];
  std::vector<double> all(rank == 0 ? offsets[ranks] : 0);
  MPI_Gatherv(rows.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE,
              0, comm);
  if (rank != 0) return;
  const long natoms = static_cast<long>(all.size()) / kRow;
  std::vector<long> order(natoms);
  std::iota(order.begin(), order.end(), 0L);
  std::sort(order.begin(), order.end(),
            [&](long a, long b) { return all[kRow * a] < all[kRow * b]; });
  std::vector<int> types(natoms);
  for (long k = 0; k < natoms; ++k) {
    const double* r = &all[kRow * order[k]];
    const int type = static_cast<int>(r[1]);
    if (type < 1 || type > static_cast<int>(frames_.type_map.size()))
      throw InputError(
          fmt::format("deepmd.type_map names {} element(s) but the system has atoms of type {}",
                      frames_.type_map.size(), type));
    types[k] = type - 1;
    for (int d = 0; d < 3; ++d) {
      frames_.coord.push_back(r[2 + d]);
      frames_.force.push_back(r[5 + d]);
    }
  }
  if (frames_.frames == 0) frames_.types = types;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) frames_.box.push_back(a == b ? s.box.length(a) : 0.0);
  // xx yy zz xy xz yz -> the symmetric 3x3 tensor, row-major (the total virial of a
  // rotation-invariant potential is symmetric).
  const int index[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) frames_.virial.push_back(virial[index[a][b]]);
  frames_.energy.push_back(energy);
  ++frames_.frames;
}

void DeepmdRecorder::write(const std::filesystem::path& output_dir, int rank) const {
  if (rank != 0 || frames_.frames == 0) return;
  io::write_deepmd_system(output_dir / "deepmd", frames_, set_size_);
}

namespace {

// A frames × width block of `values` as a checkpoint array, and back.
void save_block(io::Hdf5Checkpoint& c, const std::string& name, const std::vector<double>& values,
                long frames) {
  const long width = frames > 0 ? static_cast<long>(values.size()) / frames : 0;
  io::HostArray a(name, frames, width);
  for (long k = 0; k < frames * width; ++k) a.data()[k] = values[k];
  c.arrays.push_back({name, a});
}

std::vector<double> load_block(const io::Hdf5Checkpoint& c, const std::string& name) {
  const io::NamedArray& a = c.array(name);
  return std::vector<double>(a.values.data(), a.values.data() + a.values.size());
}

}  // namespace

void DeepmdRecorder::save(io::Hdf5Checkpoint& c) const {
  if (frames_.frames == 0) return;  // ranks other than 0 hold none
  const long n = frames_.frames;
  save_block(c, "md_deepmd_types", std::vector<double>(frames_.types.begin(), frames_.types.end()),
             1);
  save_block(c, "md_deepmd_coord", frames_.coord, n);
  save_block(c, "md_deepmd_box", frames_.box, n);
  save_block(c, "md_deepmd_energy", frames_.energy, n);
  save_block(c, "md_deepmd_force", frames_.force, n);
  save_block(c, "md_deepmd_virial", frames_.virial, n);
}

void DeepmdRecorder::load(const io::Hdf5Checkpoint& c) {
  std::vector<std::string> type_map = std::move(frames_.type_map);
  frames_ = io::DeepmdFrames();
  frames_.type_map = std::move(type_map);
  if (!c.find_array("md_deepmd_types")) return;
  for (double t : load_block(c, "md_deepmd_types")) frames_.types.push_back(static_cast<int>(t));
  frames_.coord = load_block(c, "md_deepmd_coord");
  frames_.box = load_block(c, "md_deepmd_box");
  frames_.energy = load_block(c, "md_deepmd_energy");
  frames_.force = load_block(c, "md_deepmd_force");
  frames_.virial = load_block(c, "md_deepmd_virial");
  frames_.frames = static_cast<long>(frames_.energy.size());
}

}  // namespace surrox::solvers::md

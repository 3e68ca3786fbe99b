#include "solvers/md/dump_frames.hpp"

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::solvers::md {

void DumpFrames::add(long step, const AtomData& d) {
  steps_.push_back(step);
  counts_.push_back(d.natoms());
  boxes_.push_back({d.box.lo[0], d.box.lo[1], d.box.lo[2], d.box.hi[0], d.box.hi[1], d.box.hi[2]});
  for (long i = 0; i < d.natoms(); ++i) {
    std::array<double, 3> x = d.x[i];
    for (int k = 0; k < 3; ++k) {
      if (x[k] >= d.box.hi[k]) x[k] -= d.box.length(k);
      if (x[k] < d.box.lo[k]) x[k] += d.box.length(k);
    }
    const double row[kRow] = {static_cast<double>(d.tag[i]),
                              static_cast<double>(d.type[i]),
                              x[0],
                              x[1],
                              x[2],
                              d.v[i][0],
                              d.v[i][1],
                              d.v[i][2]};
    rows_.insert(rows_.end(), row, row + kRow);
  }
}

void DumpFrames::write(const std::filesystem::path& file) const {
  std::string text;
  std::size_t at = 0;
  for (std::size_t f = 0; f < steps_.size(); ++f) {
    text +=
        fmt::format("ITEM: TIMESTEP\n{}\nITEM: NUMBER OF ATOMS\n{}\nITEM: BOX BOUNDS pp pp pp\n",
                    steps_[f], counts_[f]);
    for (int k = 0; k < 3; ++k)
      text += fmt::format("{:.17g} {:.17g}\n", boxes_[f][k], boxes_[f][3 + k]);
    text += "ITEM: ATOMS id type x y z vx vy vz\n";
    for (long i = 0; i < counts_[f]; ++i, at += kRow) {
      const double* r = &rows_[at];
      text += fmt::format("{} {} {:.10g} {:.10g} {:.10g} {:.10g} {:.10g} {:.10g}\n",
                          static_cast<long>(r[0]), static_cast<int>(r[1]), r[2], r[3], r[4], r[5],
                          r[6], r[7]);
    }
  }
  write_text_atomically(file, text);
}

void DumpFrames::save(io::Hdf5Checkpoint& c) const {
  if (steps_.empty()) return;
  const long frames = static_cast<long>(steps_.size());
  io::HostArray head("md_dump_frames", frames, 8);
  for (long f = 0; f < frames; ++f) {
    head(f, 0) = static_cast<double>(steps_[f]);
    head(f, 1) = static_cast<double>(counts_[f]);
    for (int k = 0; k < 6; ++k) head(f, 2 + k) = boxes_[f][k];
  }
  const long rows = static_cast<long>(rows_.size()) / kRow;
  io::HostArray atoms("md_dump_atoms", rows, kRow);
  for (long i = 0; i < rows; ++i)
    for (int k = 0; k < kRow; ++k) atoms(i, k) = rows_[kRow * i + k];
  c.arrays.push_back({"md_dump_frames", head});
  c.arrays.push_back({"md_dump_atoms", atoms});
}

void DumpFrames::load(const io::Hdf5Checkpoint& c) {
  steps_.clear();
  counts_.clear();
  boxes_.clear();
  rows_.clear();
  const io::NamedArray* head = c.find_array("md_dump_frames");
  const io::NamedArray* atoms = c.find_array("md_dump_atoms");
  if (!head || !atoms) return;
  long total = 0;
  for (long f = 0; f < static_cast<long>(head->values.extent(0)); ++f) {
    steps_.push_back(static_cast<long>(head->values(f, 0)));
    counts_.push_back(static_cast<long>(head->values(f, 1)));
    total += counts_.back();
    std::array<double, 6> box;
    for (int k = 0; k < 6; ++k) box[k] = head->values(f, 2 + k);
    boxes_.push_back(box);
  }
  const long rows = static_cast<long>(atoms->values.extent(0));
  if (rows != total || atoms->values.extent(1) != kRow)
    throw InputError(fmt::format(
        "the checkpoint's dump frames list {} atom rows but md_dump_atoms holds {}", total, rows));
  for (long i = 0; i < rows; ++i)
    for (int k = 0; k < kRow; ++k) rows_.push_back(atoms->values(i, k));
}

}  // namespace surrox::solvers::md

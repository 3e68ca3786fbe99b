#pragma once
// For the LAMMPS tests: an in-process LAMMPS with surrox's pair styles, a perturbed diamond
// silicon frame written as a LAMMPS data file (the same atoms on any rank count), and the
// frame's reference from the model itself (surrogates/deep_potential predict()).
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "deep_potential/deep_potential_pair_support.hpp"
#include "force.h"
#include "input.h"
#include "lammps.h"
#include "lammps/pair_surrox_deep.hpp"
#include "library.h"
#include "pair.h"
#include "support/test_paths.hpp"

namespace surrox::lammps::test {

namespace dp = surrogates::deep_potential;

struct Frame {
  std::vector<double> coord;    // atoms × 3, in atom-ID order
  std::array<double, 9> box{};  // rows a, b, c: (lx 0 0), (xy ly 0), (xz yz lz)
  long atoms() const { return static_cast<long>(coord.size() / 3); }
};

// Diamond silicon, replicate³ cells, atoms displaced by up to 0.1 Å; a tilt shears b and c.
inline Frame silicon_frame(int replicate = 2, double tilt = 0) {
  const double a = 5.431, l = replicate * a;
  const double basis[8][3] = {{0, 0, 0},       {0, .5, .5},     {.5, 0, .5},     {.5, .5, 0},
                              {.25, .25, .25}, {.25, .75, .75}, {.75, .25, .75}, {.75, .75, .25}};
  Frame f;
  f.box = {l, 0, 0, tilt, l, 0, 0.5 * tilt, -0.5 * tilt, l};
  long i = 0;
  for (int x = 0; x < replicate; ++x)
    for (int y = 0; y < replicate; ++y)
      for (int z = 0; z < replicate; ++z)
        for (const auto& b : basis) {
          // Fractional position through the (possibly tilted) lattice vectors, then a jiggle.
          const double s[3] = {(x + b[0]) / replicate, (y + b[1]) / replicate,
                               (z + b[2]) / replicate};
          for (int d = 0; d < 3; ++d)
            f.coord.push_back(s[0] * f.box[d] + s[1] * f.box[3 + d] + s[2] * f.box[6 + d] +
                              0.1 * std::sin(3.0 * i + d));
          ++i;
        }
  return f;
}

inline void write_data_file(const std::string& path, const Frame& f) {
  std::ofstream out(path);
  out.precision(17);
  out << "surrox test frame\n\n" << f.atoms() << " atoms\n1 atom types\n\n";
  out << "0 " << f.box[0] << " xlo xhi\n0 " << f.box[4] << " ylo yhi\n0 " << f.box[8]
      << " zlo zhi\n";
  if (f.box[3] != 0 || f.box[6] != 0 || f.box[7] != 0)
    out << f.box[3] << " " << f.box[6] << " " << f.box[7] << " xy xz yz\n";
  out << "\nMasses\n\n1 28.06\n\nAtoms # atomic\n\n";
  for (long i = 0; i < f.atoms(); ++i)
    out << i + 1 << " 1 " << f.coord[3 * i] << " " << f.coord[3 * i + 1] << " "
        << f.coord[3 * i + 2] << "\n";
}

// One LAMMPS instance on `comm` with surrox's pair styles, its screen output in `dir`'s
// log.lammps (LAMMPS's errors end the process with code 1; the log says why).
struct Lammps {
  explicit Lammps(const std::filesystem::path& dir, MPI_Comm comm = MPI_COMM_WORLD) {
    const std::string log = (dir / "log.lammps").string();
    const char* args[] = {"surrox-test", "-log", log.c_str(), "-screen", "none", "-nocite"};
    lmp = std::make_unique<LAMMPS_NS::LAMMPS>(6, const_cast<char**>(args), comm);
    register_pair_styles(lmp.get());
  }
  void operator()(const std::string& commands) { lmp->input->one(commands); }
  // Every atom's per-atom vector or array `name` (x, f, ...) in atom-ID order, on every rank.
  std::vector<double> gather(const char* name, int count) {
    std::vector<double> v(count * static_cast<long>(lammps_get_natoms(lmp.get())));
    lammps_gather_atoms(lmp.get(), const_cast<char*>(name), 1, count, v.data());
    return v;
  }
  // The pair's energy and global virial (xx yy zz xy xz yz) summed over ranks.
  double energy() const { return sum(lmp->force->pair->eng_vdwl); }
  std::array<double, 6> virial() const {
    std::array<double, 6> w{};
    for (int q = 0; q < 6; ++q) w[q] = sum(lmp->force->pair->virial[q]);
    return w;
  }
  double sum(double v) const {
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, lmp->world);
    return v;
  }
  std::unique_ptr<LAMMPS_NS::LAMMPS> lmp;
};

// The frame as a data file in `dir`, read by LAMMPS with pair_style `pair`, run 0.
inline void start(Lammps& l, const std::filesystem::path& dir, const Frame& f,
                  const std::string& pair, const std::string& coeff = "pair_coeff * * Si") {
  const std::string data = (dir / "frame.data").string();
  int rank = 0;
  MPI_Comm_rank(l.lmp->world, &rank);
  if (rank == 0) write_data_file(data, f);
  MPI_Barrier(l.lmp->world);
  l("units metal");
  l("atom_modify map array");
  l("read_data " + data);
  l("pair_style " + pair);
  l(coeff);
  l("neighbor 1.0 bin");
  l("thermo_style custom step pe press");
  l("run 0");
}

// The model's own energy, forces (atom-ID order) and virial (9) on the periodic frame.
inline dp::Prediction frame_reference(const std::string& model_path, const Frame& f) {
  auto model = dp::load_model(model_path);
  const auto& c = model->config();
  const std::vector<int> types(f.atoms(), 0);
  return dp::predict(
      model,
      dp::make_batch({dp::build_environment(f.coord.data(), f.box.data(), types, c.rcut, c.sel)},
                     types, 1));
}

// An untrained model (deep_potential/deep_potential_pair_support.hpp) written in `dir` by rank 0.
inline std::string scratch_model(const std::filesystem::path& dir, const std::string& name,
                                 long seed, const std::string& precision = "float64") {
  const std::string path = (dir / name).string();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) couplers::dp_pair_test::write_pair_test_model(path, seed, false, precision);
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

}  // namespace surrox::lammps::test

// ctest-labels: unit
// ctest-libraries: surrox_cli
// The MD engine piece by piece: data files, neighbour lists against brute force, forces
// against finite differences of the energy, exact restarts, thermostats and bad input.
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <random>
#include <set>

#include "io/hdf5_checkpoint.hpp"
#include "md/md_test_support.hpp"
#include "solvers/md/data_file.hpp"
#include "solvers/md/lattice.hpp"
#include "solvers/md/pair_lj_cut.hpp"
#include "solvers/md/pair_sw.hpp"

namespace surrox::solvers::md::test {
namespace {

// ---------------------------------------------------------------- data files

TEST(MdDataFile, ReadsLammpsWriteDataAndRoundTrips) {
  const AtomData a = read_data_file(md_dir() / "lj_n5.data");
  ASSERT_EQ(a.natoms(), 500);
  EXPECT_TRUE(a.has_velocities);
  EXPECT_EQ(a.ntypes, 1);
  EXPECT_DOUBLE_EQ(a.mass[1], 1.0);
  EXPECT_DOUBLE_EQ(a.box.hi[0], 8.397980956912537);
  const auto path = surrox::testing::scratch_dir() / "round.data";
  write_data_file(path, a, "lj", 0);
  const AtomData b = read_data_file(path);
  ASSERT_EQ(b.natoms(), a.natoms());
  for (long i = 0; i < a.natoms(); ++i) {
    EXPECT_EQ(a.tag[i], b.tag[i]);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(a.x[i][d], b.x[i][d]);  // bit for bit
      EXPECT_EQ(a.v[i][d], b.v[i][d]);
    }
  }
}

std::string small_data(const std::string& atoms_body, const std::string& extra = "") {
  return "test\n\n2 atoms\n1 atom types\n\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n\nMasses\n\n1 "
         "1.0\n\n"
         "Atoms # atomic\n\n" +
         atoms_body + extra;
}

// The InputError message for a data file with this text.
std::string data_error(const std::string& text) {
  const auto path = surrox::testing::scratch_dir() / "bad.data";
  std::ofstream(path) << text;
  try {
    read_data_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for:\n" << text;
  return {};
}

TEST(MdDataFile, ReportsEachKindOfBadInput) {
  // A well-formed file reads.
  {
    const auto path = surrox::testing::scratch_dir() / "good.data";
    std::ofstream(path) << small_data("1 1 1 1 1\n2 1 2 2 2\n");
    EXPECT_EQ(read_data_file(path).natoms(), 2);
  }
  std::string m = data_error(small_data("1 1 1 1 1\n2 1 2 2 12.5\n"));
  EXPECT_NE(m.find("atom 2 lies outside the box"), std::string::npos) << m;
  EXPECT_NE(m.find(":17"), std::string::npos) << m;  // the line of atom 2
  m = data_error(small_data("1 1 1 1 1\n2 1 2 two 2\n"));
  EXPECT_NE(m.find("'two' is not a number"), std::string::npos) << m;
  m = data_error(small_data("1 1 1 1 1\n"));
  EXPECT_NE(m.find("ends after 1 of 2"), std::string::npos) << m;
  m = data_error(small_data("1 1 1 1 1\n1 1 2 2 2\n"));
  EXPECT_NE(m.find("atom id 1 appears twice"), std::string::npos) << m;
  m = data_error(small_data("1 1 1 1 1\n2 3 2 2 2\n"));
  EXPECT_NE(m.find("type 3 outside 1..1"), std::string::npos) << m;
  m = data_error(small_data("1 1 1 1 1\n2 1 2 2\n"));
  EXPECT_NE(m.find("found 4 values"), std::string::npos) << m;
  m = data_error(small_data("1 1 1 1 1\n2 1 2 2 2\n", "\nVelocities\n\n1 0 0 0\n7 0 0 0\n"));
  EXPECT_NE(m.find("velocity for atom 7"), std::string::npos) << m;
  m = data_error("test\n\n2 atoms\n1 atom types\n0 10 xlo xhi\n\nAtoms\n\n1 1 1 1 1\n2 1 2 2 2\n");
  EXPECT_NE(m.find("ylo yhi"), std::string::npos) << m;
  m = data_error(
      "test\n\n2 atoms\n1 atom types\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n\nAtoms\n\n1 1 1 1 "
      "1\n"
      "2 1 2 2 2\n");
  EXPECT_NE(m.find("no mass for atom type 1"), std::string::npos) << m;
  m = data_error("test\n\n2 atomz\n");
  EXPECT_NE(m.find("unrecognised header line"), std::string::npos) << m;
}

// ---------------------------------------------------------------- neighbour lists

// Pairs (id_i, id_j, image) within rc + skin by brute force over the 27 nearest images.
std::multiset<std::pair<long, long>> brute_force_pairs(const AtomData& a, double cut) {
  std::multiset<std::pair<long, long>> pairs;
  for (long i = 0; i < a.natoms(); ++i)
    for (long j = 0; j < a.natoms(); ++j)
      for (int sx = -1; sx <= 1; ++sx)
        for (int sy = -1; sy <= 1; ++sy)
          for (int sz = -1; sz <= 1; ++sz) {
            if (i == j && sx == 0 && sy == 0 && sz == 0) continue;
            const double s[3] = {double(sx), double(sy), double(sz)};
            double r2 = 0;
            for (int d = 0; d < 3; ++d) {
              const double dx = a.x[i][d] - a.x[j][d] - s[d] * a.box.length(d);
              r2 += dx * dx;
            }
            if (r2 < cut * cut) pairs.insert({a.tag[i], a.tag[j]});
          }
  return pairs;
}

AtomData random_gas(long n, double L, unsigned seed) {
  AtomData a;
  a.box.hi = {L, 0.8 * L, 1.1 * L};
  a.mass = {0, 1};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (long i = 0; i < n; ++i) {
    a.tag.push_back(i + 1);
    a.type.push_back(1);
    a.x.push_back({u(rng) * a.box.hi[0], u(rng) * a.box.hi[1], u(rng) * a.box.hi[2]});
  }
  a.v.assign(n, {0, 0, 0});
  a.image.assign(n, {0, 0, 0});
  return a;
}

std::multiset<std::pair<long, long>> listed_pairs(System& s, const NeighborList& list,
                                                  bool both_ways) {
  auto tag = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
  const NeighborView view = list.view();
  Kokkos::View<long**, Kokkos::LayoutRight> listed("listed", s.nlocal, list.max_neighbors());
  Kokkos::View<int*> count("count", s.nlocal);
  Kokkos::parallel_for(
      "listed_pairs", s.nlocal, KOKKOS_LAMBDA(long i) {
        count(i) = view.count(i);
        for (int k = 0; k < view.count(i); ++k) listed(i, k) = view(i, k);
      });
  auto neigh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), listed);
  auto n = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
  std::multiset<std::pair<long, long>> pairs;
  for (long i = 0; i < s.nlocal; ++i)
    for (int k = 0; k < n(i); ++k) {
      pairs.insert({tag(i), tag(neigh(i, k))});
      if (both_ways) pairs.insert({tag(neigh(i, k)), tag(i)});
    }
  return pairs;
}

TEST(MdNeighborList, HalfAndFullListsHoldExactlyThePairsWithinTheCutoff) {
  // Boxes from barely above cutoff + skin (several images of one atom) to many cells.
  for (double L : {3.6, 4.5, 9.0}) {
    AtomData a = random_gas(static_cast<long>(0.8 * L * L * L), L, 7);
    for (bool half : {true, false}) {
      System s;
      s.load(a);
      NeighborList list;
      list.setup(s.box, 2.5, 0.3, half);
      list.build(s, 0);
      const auto expected = brute_force_pairs(a, 2.8);
      const auto got = listed_pairs(s, list, half);
      EXPECT_EQ(got.size(), expected.size()) << "L " << L << " half " << half;
      EXPECT_TRUE(got == expected) << "L " << L << " half " << half;
    }
  }
}

TEST(MdNeighborList, RejectsABoxShorterThanTheCutoffPlusSkin) {
  System s;
  s.load(random_gas(10, 2.0, 1));
  NeighborList list;
  try {
    list.setup(s.box, 2.5, 0.3, true);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("shorter than cutoff + skin"), std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------- forces

// Potential energy and forces of a configuration (owned atoms, in data order).
double energy_of(const AtomData& a, Potential& p,
                 std::vector<std::array<double, 3>>* forces = nullptr) {
  System s;
  s.load(a);
  NeighborList list;
  list.setup(s.box, p.cutoff(), 0.5, p.half_list());
  list.build(s, 0);
  Kokkos::deep_copy(s.f, 0.0);
  ForceTally tally;
  tally.energy = true;
  p.compute(s, list, tally);
  const double e = tally.potential;
  list.reverse_forces(s);
  if (forces) {
    // The build sorts atoms by cell: put the forces back in data order through the ids.
    auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.f);
    auto tag = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
    std::map<long, long> row;
    for (long i = 0; i < a.natoms(); ++i) row[a.tag[i]] = i;
    forces->resize(s.nlocal);
    for (long i = 0; i < s.nlocal; ++i) (*forces)[row.at(tag(i))] = {f(i, 0), f(i, 1), f(i, 2)};
  }
  return e;
}

void expect_forces_are_minus_energy_gradient(AtomData a, Potential& p, double h, double tol) {
  std::vector<std::array<double, 3>> f;
  energy_of(a, p, &f);
  for (long i : {0L, 7L, a.natoms() - 1}) {
    for (int d = 0; d < 3; ++d) {
      AtomData plus = a, minus = a;
      plus.x[i][d] += h;
      minus.x[i][d] -= h;
      const double numeric = -(energy_of(plus, p) - energy_of(minus, p)) / (2 * h);
      EXPECT_NEAR(f[i][d], numeric, tol * std::max(1.0, std::fabs(numeric)))
          << "atom " << i << " dir " << d;
    }
  }
}

AtomData perturbed_lattice(const std::string& style, double a, long n, double amplitude) {
  AtomData data = make_lattice(style, a, {n, n, n}, 1.0);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  for (auto& x : data.x)
    for (double& c : x) c += u(rng) + (c < amplitude ? amplitude : 0.0);
  return data;
}

TEST(MdForces, LennardJonesForcesAreMinusTheEnergyGradient) {
  PairLjCut lj(1.0, 1.0, 2.5, true);
  expect_forces_are_minus_energy_gradient(perturbed_lattice("fcc", 1.6796, 4, 0.1), lj, 1e-6, 1e-6);
}

TEST(MdForces, StillingerWeberForcesAreMinusTheEnergyGradient) {
  PairSw sw((md_dir() / "Si.sw").string(), "Si");
  expect_forces_are_minus_energy_gradient(perturbed_lattice("diamond", 5.431, 3, 0.2), sw, 1e-6,
                                          1e-6);
}

// Per-atom energy and virial (owned atoms, ghost rows folded in) add up to the totals.
void expect_per_atom_sums_to_totals(const std::string& solver_yaml) {
  auto md = make_solver(solver_yaml + ", steps: 0, per_atom: true");
  const io::MeshData mesh = md->output_mesh();
  double energy = 0, virial = 0;
  for (const auto& p : mesh.point_data)
    for (std::size_t i = 0; i < p.tuples(); ++i) {
      if (p.name == "pe_atom") energy += p.values(i, 0);
      if (p.name == "virial_atom") virial += p.values(i, 0) + p.values(i, 1) + p.values(i, 2);
    }
  const ThermoRow row = md->thermo();
  const auto& u = md->system().units;
  const double n = static_cast<double>(md->natoms()), volume = md->system().box.volume();
  const double e_pair = u.normalize ? row.e_pair * n : row.e_pair;
  const double ke2 = 2 * (u.normalize ? row.e_kin * n : row.e_kin);
  const double w = row.press * 3 * volume / u.nktv2p - ke2;
  EXPECT_NEAR(energy, e_pair, 1e-12 * std::fabs(e_pair));
  EXPECT_NEAR(virial, w, 1e-10 * (std::fabs(w) + ke2));
}

TEST(MdForces, PerAtomEnergyAndVirialAddUpToTheTotals) {
  expect_per_atom_sums_to_totals("data_file: '" + (md_dir() / "lj_n5.data").string() +
                                 "', pair: {type: lj/cut}");
  expect_per_atom_sums_to_totals(
      "data_file: '" + (md_dir() / "sw_n3.data").string() +
      "', units: metal, neighbor: {skin: 1.0}, pair: {type: sw, file: '" +
      (md_dir() / "Si.sw").string() + "', elements: Si}");
}

TEST(MdForces, ShiftedLennardJonesVanishesAtTheCutoff) {
  PairLjCut lj(1.0, 1.0, 2.5, true);
  double e = 0;
  lj_fpair(lj.coeff(), 2.5 * 2.5 * (1 - 1e-15), e);
  EXPECT_NEAR(e, 0.0, 1e-12);
  PairLjCut plain(1.0, 1.0, 2.5, false);
  lj_fpair(plain.coeff(), 2.5 * 2.5, e);
  EXPECT_NEAR(e, 4 * (std::pow(2.5, -12) - std::pow(2.5, -6)), 1e-15);
}

// ---------------------------------------------------------------- integration

const char* kLjSmall = "data_file: '{}', steps: {}, thermo: 10, pair: {{type: lj/cut}}";

TEST(MdRestart, ContinuationFromACheckpointIsBitwiseExact) {
  const std::string data = (md_dir() / "lj_n5.data").string();
  auto straight = make_solver(fmt::format(kLjSmall, data, 60));
  while (!straight->finished()) straight->advance();

  auto first = make_solver(fmt::format(kLjSmall, data, 60));
  for (int s = 0; s < 33; ++s) first->advance();  // mid-way between list builds
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto path = surrox::testing::scratch_dir() / "md.h5";
  saved.write(path, surrox::testing::runtime().comm());
  const auto loaded = io::Hdf5Checkpoint::read(path, surrox::testing::runtime().comm());

  auto second = make_solver(fmt::format(kLjSmall, data, 60));
  second->load_state(loaded);
  EXPECT_EQ(second->step(), 33);
  while (!second->finished()) second->advance();
  const AtomData a = straight->system().to_host(), b = second->system().to_host();
  ASSERT_EQ(a.natoms(), b.natoms());
  long differ = 0;
  for (long i = 0; i < a.natoms(); ++i)
    for (int d = 0; d < 3; ++d) differ += (a.x[i][d] != b.x[i][d]) + (a.v[i][d] != b.v[i][d]);
  EXPECT_EQ(differ, 0);
  EXPECT_EQ(straight->thermo().e_total, second->thermo().e_total);
}

TEST(MdIntegrators, ThermostatsHoldTheTargetTemperature) {
  for (const char* style : {"langevin", "nose_hoover"}) {
    auto md = make_solver(
        "lattice: {style: fcc, density: 0.8442, replicate: [5, 5, 5]}, "
        "velocity: {temperature: 1.44, seed: 5}, steps: 3000, thermo: 10, "
        "pair: {type: lj/cut, shift: true}, "
        "integrator: {style: " +
        std::string(style) + ", temperature: 0.9, damping: 0.5}");
    const double conserved0 = md->diagnostics()["nose_hoover_conserved"];
    while (!md->finished()) md->advance();
    if (std::string(style) == "nose_hoover") {
      const double conserved = md->diagnostics().at("nose_hoover_conserved");
      std::printf("Nosé–Hoover conserved quantity: %.9f → %.9f\n", conserved0, conserved);
      EXPECT_NEAR(conserved, conserved0, 1e-3 * std::fabs(conserved0));
    }
    double sum = 0;
    int n = 0;
    for (const auto& r : md->thermo_rows())
      if (r.step >= 1500) sum += r.temp, ++n;
    EXPECT_NEAR(sum / n, 0.9, 0.03) << style;  // fluctuations of 500 atoms: about 0.04 per sample
  }
}

TEST(MdIntegrators, LatticeAndVelocityCreateGiveTheAskedState) {
  auto md = make_solver(
      "lattice: {style: diamond, constant: 5.431, replicate: [3, 3, 3], mass: 28.06}, units: "
      "metal, "
      "velocity: {temperature: 1000, seed: 9}, steps: 0, "
      "pair: {type: sw, file: '" +
      (md_dir() / "Si.sw").string() + "', elements: Si}, neighbor: {skin: 1.0}");
  EXPECT_EQ(md->natoms(), 216);
  EXPECT_NEAR(md->thermo().temp, 1000.0, 1e-9);
  // A perfect diamond crystal: E = −4.3366 eV/atom for Stillinger–Weber silicon.
  EXPECT_NEAR(md->thermo().e_pair / 216, -4.3366, 1e-4);
}

// ---------------------------------------------------------------- bad input

TEST(MdBadInput, OverlappingAtomsStopWithTheAtomAndTheStep) {
  const auto path = surrox::testing::scratch_dir() / "overlap.data";
  std::ofstream(path)
      << "overlap\n\n3 atoms\n1 atom types\n\n0 6 xlo xhi\n0 6 ylo yhi\n0 6 zlo zhi\n\n"
         "Masses\n\n1 1.0\n\nAtoms # atomic\n\n1 1 1 1 1\n2 1 1.0001 1 1\n3 1 4 4 4\n";
  try {
    make_solver(fmt::format(kLjSmall, path.string(), 10));
    FAIL() << "no error";
  } catch (const InputError&) {
    FAIL() << "a force blow-up is a runtime Error, not bad input";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("force blow-up on atom 1 at step 0"), std::string::npos) << m;
  }
}

TEST(MdBadInput, AtomsLostToAHugeTimeStepAreNamed) {
  // A close pair (not yet a blow-up) with a time step far too large: the atoms fly apart
  // to non-finite positions, which the next list build reports.
  const auto path = surrox::testing::scratch_dir() / "close.data";
  std::ofstream(path)
      << "close\n\n3 atoms\n1 atom types\n\n0 6 xlo xhi\n0 6 ylo yhi\n0 6 zlo zhi\n\n"
         "Masses\n\n1 1.0\n\nAtoms # atomic\n\n1 1 1 1 1\n2 1 1.5 1 1\n3 1 4 4 4\n";
  auto md = make_solver(fmt::format(kLjSmall, path.string(), 100), {"solver.dt=1e20"});
  try {
    while (!md->finished()) md->advance();
    FAIL() << "no error";
  } catch (const InputError&) {
    FAIL() << "lost atoms are a runtime Error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_TRUE(m.find("was lost at step") != std::string::npos ||
                m.find("blow-up on atom") != std::string::npos)
        << m;
    EXPECT_NE(m.find("atom "), std::string::npos) << m;
  }
}

TEST(MdBadInput, InconsistentCasesAreInputErrors) {
  auto expect_input_error = [](const std::string& yaml, const std::string& phrase) {
    try {
      make_solver(yaml);
      ADD_FAILURE() << "no error for " << yaml;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
    }
  };
  expect_input_error("lattice: {style: fcc, replicate: [2, 2, 2]}", "exactly one of");
  expect_input_error("lattice: {style: fcc, density: 0.8442, replicate: [1, 1, 1]}",
                     "shorter than cutoff + skin");
  expect_input_error(
      "lattice: {style: diamond, constant: 5.431, replicate: [3, 3, 3]}, "
      "pair: {type: sw, file: '" +
          (md_dir() / "Si.sw").string() + "'}",
      "metal units");
  expect_input_error(
      "lattice: {style: fcc, density: 0.8, replicate: [4, 4, 4]}, pair: {type: lj/cutt}", "lj/cut");
}

}  // namespace
}  // namespace surrox::solvers::md::test

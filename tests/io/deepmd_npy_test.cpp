// ctest-libraries: surrox_io
// DeePMD-kit npy systems: .npy written and read back bit for bit; a system written by numpy
// itself (float32 and float64, format versions 1.0 and 2.0, two set.* folders) is read with
// the values numpy stored; corrupt files, wrong shapes and dtypes, disagreeing frame counts
// and types beyond type_map.raw are InputErrors; every truncation and byte flip of a file is
// an InputError or a clean parse, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>

#include "core/error.hpp"
#include "io/deepmd_system.hpp"
#include "io/npy.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {
namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

DeepmdFrames sample_frames(long frames) {
  DeepmdFrames d;
  d.type_map = {"Si", "Ge"};
  d.types = {0, 1, 1, 0};
  d.frames = frames;
  for (long f = 0; f < frames; ++f) {
    for (int c = 0; c < 12; ++c) {
      d.coord.push_back(std::sqrt(2.0 + f * 12 + c));
      d.force.push_back(-std::exp(-0.1 * c) / (f + 3.0));
    }
    for (int c = 0; c < 9; ++c) {
      d.box.push_back(c % 4 == 0 ? 10.0 + f / 3.0 : 0.0);
      d.virial.push_back(std::cos(f + c) / 7.0);
    }
    d.energy.push_back(-4.3 * f - 1.0 / 3.0);
  }
  d.force[1] = -0.0;
  d.force[2] = std::numeric_limits<double>::denorm_min();
  return d;
}

TEST(DeepmdNpy, NpyRoundTripIsBitwise) {
  const fs::path p = surrox::testing::scratch_dir() / "a.npy";
  std::vector<double> v = {1.0 / 3.0,
                           -0.0,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::infinity(),
                           1e308,
                           -2.5};
  write_npy(p, v, {2, 3});
  const NpyArray a = read_npy(p);
  EXPECT_EQ(a.shape, (std::vector<long>{2, 3}));
  EXPECT_EQ(a.dtype, "<f8");
  ASSERT_EQ(a.values.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_TRUE(same_bits(a.values[i], v[i])) << i;
  // numpy's layout: header padded so the data starts at a multiple of 64 bytes.
  EXPECT_EQ(slurp(p).size() % 64, (6 * 8) % 64);
  write_npy(p, {7.0}, {1});
  EXPECT_EQ(read_npy(p).shape, (std::vector<long>{1}));
}

TEST(DeepmdNpy, SystemRoundTripIsBitwiseOverSeveralSets) {
  const fs::path dir = surrox::testing::scratch_dir() / "sys";
  const DeepmdFrames d = sample_frames(5);
  write_deepmd_system(dir, d, 2);  // set.000 (2), set.001 (2), set.002 (1)
  EXPECT_TRUE(fs::exists(dir / "set.002/energy.npy"));
  EXPECT_FALSE(fs::exists(dir / "set.003"));
  const DeepmdFrames r = read_deepmd_system(dir);
  EXPECT_EQ(r.type_map, d.type_map);
  EXPECT_EQ(r.types, d.types);
  EXPECT_EQ(r.frames, 5);
  auto same = [](const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_bits(a[i], b[i])) return false;
    return true;
  };
  EXPECT_TRUE(same(r.coord, d.coord));
  EXPECT_TRUE(same(r.box, d.box));
  EXPECT_TRUE(same(r.energy, d.energy));
  EXPECT_TRUE(same(r.force, d.force));
  EXPECT_TRUE(same(r.virial, d.virial));
  EXPECT_EQ(find_deepmd_systems(dir.parent_path()), std::vector<fs::path>{dir});
}

TEST(DeepmdNpy, ReadsWhatNumpyWrote) {
  // tests/io/data/make_deepmd_numpy.py: value = 0.25 frame + 0.125 column + offset.
  const DeepmdFrames r =
      read_deepmd_system(surrox::testing::source_dir() / "tests/io/data/deepmd_numpy");
  EXPECT_EQ(r.type_map, (std::vector<std::string>{"Si", "Ge"}));
  EXPECT_EQ(r.types, (std::vector<int>{0, 1, 0}));
  ASSERT_EQ(r.frames, 5);
  for (long f = 0; f < 5; ++f) {
    EXPECT_EQ(r.energy[f], 0.25 * f - 10.0);
    for (int c = 0; c < 9; ++c) {
      EXPECT_EQ(r.coord[f * 9 + c], 0.25 * f + 0.125 * c + 1.0);
      EXPECT_EQ(r.force[f * 9 + c], 0.25 * f + 0.125 * c - 1.0);
      EXPECT_EQ(r.virial[f * 9 + c], 0.25 * f + 0.125 * c + 3.0);
      EXPECT_EQ(r.box[f * 9 + c], c % 4 == 0 ? 10.0 : 0.0);
    }
  }
  EXPECT_EQ(read_npy(surrox::testing::source_dir() / "tests/io/data/deepmd_numpy/set.000/coord.npy")
                .dtype,
            "<f4");
}

TEST(DeepmdNpy, NumpyReadsWhatWeWrote) {
  if (surrox::testing::run_command("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0)
    GTEST_SKIP() << "python3-numpy is not installed";
  const fs::path p = surrox::testing::scratch_dir() / "w.npy";
  write_npy(p, {1.0 / 3.0, -2.5e-300, 7.0, 1e10, -0.0, 0.1}, {3, 2});
  std::string out;
  ASSERT_EQ(surrox::testing::run_command("/usr/bin/python3 -c \"import numpy as n; a = n.load('" +
                                             p.string() +
                                             "'); print(a.shape, a.dtype, [float(v).hex() for v in "
                                             "a.ravel()])\"",
                                         &out),
            0)
      << out;
  EXPECT_NE(out.find("(3, 2) float64 ['0x1.5555555555555p-2', '-0x1.ac9a7b3b7302fp-996', "
                     "'0x1.c000000000000p+2', '0x1.2a05f20000000p+33', '-0x0.0p+0', "
                     "'0x1.999999999999ap-4']"),
            std::string::npos)
      << out;
}

void expect_input_error(const std::function<void()>& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning '" << fragment << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(DeepmdNpy, BadInputIsAClearError) {
  const fs::path base = surrox::testing::scratch_dir();
  const fs::path dir = base / "sys";
  write_deepmd_system(dir, sample_frames(3));
  const std::string coord = slurp(dir / "set.000/coord.npy");
  // Truncated data.
  spit(base / "t.npy", coord.substr(0, coord.size() - 5));
  expect_input_error([&] { read_npy(base / "t.npy"); }, "truncated");
  // Another dtype.
  std::string ints = coord;
  ints.replace(ints.find("<f8"), 3, "<i8");
  spit(base / "i.npy", ints);
  expect_input_error([&] { read_npy(base / "i.npy"); }, "'<i8' is not supported");
  std::string fortran = coord;
  fortran.replace(fortran.find("False"), 5, "True ");
  spit(base / "f.npy", fortran);
  expect_input_error([&] { read_npy(base / "f.npy"); }, "Fortran");
  spit(base / "m.npy", "not numpy at all");
  expect_input_error([&] { read_npy(base / "m.npy"); }, "magic");
  expect_input_error([&] { read_npy(base / "absent.npy"); }, "cannot open");
  // Wrong shape: force of 2 atoms in a 4-atom system.
  write_npy(dir / "set.000/force.npy", std::vector<double>(18, 0.0), {3, 6});
  expect_input_error([&] { read_deepmd_system(dir); }, "should be (frames, 12)");
  // Frame counts that disagree.
  write_npy(dir / "set.000/force.npy", std::vector<double>(24, 0.0), {2, 12});
  expect_input_error([&] { read_deepmd_system(dir); }, "2 frames, but coord.npy");
  write_npy(dir / "set.000/force.npy", std::vector<double>(36, 0.0), {3, 12});
  EXPECT_NO_THROW(read_deepmd_system(dir));
  // More types than type_map.raw names.
  spit(dir / "type.raw", "0\n1\n2\n0\n");
  expect_input_error([&] { read_deepmd_system(dir); }, "type 2 but type_map.raw names only 2");
  spit(dir / "type.raw", "0\nx\n1\n0\n");
  expect_input_error([&] { read_deepmd_system(dir); }, "'x' is not a type index");
  expect_input_error([&] { find_deepmd_systems(base / "sys/set.000"); }, "no DeePMD system");
}

TEST(DeepmdNpy, FuzzedFilesNeverCrash) {
  const fs::path p = surrox::testing::scratch_dir() / "a.npy";
  write_npy(p, {1, 2, 3, 4, 5, 6}, {3, 2});
  const std::string good = slurp(p);
  long errors = 0, parsed = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    try {
      parse_npy(good.substr(0, n), "cut");
      ++parsed;
    } catch (const InputError&) {
      ++errors;
    }
  }
  EXPECT_EQ(parsed, 0);  // every strict prefix is short of data
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 4000; ++trial) {
    std::string bytes = good;
    const int flips = 1 + trial % 4;
    for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng() & 0xff);
    try {
      const NpyArray a = parse_npy(bytes, "fuzz");
      EXPECT_EQ(static_cast<long>(a.values.size()), a.size());
    } catch (const InputError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace surrox::io

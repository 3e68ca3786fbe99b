// Inference cost of the default se_e2_a model (Si, rcut 4.5 Å, sel 32, embedding 16-32-64,
// axis 8, fitting 64-64-64) per atom-step on one thread: energy, forces and virial of a
// thermally displaced diamond Si frame (512 or 4096 atoms), the model uncompressed and
// compressed (tabulated embedding nets, DeePMD-kit's defaults: stride 0.01, extrapolate 5).
// The neighbour slots are built once (as the MD coupler reuses its list), so this times the
// network and its gradient. Counters: us_per_atom_step and, for the compressed model, the
// max |ΔF| (eV/Å) against the uncompressed one on the same frame. SURROX_DP_MODEL=PATH
// benchmarks a trained model instead (its rcut and sel build the neighbour slots; a three-body
// part is compressed too, as `surrox compress` does).
// SURROX_DP_DUMP=DIR writes, per frame, the uncompressed model (DIR/frame_<atoms>_model.pt) and
// the positions, box, neighbour slots, relative vectors, energy and forces as raw float64/int64
// files (DIR/frame_<atoms>_*.bin): bench/deep_potential/python_reference.py evaluates the same
// network on the same input with Debian's python3-torch (bench/deep_potential/compare_python.sh).
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "surrogates/deep_potential/compress.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/se_e2_a.hpp"

namespace dp = surrox::surrogates::deep_potential;

namespace {

struct Frame {
  std::vector<double> coord, box;
  std::vector<int> types;
};

// Diamond Si, cells³ unit cells (8 atoms each), displaced by N(0, 0.1 Å) per component (about
// the thermal amplitude at 1000 K).
Frame silicon(int cells) {
  const double a = 5.431;
  const double basis[8][3] = {{0, 0, 0},       {0, .5, .5},     {.5, 0, .5},     {.5, .5, 0},
                              {.25, .25, .25}, {.25, .75, .75}, {.75, .25, .75}, {.75, .75, .25}};
  std::mt19937 rng(2024);
  std::normal_distribution<double> shift(0.0, 0.1);
  Frame f;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int k = 0; k < cells; ++k)
        for (const auto& b : basis) {
          const int c[3] = {i, j, k};
          for (int d = 0; d < 3; ++d) f.coord.push_back((c[d] + b[d]) * a + shift(rng));
          f.types.push_back(0);
        }
  f.box = {cells * a, 0, 0, 0, cells * a, 0, 0, 0, cells * a};
  return f;
}

template <class T>
void write_raw(const std::filesystem::path& path, const T* data, std::size_t count) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * sizeof(T)));
}

// The inputs and outputs of one evaluation, for the Python reference (SURROX_DP_DUMP).
void dump_frame(const std::filesystem::path& dir, const Frame& f, const dp::FrameEnvironment& env,
                dp::SeE2aModel& model, const dp::Prediction& p) {
  std::filesystem::create_directories(dir);
  // Per frame: without SURROX_DP_MODEL each frame's model takes that frame's statistics.
  const std::string stem = "frame_" + std::to_string(env.atoms) + "_";
  dp::save_model(dir / (stem + "model.pt"), model, {});
  write_raw(dir / (stem + "coord.bin"), f.coord.data(), f.coord.size());
  write_raw(dir / (stem + "box.bin"), f.box.data(), f.box.size());
  write_raw(dir / (stem + "rij.bin"), env.rij.data(), env.rij.size());
  write_raw(dir / (stem + "neighbor.bin"), env.neighbor.data(), env.neighbor.size());
  const torch::Tensor energy = p.energy.contiguous(), force = p.force.contiguous();
  write_raw(dir / (stem + "energy.bin"), energy.data_ptr<double>(), 1);
  write_raw(dir / (stem + "force.bin"), force.data_ptr<double>(),
            static_cast<std::size_t>(force.numel()));
}

struct Setup {
  dp::EnvBatch batch;
  dp::SeE2aModel full{nullptr}, compressed{nullptr};
  double max_force_difference = 0;
};

Setup& setup(int cells) {
  static std::map<int, Setup> cache;
  auto it = cache.find(cells);
  if (it != cache.end()) return it->second;
  torch::set_num_threads(1);
  Setup& s = cache[cells];
  const Frame f = silicon(cells);
  // $SURROX_DP_MODEL: a trained model.pt instead of random weights with this frame's statistics.
  const char* trained = std::getenv("SURROX_DP_MODEL");
  const dp::SeE2aConfig config = trained ? dp::load_model(trained)->config() : dp::SeE2aConfig{};
  const dp::FrameEnvironment env =
      dp::build_environment(f.coord.data(), f.box.data(), f.types, config.rcut, config.sel);
  s.batch = dp::make_batch({env}, f.types, config.ntypes());
  for (auto* m : {&s.full, &s.compressed}) {
    if (trained) {
      *m = dp::load_model(trained);
    } else {
      *m = dp::SeE2aModel(config);
      (*m)->compute_statistics({s.batch});
    }
    (*m)->eval();
  }
  dp::SystemData data;
  data.env.push_back(env);
  const double r_min = dp::min_neighbor_distance({data});
  s.compressed->compress(s.compressed->table_range(r_min, 0.01, 5));
  if (config.three_body.enabled())
    s.compressed->compress_three_body(s.compressed->three_body_table_range(r_min, 0.01, 5));
  const dp::Prediction p = dp::predict(s.full, s.batch), q = dp::predict(s.compressed, s.batch);
  s.max_force_difference = (p.force - q.force).abs().max().item<double>();
  if (const char* dump = std::getenv("SURROX_DP_DUMP")) dump_frame(dump, f, env, s.full, p);
  std::fprintf(stderr, "%ld atoms: r_min %.3f Å, max |ΔF| compressed − full %.3e eV/Å\n",
               s.batch.atoms, r_min, s.max_force_difference);
  return s;
}

void run(benchmark::State& state, bool compressed) {
  Setup& s = setup(static_cast<int>(state.range(0)));
  dp::SeE2aModel& model = compressed ? s.compressed : s.full;
  for (auto _ : state) {
    const dp::Prediction p = dp::predict(model, s.batch);
    benchmark::DoNotOptimize(p.force.data_ptr<double>());
  }
  state.counters["atoms"] = static_cast<double>(s.batch.atoms);
  state.counters["us_per_atom_step"] = benchmark::Counter(
      static_cast<double>(s.batch.atoms) * 1e-6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  if (compressed) state.counters["max_dF"] = s.max_force_difference;
}

void BM_DeepPotentialFull(benchmark::State& state) { run(state, false); }
void BM_DeepPotentialCompressed(benchmark::State& state) { run(state, true); }

}  // namespace

// 4×4×4 cells = 512 atoms, 8×8×8 = 4096 atoms.
BENCHMARK(BM_DeepPotentialFull)->Arg(4)->Arg(8)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DeepPotentialCompressed)->Arg(4)->Arg(8)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();

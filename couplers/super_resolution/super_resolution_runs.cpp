#include "couplers/super_resolution/super_resolution_runs.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/timer.hpp"

namespace surrox::couplers {
namespace {

constexpr const char* kRbChannels[4] = {"p", "b", "u", "w"};

// The frame's cell fields, as the solver writes them ([4, Z·X] values, VTK order: x fastest).
std::vector<double> capture_frame(const solvers::Solver& solver) {
  const io::MeshData mesh = solver.output_mesh();
  std::vector<double> frame;
  for (const char* name : kRbChannels) {
    const io::NamedArray* a = mesh.find_cell_array(name);
    if (!a) throw Error(std::string("the Rayleigh–Bénard solver wrote no field ") + name);
    frame.insert(frame.end(), a->values.data(), a->values.data() + a->values.size());
  }
  return frame;
}

}  // namespace

RbSeries run_rb_series(Runtime& runtime, const CaseNode& section, double interval) {
  RbSeries series;
  std::vector<std::vector<double>> frames;
  Stopwatch watch;
  const auto solver = solvers::registry().create(section.type());
  solver->initialize(section, runtime);
  const auto record = [&] {
    frames.push_back(capture_frame(*solver));
    series.times.push_back(solver->time());
    series.frame_figures.push_back(solver->monitor());
  };
  record();
  long next = 1;
  while (!solver->finished()) {
    solver->limit_step_to(double(next) * interval);
    solver->advance();
    if (solver->time() >= double(next) * interval * (1 - 1e-12)) {
      record();
      while (double(next) * interval <= solver->time() * (1 + 1e-12)) ++next;
    }
  }
  if (std::abs(series.times.back() - solver->time()) > 1e-12 * solver->time()) record();
  series.solve_s = watch.seconds();
  series.steps = solver->step();
  series.diagnostics = solver->diagnostics();
  const auto cells = section.integers("cells");
  const long nx = cells[0], nz = cells[1], t = static_cast<long>(frames.size());
  series.fields = torch::empty({t, 4, nz, nx}, torch::kFloat64);
  for (long n = 0; n < t; ++n)
    series.fields[n].copy_(torch::from_blob(frames[n].data(), {4, nz, nx}, torch::kFloat64));
  series.fields = series.fields.permute({1, 0, 2, 3}).contiguous();
  return series;
}

}  // namespace surrox::couplers

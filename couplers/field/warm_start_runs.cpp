#include "couplers/field/warm_start_runs.hpp"

#include <spdlog/spdlog.h>

#include "core/statistics.hpp"
#include "core/timer.hpp"

namespace surrox::couplers {
namespace {

using solvers::airfoil::AirfoilSolver;

double field_error(const mesh::HostMatrix& predicted, const mesh::HostMatrix& truth) {
  return relative_l2(predicted.data(), truth.data(), truth.size());
}

WarmRun warm_run(Runtime& runtime, const CoupledCase& c, long cfl_ramp,
                 const CaseChannels& channels, CoupledModel& model,
                 const std::array<mesh::HostMatrix, 4>& truth, long ni, long nj) {
  AirfoilSolver warm;
  warm.initialize(c.solver, runtime);
  if (cfl_ramp >= 0) warm.set_cfl_ramp(cfl_ramp);
  Stopwatch watch;
  PrimitiveField field = predict_primitive(*model.surrogate, channels, ni, nj);
  const GuardReport guard =
      repair_unphysical(field, warm.parameters().mach, warm.parameters().alpha_deg);
  const double inference_s = watch.seconds();
  // Surrogate alone: the predicted field's wall forces and surface Cp (not timed).
  start_from_field(warm, field);
  warm.compute_residual();
  const auto predicted = warm.coefficients();
  Surface predicted_surface = warm.surface();
  Stopwatch priming;
  start_from_field(warm, field);
  const double priming_s = priming.seconds();
  SteadyRun run = run_to_criterion(warm);
  run.solve_s += priming_s;
  for (double& t : run.seconds) t += priming_s;
  const double total_s = inference_s + run.solve_s;
  std::map<std::string, double> errors;
  const char* names[4] = {"density", "velocity_x", "velocity_y", "pressure"};
  const mesh::HostMatrix* fields[4] = {&field.rho, &field.u, &field.v, &field.p};
  for (int q = 0; q < 4; ++q) errors[names[q]] = field_error(*fields[q], truth[q]);
  const WarmRun w{
      std::move(run),     inference_s,        total_s,           guard,
      predicted.at("cl"), predicted.at("cd"), std::move(errors), std::move(predicted_surface)};
  spdlog::info(
      "  warm ({}): {} cycles, {:.2f} s incl. {:.3f} s inference, Cl {:.5f}, Cd {:.6f}; {} cells "
      "repaired",
      model.label, w.run.iterations, w.total_s, w.inference_s, w.run.cl, w.run.cd,
      w.guard.repaired);
  return w;
}

}  // namespace

void start_from_field(solvers::SteadyFlowSolver& solver, const PrimitiveField& f) {
  solver.set_initial_primitive(f.rho, f.u, f.v, f.p);
  // A RANS model's ν_t starts the turbulence model too (ν̃ from the free stream otherwise).
  if (f.nu_t.size() > 0) solver.set_initial_eddy_viscosity(f.nu_t);
}

CaseRecord run_warm_start_case(Runtime& runtime, const CoupledCase& c, const CaseChannels& channels,
                               std::vector<CoupledModel>& models, long warm_cfl_ramp) {
  const long ni = static_cast<long>(channels.cell.at("centroid_x").extent(0));
  const long nj = static_cast<long>(channels.cell.at("centroid_x").extent(1));
  AirfoilSolver cold;
  cold.initialize(c.solver, runtime);
  SteadyRun base = run_to_criterion(cold);
  const auto truth = cold.primitive_host();
  CaseRecord record{c.name, c.parameters, ni, nj, std::move(base), cold.surface(), {}};
  spdlog::info("  cold: {} cycles, {:.2f} s, Cl {:.5f}, Cd {:.6f}", record.cold.iterations,
               record.cold.solve_s, record.cold.cl, record.cold.cd);
  for (auto& model : models)
    record.warm.push_back(warm_run(runtime, c, warm_cfl_ramp, channels, model, truth, ni, nj));
  return record;
}

}  // namespace surrox::couplers

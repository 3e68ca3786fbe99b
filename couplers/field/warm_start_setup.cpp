#include "couplers/field/warm_start_setup.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "couplers/case_number.hpp"
#include "mesh/grid_generator.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"

namespace surrox::couplers {
namespace {

// The inputs a case gives its models: the grid's per-cell channels, the airfoil's shape
// descriptors as the solver reports them into a sweep dataset, and swept keys by key path.
CaseChannels case_channels(const CoupledCase& c, const std::vector<CoupledModel>& models) {
  const auto generator = mesh::make_grid_generator(c.solver.section("mesh"));
  const mesh::CurvilinearGrid grid = generator->build();
  std::map<std::string, double> parameters = generator->descriptors();
  for (const auto& model : models)
    for (const auto& name : model.surrogate->metadata().inputs.names)
      if (auto v = case_number(c.solver, name)) parameters[name] = *v;
  CaseChannels channels = airfoil_case_channels(grid, mesh::compute_metrics(grid), parameters);
  if (auto mach = case_number(c.solver, c.solver.path() + ".mach"))
    channels.freestream_pressure = 1 / (solvers::airfoil::kGamma * *mach * *mach);
  return channels;
}

}  // namespace

std::vector<std::string> WarmStartSetup::labels() const {
  std::vector<std::string> out;
  for (const auto& m : models) out.push_back(m.label);
  return out;
}

WarmStartSetup prepare_warm_start(const Runtime& runtime, const CaseNode& section,
                                  const std::vector<CoupledCase>& cases) {
  if (runtime.size() > 1)
    throw InputError(
        fmt::format(
            "the warm-start comparison runs on one MPI rank (got {}): its wall times compare "
            "runs on an otherwise idle core",
            runtime.size()),
        section.context());
  WarmStartSetup setup;
  setup.models = load_models(section);
  setup.warm_cfl_ramp = section.integer("cfl_ramp");
  for (const auto& c : cases)
    if (c.solver.type() != "airfoil")
      c.solver.fail("type",
                    "the warm-start coupler drives the airfoil solver; this case's solver is '" +
                        c.solver.type() + "'");
  for (const auto& c : cases) {
    setup.channels.push_back(case_channels(c, setup.models));
    const CaseChannels& channels = setup.channels.back();
    const auto& centroids = channels.cell.at("centroid_x");
    for (const auto& model : setup.models) {
      try {
        fitted_inputs(*model.surrogate, channels, static_cast<long>(centroids.extent(0)),
                      static_cast<long>(centroids.extent(1)));
      } catch (const InputError& e) {
        throw InputError("model '" + model.label + "' (" + model.path.string() +
                             ") does not fit case " + c.name + ": " + e.what(),
                         section.context("models"));
      }
    }
  }
  return setup;
}

}  // namespace surrox::couplers

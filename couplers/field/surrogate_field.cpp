#include "couplers/field/surrogate_field.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "surrogates/grid_channels.hpp"

namespace surrox::couplers {

CaseChannels airfoil_case_channels(const mesh::CurvilinearGrid& grid,
                                   const mesh::GridMetrics& metrics,
                                   std::map<std::string, double> parameters) {
  const long ni = grid.cells_i(), nj = grid.cells_j();
  mesh::HostMatrix cx("centroid_x", ni, nj), cy("centroid_y", ni, nj);
  for (long i = 0; i < ni; ++i)
    for (long j = 0; j < nj; ++j) {
      cx(i, j) = 0.25 * (grid.x(i, j) + grid.x(i + 1, j) + grid.x(i + 1, j + 1) + grid.x(i, j + 1));
      cy(i, j) = 0.25 * (grid.y(i, j) + grid.y(i + 1, j) + grid.y(i + 1, j + 1) + grid.y(i, j + 1));
    }
  CaseChannels c;
  c.cell = {{"centroid_x", cx},
            {"centroid_y", cy},
            {"wall_distance", metrics.wall_distance},
            {"cell_area", metrics.area}};
  const auto& index_names = surrogates::grid_index_channels();
  for (int g = 0; g < static_cast<int>(index_names.size()); ++g) {
    mesh::HostMatrix values(index_names[static_cast<std::size_t>(g)], ni, nj);
    for (long i = 0; i < ni; ++i)
      for (long j = 0; j < nj; ++j) values(i, j) = surrogates::grid_index_value(g, i, j, ni, nj);
    c.cell.emplace(index_names[static_cast<std::size_t>(g)], values);
  }
  c.parameters = std::move(parameters);
  return c;
}

namespace {
const std::vector<std::string> kFour = {"density", "velocity[0]", "velocity[1]", "pressure"};
const std::vector<std::string> kFive = {"density", "velocity[0]", "velocity[1]", "velocity[2]",
                                        "pressure"};
const std::vector<std::string> kFourCp = {"density", "velocity[0]", "velocity[1]", "Cp"};
const std::string kEddyViscosity = "nu_t";  // a RANS model's last output (RANS sweep datasets)

bool predicts_eddy_viscosity(const std::vector<std::string>& outputs) {
  return !outputs.empty() && outputs.back() == kEddyViscosity;
}

// The outputs a warm start can use: one of the mean-flow lists, then optionally nu_t.
std::vector<std::string> expected_outputs(const std::vector<std::string>& outputs) {
  std::vector<std::string> mean_flow = outputs;
  if (predicts_eddy_viscosity(outputs)) mean_flow.pop_back();
  std::vector<std::string> expected = mean_flow == kFive     ? kFive
                                      : mean_flow == kFourCp ? kFourCp
                                                             : kFour;
  if (predicts_eddy_viscosity(outputs)) expected.push_back(kEddyViscosity);
  return expected;
}
}  // namespace

std::vector<std::string> fitted_inputs(const surrogates::Surrogate& model,
                                       const CaseChannels& channels, long ni, long nj) {
  const auto& meta = model.metadata();
  // What this case provides, in the model's order where it can; check_fits names the difference.
  std::vector<std::string> provided;
  for (const auto& name : meta.inputs.names)
    if (channels.cell.count(name) || channels.parameters.count(name)) provided.push_back(name);
  const std::vector<std::string> expected = expected_outputs(meta.outputs.names);
  model.check_fits({surrogates::grid_cells_input({ni, nj})}, provided, expected);
  if (expected[3] == "Cp" && !(channels.freestream_pressure > 0))
    throw InputError("the model predicts Cp; the case gives no free-stream pressure to convert it");
  return provided;
}

PrimitiveField predict_primitive(surrogates::Surrogate& model, const CaseChannels& channels,
                                 long ni, long nj) {
  const auto& meta = model.metadata();
  const std::vector<std::string> provided = fitted_inputs(model, channels, ni, nj);
  const std::vector<std::string>& outputs = meta.outputs.names;
  const long cells = ni * nj, channels_in = static_cast<long>(provided.size());
  auto x = torch::empty({cells, channels_in}, torch::kFloat64);  // row n = i + ni·j (VTK order)
  auto acc = x.accessor<double, 2>();
  for (long c = 0; c < channels_in; ++c) {
    const std::string& name = provided[static_cast<std::size_t>(c)];
    auto cell = channels.cell.find(name);
    if (cell != channels.cell.end()) {
      for (long j = 0; j < nj; ++j)
        for (long i = 0; i < ni; ++i) acc[i + ni * j][c] = cell->second(i, j);
    } else {
      const double value = channels.parameters.at(name);
      for (long n = 0; n < cells; ++n) acc[n][c] = value;
    }
  }
  torch::Tensor y;
  if (surrogates::takes_whole_grids(meta.input_domains)) {
    y = model.predict(x.t().reshape({1, channels_in, nj, ni}));
    y = y.reshape({y.size(1), cells}).t();
  } else {
    y = model.predict(x);
  }
  y = y.to(torch::kFloat64).contiguous();
  if (y.dim() != 2 || y.size(0) != cells || y.size(1) != static_cast<long>(outputs.size()))
    throw InputError(
        fmt::format("the model returned a tensor of shape [{}] for {} cells and {} outputs",
                    fmt::join(y.sizes(), ", "), cells, outputs.size()));
  const bool eddy_viscosity = predicts_eddy_viscosity(outputs);
  const long kp = static_cast<long>(outputs.size()) - (eddy_viscosity ? 2 : 1);
  const bool cp = outputs[static_cast<std::size_t>(kp)] == "Cp";
  const double p_inf = channels.freestream_pressure;
  PrimitiveField f{mesh::HostMatrix("rho", ni, nj), mesh::HostMatrix("u", ni, nj),
                   mesh::HostMatrix("v", ni, nj), mesh::HostMatrix("p", ni, nj)};
  if (eddy_viscosity) f.nu_t = mesh::HostMatrix("nu_t", ni, nj);
  auto out = y.accessor<double, 2>();
  for (long j = 0; j < nj; ++j)
    for (long i = 0; i < ni; ++i) {
      const long n = i + ni * j;
      f.rho(i, j) = out[n][0], f.u(i, j) = out[n][1], f.v(i, j) = out[n][2],
               f.p(i, j) = cp ? p_inf + 0.5 * out[n][kp] : out[n][kp];
      if (eddy_viscosity) f.nu_t(i, j) = out[n][kp + 1];
    }
  return f;
}

}  // namespace surrox::couplers

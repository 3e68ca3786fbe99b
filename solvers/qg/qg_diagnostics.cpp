// The QG solver's figures: energy and enstrophy with their budget terms (one reduction), the
// time integrals of the budgets, output fields, checkpoints and the summary.
#include <fmt/format.h>

#include <cmath>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/qg/arakawa.hpp"
#include "solvers/qg/qg_solver.hpp"

namespace surrox::solvers::qg {
namespace {

// The figures of one reduction, in this order; the last two are maxima (ψ_max, −ψ_min).
constexpr const char* kQgFigures[] = {"energy",
                                      "enstrophy",
                                      "wind_input",
                                      "drag_dissipation",
                                      "viscous_dissipation",
                                      "enstrophy_wind",
                                      "enstrophy_drag",
                                      "enstrophy_viscous",
                                      "enstrophy_beta",
                                      "enstrophy_advection",
                                      "psi_max",
                                      "psi_min"};
constexpr int kQgSums = 10, kQgValues = 12;
// The budget terms integrated in time for summary.json.
constexpr const char* kQgBudgetTerms[] = {"wind_input", "drag_dissipation", "viscous_dissipation",
                                          "energy", "enstrophy"};

struct QgSums {
  double v[kQgValues];
  KOKKOS_INLINE_FUNCTION QgSums() {
    for (int n = 0; n < kQgSums; ++n) v[n] = 0;
    v[kQgSums] = v[kQgSums + 1] = -INFINITY;
  }
  KOKKOS_INLINE_FUNCTION QgSums& operator+=(const QgSums& o) {
    for (int n = 0; n < kQgSums; ++n) v[n] += o.v[n];
    for (int n = kQgSums; n < kQgValues; ++n) v[n] = v[n] > o.v[n] ? v[n] : o.v[n];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile QgSums& o) volatile {
    for (int n = 0; n < kQgSums; ++n) v[n] += o.v[n];
    for (int n = kQgSums; n < kQgValues; ++n) v[n] = v[n] > o.v[n] ? v[n] : o.v[n];
  }
};

}  // namespace

Diagnostics QgSolver::instantaneous() const {
  const Field3 w = omega_, psi = psi_;
  const auto forcing = forcing_;
  const double inv_12 = 1 / (12 * hx_ * hy_), ihx2 = 1 / (hx_ * hx_), ihy2 = 1 / (hy_ * hy_);
  const double i2hx = 1 / (2 * hx_), beta = p_.beta, drag = p_.drag, nu = p_.viscosity;
  QgSums sums;
  reduce_cells<2, QgSums>(
      "QgSolver::figures", owned_,
      KOKKOS_LAMBDA(long k, long, long i, QgSums& s) {
        const double p = psi(k, 0, i), o = w(k, 0, i), f = forcing(k);
        const double lap = five_point_laplacian(w, k, i, ihx2, ihy2);
        const double psi_x = (psi(k, 0, i + 1) - psi(k, 0, i - 1)) * i2hx;
        s.v[0] += -0.5 * p * o;
        s.v[1] += 0.5 * o * o;
        s.v[2] += -p * f;
        s.v[3] += -drag * p * o;
        s.v[4] += nu * p * lap;
        s.v[5] += o * f;
        s.v[6] += drag * o * o;
        s.v[7] += -nu * o * lap;
        s.v[8] += -beta * o * psi_x;
        s.v[9] += -o * arakawa_jacobian(psi, w, k, i, inv_12);
        s.v[10] = s.v[10] > p ? s.v[10] : p;
        s.v[11] = s.v[11] > -p ? s.v[11] : -p;
      },
      sums);
  double global[kQgValues];
  MPI_Allreduce(sums.v, global, kQgSums, MPI_DOUBLE, MPI_SUM, comm_);
  MPI_Allreduce(sums.v + kQgSums, global + kQgSums, 2, MPI_DOUBLE, MPI_MAX, comm_);
  Diagnostics d;
  const double area = hx_ * hy_;
  for (int n = 0; n < kQgSums; ++n) d[kQgFigures[n]] = global[n] * area;
  d["psi_max"] = global[kQgSums];
  d["psi_min"] = -global[kQgSums + 1];
  return d;
}

void QgSolver::accumulate(double step_start) {
  const Diagnostics now = instantaneous();
  if (time_ > average_from_) {
    // Trapezoid over the part of the step inside the window (the end value alone for a step
    // that straddles its start; the energy there is the step's start value).
    const bool whole = step_start >= average_from_;
    const double span = whole ? dt_ : time_ - average_from_;
    if (!whole || std::isnan(energy_at_start_)) energy_at_start_ = last_.at("energy");
    for (const char* name : kQgBudgetTerms)
      integrals_[name] +=
          whole ? 0.5 * span * (now.at(name) + last_.at(name)) : span * now.at(name);
    averaged_time_ += span;
  }
  last_ = now;
}

Diagnostics QgSolver::diagnostics() const {
  Diagnostics d = last_;
  d["time"] = time_;
  d["steps"] = static_cast<double>(step_);
  d["poisson_solves"] = static_cast<double>(poisson_->solves());
  if (averaged_time_ > 0) {
    for (const char* name : kQgBudgetTerms)
      d[std::string("mean_") + name] = integrals_.at(name) / averaged_time_;
    const double input = d["mean_wind_input"];
    const double loss = d["mean_drag_dissipation"] + d["mean_viscous_dissipation"];
    const double change = (last_.at("energy") - energy_at_start_) / averaged_time_;
    d["mean_energy_change_rate"] = change;
    // Wind input against the losses, and the budget's residual with the energy change: both
    // relative to the input.
    d["budget_imbalance"] = input != 0 ? (input - loss) / input : 0.0;
    d["budget_residual"] = input != 0 ? (input - loss - change) / input : 0.0;
  }
  return d;
}

io::MeshData QgSolver::output_mesh() const {
  // The interior nodes as the cells of an image (a node sits at its cell's centre), in global
  // indices, so pieces of several ranks tile; u = −ψ_y, v = ψ_x by central differences.
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kImage;
  mesh.extent = {xs_, xs_ + xm_, zs_, zs_ + zm_, 0, 0};
  mesh.origin = {0.5 * hx_, -0.5 * p_.ly + 0.5 * hy_, 0};
  mesh.spacing = {hx_, hy_, 1};
  const auto psi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), psi_);
  const auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), omega_);
  const long n = xm_ * zm_;
  io::HostArray pa("QG::psi", n, 1), wa("QG::omega", n, 1), ua("QG::u", n, 1), va("QG::v", n, 1);
  long row = 0;
  for (long k = oz_; k < oz_ + zm_; ++k)
    for (long i = ox_; i < ox_ + xm_; ++i, ++row) {
      pa(row, 0) = psi(k, 0, i);
      wa(row, 0) = w(k, 0, i);
      ua(row, 0) = -(psi(k + 1, 0, i) - psi(k - 1, 0, i)) / (2 * hy_);
      va(row, 0) = (psi(k, 0, i + 1) - psi(k, 0, i - 1)) / (2 * hx_);
    }
  mesh.cell_data = {{"psi", pa}, {"omega", wa}, {"u", ua}, {"v", va}};
  return mesh;
}

void QgSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["time"] = time_;
  checkpoint.scalars["step"] = static_cast<double>(step_);
  checkpoint.scalars["dt"] = dt_;
  checkpoint.scalars["residual"] = residual_;
  checkpoint.scalars["averaged_time"] = averaged_time_;
  checkpoint.scalars["energy_at_start"] = energy_at_start_;
  for (const auto& [name, value] : integrals_) checkpoint.scalars["integral_" + name] = value;
  for (const auto& [name, value] : last_) checkpoint.scalars["last_" + name] = value;
  for (auto [name, f] : {std::pair{"psi", psi_}, {"omega", omega_}}) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    io::HostArray a(std::string("QG::") + name, host.size(), 1);
    std::copy(host.data(), host.data() + host.size(), a.data());
    checkpoint.arrays.push_back({name, a});
  }
  poisson_->save_state(checkpoint);
}

void QgSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  time_ = checkpoint.scalar("time");
  step_ = static_cast<long>(checkpoint.scalar("step"));
  dt_ = checkpoint.scalar("dt");
  residual_ = checkpoint.scalar("residual");
  averaged_time_ = checkpoint.scalar("averaged_time");
  energy_at_start_ = checkpoint.scalar("energy_at_start");
  integrals_.clear();
  for (const auto& [name, value] : checkpoint.scalars) {
    if (name.rfind("integral_", 0) == 0) integrals_[name.substr(9)] = value;
    if (name.rfind("last_", 0) == 0) last_[name.substr(5)] = value;
  }
  for (auto [name, f] : {std::pair{"psi", psi_}, {"omega", omega_}}) {
    const io::NamedArray& a = checkpoint.array(name);
    if (a.tuples() != f.size())
      throw InputError(
          fmt::format("checkpoint array '{}' does not match this grid and "
                      "decomposition",
                      name));
    auto host = Kokkos::create_mirror_view(f);
    std::copy(a.values.data(), a.values.data() + f.size(), host.data());
    Kokkos::deep_copy(f, host);
  }
  poisson_->load_state(checkpoint);
}

void QgSolver::finalize(const std::filesystem::path&, nlohmann::json& results) {
  nlohmann::json qg;
  for (const auto& [name, value] : diagnostics()) qg[name] = value;
  qg["average_window"] = {average_from_, time_};
  qg["phase_times_s"] = phase_seconds_;
  qg["parameters"] = {{"beta", p_.beta},           {"drag", p_.drag},
                      {"viscosity", p_.viscosity}, {"forcing", p_.forcing},
                      {"length", {p_.lx, p_.ly}},  {"cells", {nx_, ny_}}};
  results["qg"] = qg;
}

}  // namespace surrox::solvers::qg

#include "solvers/heat/heat_solver.hpp"

#include <cmath>

#include "io/hdf5_checkpoint.hpp"

namespace surrox::solvers::heat {

Schema HeatSolver::schema() {
  Schema s("Explicit heat equation with an exact sine-mode solution.");
  s.section("grid", mesh::CartesianGrid::schema(), "the grid");
  s.real("diffusivity", "thermal diffusivity κ").above(0).units("m^2/s").fallback("1.0");
  s.real("end_time", "simulated time to reach").above(0).units("s").fallback("0.02");
  s.real("cfl", "time step as a fraction of the stable limit h²/(2dκ)")
      .above(0)
      .at_most(1)
      .fallback("0.9");
  s.real("amplitude", "amplitude A of the initial sine mode").fallback("1.0");
  s.integers("modes", "sine mode numbers per direction, [mx, my] or [mx, my, mz]")
      .at_least(1)
      .fallback("[1, 1]");
  return s;
}

void HeatSolver::initialize(const CaseNode& config, Runtime& runtime) {
  if (runtime.size() > 1)
    throw InputError("the heat demo solver runs on one rank; start it without mpirun",
                     config.context("type"));
  grid_ = mesh::CartesianGrid::from_case(config.section("grid"));
  kappa_ = config.real("diffusivity");
  end_time_ = config.real("end_time");
  amplitude_ = config.real("amplitude");
  const auto modes = config.integers("modes");
  if (modes.size() != static_cast<std::size_t>(grid_.dimension()))
    config.fail("modes", "needs one mode number per grid direction (" +
                             std::to_string(grid_.dimension()) + ")");
  for (std::size_t d = 0; d < modes.size(); ++d) modes_[d] = modes[d];
  dt_ = config.real("cfl") * stable_dt();
  // Land exactly on end_time with equal steps.
  steps_ = static_cast<long>(std::ceil(end_time_ / dt_ - 1e-9));
  dt_ = end_time_ / static_cast<double>(steps_);

  u_ = exact(0.0);
  next_ = Field3("HeatSolver::next", u_.extent(0), u_.extent(1), u_.extent(2));
  Kokkos::deep_copy(next_, u_);
  state_ = FieldSet();
  state_.add("u", u_, "K");
  time_ = 0;
  step_ = 0;
}

double HeatSolver::stable_dt() const {
  double h_min = grid_.spacing(0);
  for (int d = 1; d < grid_.dimension(); ++d) h_min = std::min(h_min, grid_.spacing(d));
  return h_min * h_min / (2.0 * grid_.dimension() * kappa_);
}

double HeatSolver::decay_rate() const {
  double sum = 0;
  for (int d = 0; d < grid_.dimension(); ++d) {
    const double k = modes_[d] / grid_.length[d];
    sum += k * k;
  }
  return kappa_ * M_PI * M_PI * sum;
}

Field3 HeatSolver::exact(double t) const {
  const long nz = grid_.points[2], ny = grid_.points[1], nx = grid_.points[0];
  Field3 field("HeatSolver::exact", nz, ny, nx);
  const double hx = grid_.spacing(0), hy = grid_.spacing(1), hz = grid_.spacing(2);
  const double kx = modes_[0] * M_PI / grid_.length[0], ky = modes_[1] * M_PI / grid_.length[1];
  const double kz = grid_.dimension() == 3 ? modes_[2] * M_PI / grid_.length[2] : 0.0;
  const double scale = amplitude_ * std::exp(-decay_rate() * t);
  const bool three_d = grid_.dimension() == 3;
  Kokkos::parallel_for(
      "HeatSolver::exact", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {nz, ny, nx}),
      KOKKOS_LAMBDA(long k, long j, long i) {
        double v = scale * sin(kx * i * hx) * sin(ky * j * hy);
        if (three_d) v *= sin(kz * k * hz);
        field(k, j, i) = v;
      });
  return field;
}

StepReport HeatSolver::advance() {
  const long nz = grid_.points[2], ny = grid_.points[1], nx = grid_.points[0];
  const double hx = grid_.spacing(0), hy = grid_.spacing(1), hz = grid_.spacing(2);
  const double cx = kappa_ * dt_ / (hx * hx), cy = kappa_ * dt_ / (hy * hy);
  const double cz = nz > 1 ? kappa_ * dt_ / (hz * hz) : 0.0;
  const long k0 = nz > 1 ? 1 : 0, k1 = nz > 1 ? nz - 1 : 1;
  Field3 u = u_, next = next_;
  double change = 0;
  // Interior points only: boundary values stay at the Dirichlet value u = 0.
  Kokkos::parallel_reduce(
      "HeatSolver::advance",
      Kokkos::MDRangePolicy<Kokkos::Rank<3>>({k0, 1, 1}, {k1, ny - 1, nx - 1}),
      KOKKOS_LAMBDA(long k, long j, long i, double& max_change) {
        double laplacian = cx * (u(k, j, i - 1) - 2 * u(k, j, i) + u(k, j, i + 1)) +
                           cy * (u(k, j - 1, i) - 2 * u(k, j, i) + u(k, j + 1, i));
        if (cz != 0.0) laplacian += cz * (u(k - 1, j, i) - 2 * u(k, j, i) + u(k + 1, j, i));
        next(k, j, i) = u(k, j, i) + laplacian;
        const double d = laplacian < 0 ? -laplacian : laplacian;
        if (!(d <= max_change)) max_change = d;  // a NaN wins, so divergence shows
      },
      Kokkos::Max<double>(change));
  std::swap(u_, next_);
  state_.fields["u"] = u_;
  ++step_;
  // From the step count, not by summing dt: the last step lands exactly on end_time.
  time_ = step_ == steps_ ? end_time_ : static_cast<double>(step_) * dt_;
  residual_ = change / dt_;
  return {step_, time_, dt_};
}

Diagnostics HeatSolver::diagnostics() const {
  const Field3 reference = exact(time_);
  const Field3 u = u_;
  double squared = 0, worst = 0;
  const long nz = grid_.points[2], ny = grid_.points[1], nx = grid_.points[0];
  Kokkos::parallel_reduce(
      "HeatSolver::error_l2", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {nz, ny, nx}),
      KOKKOS_LAMBDA(long k, long j, long i, double& sum) {
        const double e = u(k, j, i) - reference(k, j, i);
        sum += e * e;
      },
      squared);
  Kokkos::parallel_reduce(
      "HeatSolver::error_max", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {nz, ny, nx}),
      KOKKOS_LAMBDA(long k, long j, long i, double& m) {
        const double e = fabs(u(k, j, i) - reference(k, j, i));
        if (e > m) m = e;
      },
      Kokkos::Max<double>(worst));
  const double peak_exact = std::fabs(amplitude_) * std::exp(-decay_rate() * time_);
  return {{"error_l2_rms", std::sqrt(squared / grid_.count())},
          {"error_max", worst},
          {"error_max_relative", peak_exact > 0 ? worst / peak_exact : worst},
          {"peak_exact", peak_exact},
          {"dt", dt_},
          {"decay_rate", decay_rate()}};
}

io::MeshData HeatSolver::output_mesh() const {
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kImage;
  for (int d = 0; d < 3; ++d) {
    mesh.extent[2 * d] = 0;
    mesh.extent[2 * d + 1] = grid_.points[d] - 1;
    mesh.spacing[d] = grid_.points[d] > 1 ? grid_.spacing(d) : 1.0;
  }
  // (k, j, i) LayoutRight is VTK point order (i fastest): a flat copy is all it takes.
  auto add = [&](const std::string& name, const Field3& field) {
    io::HostArray values("HeatSolver::" + name, grid_.count(), 1);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
    std::copy(host.data(), host.data() + grid_.count(), values.data());
    mesh.point_data.push_back({name, values});
  };
  add("u", u_);
  add("u_exact", exact(time_));
  return mesh;
}

}  // namespace surrox::solvers::heat

namespace surrox::solvers::heat {

Diagnostics HeatSolver::monitor() const {
  const Field3 u = u_;
  double peak = 0;
  Kokkos::parallel_reduce(
      "HeatSolver::peak", u.size(),
      KOKKOS_LAMBDA(std::size_t n, double& m) {
        const double v = fabs(u.data()[n]);
        if (v > m) m = v;
      },
      Kokkos::Max<double>(peak));
  return {{"peak", peak}, {"peak_exact", std::fabs(amplitude_) * std::exp(-decay_rate() * time_)}};
}

void HeatSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  io::HostArray u("HeatSolver::checkpoint_u", grid_.count(), 1);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_);
  std::copy(host.data(), host.data() + grid_.count(), u.data());
  checkpoint.arrays.push_back({"u", u});
  checkpoint.scalars["heat_step"] = static_cast<double>(step_);
  checkpoint.scalars["heat_dt"] = dt_;
}

void HeatSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  const io::NamedArray& u = checkpoint.array("u");
  if (u.tuples() != static_cast<std::size_t>(grid_.count()) || u.components() != 1)
    throw InputError("checkpoint holds " + std::to_string(u.tuples()) + " points, this case has " +
                     std::to_string(grid_.count()));
  if (checkpoint.scalar("heat_dt") != dt_)
    throw InputError(
        "checkpoint was written with another time step (grid, cfl or end_time changed)");
  auto host = Kokkos::create_mirror_view(u_);
  std::copy(u.values.data(), u.values.data() + grid_.count(), host.data());
  Kokkos::deep_copy(u_, host);
  state_.fields["u"] = u_;
  step_ = static_cast<long>(checkpoint.scalar("heat_step"));
  time_ = step_ == steps_ ? end_time_ : static_cast<double>(step_) * dt_;
}

}  // namespace surrox::solvers::heat

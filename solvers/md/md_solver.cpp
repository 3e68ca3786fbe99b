#include "solvers/md/md_solver.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>

#include "solvers/md/atom_packing.hpp"
#include "solvers/md/data_file.hpp"
#include "solvers/md/lattice.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::md {

void MdSolver::initialize(const CaseNode& config, Runtime& runtime) {
  comm_ = runtime.comm();
  rank_ = runtime.rank();
  const std::string units_name = config.string("units");
  system_.units = Units::from_name(units_name);
  AtomData data;
  if (config.has("data_file")) {
    data = read_data_file(config.string("data_file"));
  } else {
    const CaseNode lattice = config.section("lattice");
    const std::string style = lattice.string("style");
    const bool has_density = lattice.has("density"), has_constant = lattice.has("constant");
    if (has_density == has_constant)
      lattice.fail("style", "give exactly one of `density` (lj) or `constant` (the cell edge)");
    const double a = has_constant ? lattice.real("constant")
                                  : std::cbrt(lattice_basis_count(style) / lattice.real("density"));
    const auto n = lattice.integers("replicate");
    data = make_lattice(style, a, {n[0], n[1], n[2]}, lattice.real("mass"));
  }
  const CaseNode velocity = config.section("velocity");
  if (velocity.real("temperature") > 0)
    create_velocities(data, velocity.real("temperature"), velocity.integer("seed"), system_.units);
  if (data.natoms() < 2) config.fail("data_file", "a system needs at least two atoms");
  natoms_ = data.natoms();
  dof_ = 3.0 * static_cast<double>(natoms_) - 3.0;

  const CaseNode pair = config.section("pair");
  potential_ = potential_registry().at(pair.type(), pair.context("type")).make(pair, units_name);
  const CaseNode neighbor = config.section("neighbor");
  try {
    neighbors_.setup(data.box, potential_->cutoff(), neighbor.real("skin"), potential_->half_list(),
                     comm_);
  } catch (const InputError& e) {
    config.fail("pair", e.detail());
  }
  // Every rank keeps the atoms in its block.
  if (neighbors_.ranks() > 1) {
    AtomData mine = without_atoms(data);
    for (long i = 0; i < data.natoms(); ++i)
      if (neighbors_.owns(data.x[i])) append_atom(data, i, mine);
    data = std::move(mine);
  }
  system_.load(data);
  potential_->check(system_);
  neighbors_.sort_every = neighbor.integer("sort");
  neigh_every_ = neighbor.integer("every");
  neigh_check_ = neighbor.boolean("check");

  const CaseNode integrator = config.section("integrator");
  dt_ = config.real("dt");
  thermostat_ = thermostat_registry()
                    .at(integrator.string("style"), integrator.context("style"))
                    .make(integrator, {system_.units, dt_, dof_, natoms_, comm_});
  steps_ = config.integer("steps");
  if (config.has("end_time"))
    steps_ = std::max<long>(1, static_cast<long>(std::ceil(config.real("end_time") / dt_ - 1e-9)));
  const CaseNode barostat = config.section("barostat");
  barostat_.setup(barostat, system_.units, integrator.real("temperature"), natoms_, dt_);
  if (barostat_.active() && !thermostat_->holds_temperature())
    barostat.fail("style",
                  "a barostat needs a thermostat's temperature: set integrator.style to langevin "
                  "or nose_hoover");
  thermo_every_ = config.integer("thermo");
  per_atom_ = config.boolean("per_atom");
  per_atom_step_ = -1;
  outputs_.clear();
  for (const std::string& name : md_outputs().names())
    if (auto output = md_outputs().at(name).make(config, *this))
      outputs_.push_back(std::move(output));
  std::stable_partition(outputs_.begin(), outputs_.end(),
                        [](const auto& o) { return !o->recomputes_forces(); });
  step_ = 0;
  rows_.clear();
  phase_seconds_.clear();

  neighbors_.build(system_, 0);
  compute_forces(true);
  check_forces();
  rows_.push_back(measure_thermo());
  for (auto& output : outputs_) output->start(*this);
  refresh_state();
  spdlog::info(
      "md: {} atoms, box {:.6g} x {:.6g} x {:.6g}, {} ghosts, pair {}, {} neighbours per atom",
      natoms_, system_.box.length(0), system_.box.length(1), system_.box.length(2),
      system_.nall - system_.nlocal, pair.type(), static_cast<double>(neighbors_.max_neighbors()));
}

void MdSolver::refresh_state() {
  // Builds may move atoms between ranks and reallocate the Views.
  state_ = FieldSet();
  state_.add("velocity", Field3(system_.v.data(), system_.nlocal, 1, 3), "velocity");
  seen_builds_ = neighbors_.builds();
}

void MdSolver::compute_forces(bool energy) {
  ForceTally tally;
  tally.energy = energy;
  tally.per_atom = energy && per_atom_;
  tally.step = step_;
  {
    ScopedPhase clock(phase_seconds_, "force");
    const auto rows = std::make_pair(0L, system_.nall);
    Kokkos::deep_copy(Kokkos::subview(system_.f, rows, Kokkos::ALL), 0.0);
    if (tally.per_atom) {
      const long capacity = static_cast<long>(system_.x.extent(0));
      if (static_cast<long>(eatom_.extent(0)) < capacity) {
        eatom_ = RealView("MdSolver::eatom", capacity);
        vatom_ = VirialView("MdSolver::vatom", capacity);
      }
      Kokkos::deep_copy(Kokkos::subview(eatom_, rows), 0.0);
      Kokkos::deep_copy(Kokkos::subview(vatom_, rows, Kokkos::ALL), 0.0);
      tally.eatom = eatom_;
      tally.vatom = vatom_;
    }
    potential_->compute(system_, neighbors_, tally);
    if (barostat_.active()) {
      virial_diagonal_ = virial_fdotr_diagonal(system_);
      MPI_Allreduce(MPI_IN_PLACE, virial_diagonal_.data(), 3, MPI_DOUBLE, MPI_SUM, comm_);
    }
    if (energy) {
      double sums[2] = {tally.potential, tally.virial};
      MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, comm_);
      energy_ = sums[0];
      virial_ = sums[1];
      energy_step_ = step_;
    }
  }
  ScopedPhase clock(phase_seconds_, "comm");
  neighbors_.reverse_forces(system_);
  if (tally.per_atom) {
    using Rows = Kokkos::View<double**, Kokkos::LayoutRight>;
    neighbors_.reverse(Rows(eatom_.data(), eatom_.extent(0), 1));
    neighbors_.reverse(Rows(vatom_.data(), vatom_.extent(0), 6));
    per_atom_step_ = step_;
  }
}

void MdSolver::tally_keeping_forces() {
  // Forces of this step may hold a thermostat's share: recompute with the tally, keep them.
  Vec3View kept(Kokkos::view_alloc(Kokkos::WithoutInitializing, "MdSolver::kept_f"),
                system_.f.extent(0));
  Kokkos::deep_copy(kept, system_.f);
  compute_forces(true);
  Kokkos::deep_copy(system_.f, kept);
}

void MdSolver::check_forces() {
  // Overlapping atoms give huge or non-finite forces, a blow-up non-finite positions or
  // velocities: name the first such atom and the step.
  auto x = system_.x;
  auto v = system_.v;
  auto f = system_.f;
  const double limit = 1e10 / system_.units.ftm2v;  // far beyond any physical force
  long bad_force = system_.nlocal, lost = system_.nlocal;
  Kokkos::parallel_reduce(
      "MdSolver::check_atoms", system_.nlocal,
      KOKKOS_LAMBDA(long i, long& first_force, long& first_lost) {
        const double f2 = f(i, 0) * f(i, 0) + f(i, 1) * f(i, 1) + f(i, 2) * f(i, 2);
        if (!(f2 < limit * limit) && i < first_force) first_force = i;
        double s = 0;
        for (int d = 0; d < 3; ++d) s += x(i, d) * 0.0 + v(i, d) * 0.0;
        if (!(s == 0.0) && i < first_lost) first_lost = i;  // NaN or infinity somewhere
      },
      Kokkos::Min<long>(bad_force), Kokkos::Min<long>(lost));
  auto tag_of = [&](long i) {
    long tag = std::numeric_limits<long>::max();
    if (i < system_.nlocal) Kokkos::deep_copy(tag, Kokkos::subview(system_.tag, i));
    MPI_Allreduce(MPI_IN_PLACE, &tag, 1, MPI_LONG, MPI_MIN, comm_);
    return tag;
  };
  const long lost_tag = tag_of(lost);
  if (lost_tag != std::numeric_limits<long>::max())
    throw Error(fmt::format(
        "atom {} was lost at step {}: its position or velocity is no longer finite (a force "
        "blow-up, e.g. from overlapping atoms or too large a time step)",
        lost_tag, step_));
  const long bad_tag = tag_of(bad_force);
  if (bad_tag != std::numeric_limits<long>::max()) {
    double fnorm = 0;
    if (bad_force < system_.nlocal) {
      auto hf = Kokkos::create_mirror_view_and_copy(
          Kokkos::HostSpace(), Kokkos::subview(system_.f, bad_force, Kokkos::ALL));
      fnorm = std::sqrt(hf(0) * hf(0) + hf(1) * hf(1) + hf(2) * hf(2));
      if (!std::isfinite(fnorm)) fnorm = INFINITY;
    }
    MPI_Allreduce(MPI_IN_PLACE, &fnorm, 1, MPI_DOUBLE, MPI_MAX, comm_);
    throw Error(fmt::format(
        "force blow-up on atom {} at step {}: |f| = {:.3g} (overlapping atoms, or the time "
        "step is too large)",
        bad_tag, step_, fnorm));
  }
}

double MdSolver::mv2() const { return sum_mv2(system_, comm_); }

ThermoRow MdSolver::measure_thermo() {
  if (energy_step_ != step_)
    compute_forces(true);  // same forces, bit for bit, plus energy and virial
  const Units& u = system_.units;
  const double n = static_cast<double>(natoms_);
  const double ke2 = mv2() * u.mvv2e;  // = dof·k_B·T
  ThermoRow row;
  row.step = step_;
  row.temp = ke2 / (dof_ * u.boltz);
  row.e_kin = 0.5 * ke2;
  row.e_pair = energy_;
  row.press = (ke2 + virial_) / (3.0 * system_.box.volume()) * u.nktv2p;
  if (u.normalize) {
    row.e_kin /= n;
    row.e_pair /= n;
  }
  row.e_total = row.e_pair + row.e_kin;
  row.vol = system_.box.volume();
  row.lx = system_.box.length(0);
  row.ly = system_.box.length(1);
  row.lz = system_.box.length(2);
  return row;
}

ThermoRow MdSolver::thermo() const {
  if (!rows_.empty() && rows_.back().step == step_) return rows_.back();
  // Energies are not kept on every step; computing them leaves the trajectory unchanged.
  auto* self = const_cast<MdSolver*>(this);
  if (energy_step_ != step_) self->tally_keeping_forces();
  return self->measure_thermo();
}

void MdSolver::rescale_box() {
  ScopedPhase clock(phase_seconds_, "integrate");
  const Box next = barostat_.next_box(system_.box, virial_diagonal_, step_);
  scale_atoms(system_, system_.box, next);
  system_.box = next;
  neighbors_.set_box(next);
}

StepReport MdSolver::advance() {
  ++step_;
  auto x = system_.x;
  auto v = system_.v;
  auto f = system_.f;
  auto type = system_.type;
  auto mass = system_.mass;
  const double dtf = 0.5 * dt_ * system_.units.ftm2v, dtv = dt_;
  if (barostat_.active()) rescale_box();
  {
    ScopedPhase clock(phase_seconds_, "integrate");
    thermostat_->half_step(system_);
    Kokkos::parallel_for(
        "MdSolver::initial_integrate", system_.nlocal, KOKKOS_LAMBDA(long i) {
          const double dtfm = dtf / mass(type(i));
          for (int d = 0; d < 3; ++d) {
            v(i, d) += dtfm * f(i, d);
            x(i, d) += dtv * v(i, d);
          }
        });
  }
  {
    ScopedPhase clock(phase_seconds_, "neighbor");
    const bool decide = step_ % neigh_every_ == 0;
    if (decide && (!neigh_check_ || neighbors_.displaced_too_far(system_))) {
      neighbors_.build(system_, step_);
      refresh_state();
      x = system_.x, v = system_.v, f = system_.f, type = system_.type;
    } else {
      neighbors_.update_ghosts(system_);
    }
  }
  const bool thermo_step = step_ % thermo_every_ == 0 || step_ == steps_;
  bool energy_step = thermo_step;
  for (const auto& output : outputs_) energy_step = energy_step || output->needs_energy(step_);
  compute_forces(energy_step);
  {
    ScopedPhase clock(phase_seconds_, "integrate");
    thermostat_->add_forces(system_, step_);
  }
  {
    ScopedPhase clock(phase_seconds_, "integrate");
    Kokkos::parallel_for(
        "MdSolver::final_integrate", system_.nlocal, KOKKOS_LAMBDA(long i) {
          const double dtfm = dtf / mass(type(i));
          for (int d = 0; d < 3; ++d) v(i, d) += dtfm * f(i, d);
        });
    thermostat_->half_step(system_);
  }
  if (thermo_step) {
    ScopedPhase clock(phase_seconds_, "thermo");
    check_forces();
    rows_.push_back(measure_thermo());
    residual_ = rows_.back().e_total;
    if (!std::isfinite(residual_))
      throw Error(fmt::format("the md run diverged at step {}: total energy {}", step_, residual_));
  }
  {
    ScopedPhase clock(phase_seconds_, "thermo");
    for (auto& output : outputs_) output->after_step(*this, step_);
  }
  return {step_, time(), dt_};
}

void MdSolver::with_potential_labels(
    const std::function<void(const System&, const VirialView&, double)>& use) {
  // The potential's own forces with the per-atom virial; the step's forces (which may hold a
  // thermostat's share) are restored after, so the trajectory is unchanged.
  Vec3View kept(Kokkos::view_alloc(Kokkos::WithoutInitializing, "MdSolver::kept_f"),
                system_.f.extent(0));
  Kokkos::deep_copy(kept, system_.f);
  const bool per_atom = per_atom_;
  per_atom_ = true;
  compute_forces(true);
  per_atom_ = per_atom;
  use(system_, vatom_, energy_);
  Kokkos::deep_copy(system_.f, kept);
}

double MdSolver::pair_cutoff() const { return potential_->cutoff(); }

Diagnostics MdSolver::monitor() const {
  const ThermoRow r = thermo();
  return {{"temp", r.temp},
          {"e_pair", r.e_pair},
          {"e_kin", r.e_kin},
          {"e_total", r.e_total},
          {"press", r.press}};
}

Diagnostics MdSolver::diagnostics() const {
  Diagnostics d = monitor();
  d["atoms"] = static_cast<double>(natoms_);
  d["ranks"] = static_cast<double>(neighbors_.ranks());
  d["neighbor_builds"] = static_cast<double>(neighbors_.builds());
  if (!rows_.empty()) {
    const double e0 = rows_.front().e_total;
    double drift = 0;
    for (const auto& r : rows_) drift = std::max(drift, std::fabs(r.e_total - e0));
    d["energy_drift_max_relative"] = e0 != 0 ? drift / std::fabs(e0) : drift;
  }
  if (barostat_.active()) {
    d["volume"] = system_.box.volume();
    const auto p = barostat_.internal_pressure(system_.box, virial_diagonal_);
    for (int a = 0; a < 3; ++a) d[std::string("barostat_pressure_") + char('x' + a)] = p[a];
  }
  thermostat_->add_diagnostics(d);
  return d;
}

std::map<std::string, double> MdSolver::phase_times() const { return phase_seconds_; }

io::MeshData MdSolver::output_mesh() const {
  const long n = system_.nlocal;
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kPolyData;
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.x);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.v);
  auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.f);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.type);
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.tag);
  mesh.points = io::HostArray("md::points", n, 3);
  io::HostArray velocity("md::velocity", n, 3), force("md::force", n, 3), id("md::id", n, 1),
      type("md::type", n, 1);
  mesh.cell_types.assign(n, 1);  // VTK_VERTEX
  mesh.cell_offsets.resize(n + 1);
  mesh.connectivity.resize(n);
  for (long i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) {
      mesh.points(i, d) = hx(i, d);
      velocity(i, d) = hv(i, d);
      force(i, d) = hf(i, d);
    }
    id(i, 0) = static_cast<double>(hg(i));
    type(i, 0) = ht(i);
    mesh.cell_offsets[i] = i;
    mesh.connectivity[i] = i;
  }
  mesh.cell_offsets[n] = n;
  mesh.point_data = {{"velocity", velocity}, {"force", force}, {"id", id}, {"type", type}};
  if (per_atom_) {
    if (per_atom_step_ != step_) const_cast<MdSolver*>(this)->tally_keeping_forces();
    auto he = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), eatom_);
    auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), vatom_);
    io::HostArray energy("md::pe_atom", n, 1), virial("md::virial_atom", n, 6);
    for (long i = 0; i < n; ++i) {
      energy(i, 0) = he(i);
      for (int c = 0; c < 6; ++c) virial(i, c) = hw(i, c);
    }
    mesh.point_data.push_back({"pe_atom", energy});
    mesh.point_data.push_back({"virial_atom", virial});
  }
  return mesh;
}

AtomData MdSolver::gather() const {
  AtomData mine = system_.to_host();
  if (neighbors_.ranks() == 1) return mine;
  std::vector<double> packed;
  for (long i = 0; i < mine.natoms(); ++i) pack_atom(mine, i, packed);
  int nranks = neighbors_.ranks();
  int count = static_cast<int>(packed.size());
  std::vector<int> counts(nranks), offsets(nranks + 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  for (int r = 0; r < nranks; ++r) offsets[r + 1] = offsets[r] + counts[r];
  std::vector<double> all(rank_ == 0 ? offsets[nranks] : 0);
  MPI_Gatherv(packed.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(),
              MPI_DOUBLE, 0, comm_);
  AtomData out = without_atoms(mine);
  if (rank_ != 0) return out;
  std::vector<std::size_t> order(all.size() / kPackedAtom);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return all[kPackedAtom * a] < all[kPackedAtom * b];
  });
  for (std::size_t k : order) unpack_atom(&all[kPackedAtom * k], out);
  return out;
}

void MdSolver::finalize(const std::filesystem::path& output_dir, nlohmann::json& results) {
  const AtomData all = gather();  // collective
  if (rank_ == 0) {
    std::ofstream out(output_dir / "thermo.csv");
    out << "step,temp,e_pair,e_kin,e_total,press,vol,lx,ly,lz\n";
    for (const auto& r : rows_)
      out << fmt::format(
          "{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", r.step,
          r.temp, r.e_pair, r.e_kin, r.e_total, r.press, r.vol, r.lx, r.ly, r.lz);
  }
  if (rank_ == 0) write_data_file(output_dir / "final.data", all, system_.units.name, step_);
  for (auto& output : outputs_) output->finalize(*this, output_dir, results);
  potential_->finalize(output_dir, rank_, results);
  nlohmann::json thermo = nlohmann::json::array();
  for (const auto& r : rows_)
    thermo.push_back({{"step", r.step},
                      {"temp", r.temp},
                      {"e_pair", r.e_pair},
                      {"e_kin", r.e_kin},
                      {"e_total", r.e_total},
                      {"press", r.press},
                      {"vol", r.vol},
                      {"lx", r.lx},
                      {"ly", r.ly},
                      {"lz", r.lz}});
  results["thermo"] = thermo;
  results["md"] = {{"atoms", natoms_},
                   {"ranks", neighbors_.ranks()},
                   {"units", system_.units.name},
                   {"neighbor_builds", neighbors_.builds()},
                   {"phase_seconds", phase_seconds_}};
}

}  // namespace surrox::solvers::md

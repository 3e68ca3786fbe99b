// The MD checkpoint: the atoms as the last neighbour build left them (so the restart rebuilds
// the very lists, ghosts and atom order of the straight run), where they are now, the
// thermostat and list-schedule state, and the run's records so far (thermo rows, RDF samples,
// dump and DeePMD frames), so that a restarted run continues bit for bit and its outputs cover
// the whole run.
#include <fmt/format.h>

#include <string>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/md/md_solver.hpp"

namespace surrox::solvers::md {
namespace {

constexpr int kThermoColumns = 10;  // step temp e_pair e_kin e_total press vol lx ly lz

io::HostArray thermo_array(const std::vector<ThermoRow>& rows) {
  io::HostArray a("md_thermo", rows.size(), kThermoColumns);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const ThermoRow& t = rows[r];
    const double values[kThermoColumns] = {static_cast<double>(t.step),
                                           t.temp,
                                           t.e_pair,
                                           t.e_kin,
                                           t.e_total,
                                           t.press,
                                           t.vol,
                                           t.lx,
                                           t.ly,
                                           t.lz};
    for (int k = 0; k < kThermoColumns; ++k) a(r, k) = values[k];
  }
  return a;
}

// Checkpoints from before the box columns (6 columns) had the case's box throughout.
std::vector<ThermoRow> rows_from_array(const io::HostArray& a, const Box& box) {
  std::vector<ThermoRow> rows(a.extent(0));
  const bool has_box = a.extent(1) >= kThermoColumns;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r] = {static_cast<long>(a(r, 0)), a(r, 1), a(r, 2), a(r, 3), a(r, 4), a(r, 5)};
    rows[r].vol = has_box ? a(r, 6) : box.volume();
    rows[r].lx = has_box ? a(r, 7) : box.length(0);
    rows[r].ly = has_box ? a(r, 8) : box.length(1);
    rows[r].lz = has_box ? a(r, 9) : box.length(2);
  }
  return rows;
}

void save_box(io::Hdf5Checkpoint& c, const std::string& name, const Box& box) {
  for (int d = 0; d < 3; ++d) {
    c.scalars[fmt::format("{}_lo_{}", name, char('x' + d))] = box.lo[d];
    c.scalars[fmt::format("{}_hi_{}", name, char('x' + d))] = box.hi[d];
  }
}

// `fallback` for checkpoints written before the box could change.
Box load_box(const io::Hdf5Checkpoint& c, const std::string& name, const Box& fallback) {
  Box box;
  for (int d = 0; d < 3; ++d) {
    box.lo[d] = c.scalar_or(fmt::format("{}_lo_{}", name, char('x' + d)), fallback.lo[d]);
    box.hi[d] = c.scalar_or(fmt::format("{}_hi_{}", name, char('x' + d)), fallback.hi[d]);
  }
  return box;
}

}  // namespace

void MdSolver::save_state(io::Hdf5Checkpoint& c) const {
  const long n = system_.nlocal;
  // The owned rows of a per-atom vector, as a checkpoint array.
  auto owned = [&](const Vec3View& view, const char* name) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
    io::HostArray a(std::string(name), n, 3);
    for (long i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) a(i, d) = host(i, d);
    c.arrays.push_back({name, a});
  };
  owned(system_.x, "md_x");
  owned(system_.v, "md_v");
  owned(neighbors_.xhold(), "md_xhold");
  // The forces the next half-kick uses, as the step left them: a Langevin share depends on the
  // mid-step velocities, which the checkpoint does not hold otherwise.
  owned(system_.f, "md_f");
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.type);
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.tag);
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.image);
  io::HostArray ids("ids", n, 5);
  for (long i = 0; i < n; ++i) {
    ids(i, 0) = static_cast<double>(hg(i));
    ids(i, 1) = ht(i);
    for (int d = 0; d < 3; ++d) ids(i, 2 + d) = hi(i, d);
  }
  c.arrays.push_back({"md_ids", ids});
  c.scalars["md_step"] = static_cast<double>(step_);
  c.scalars["md_atoms"] = static_cast<double>(natoms_);
  thermostat_->save_state(c);
  c.scalars["md_neighbor_builds"] = static_cast<double>(neighbors_.builds());
  c.scalars["md_last_sort"] = static_cast<double>(neighbors_.last_sort());
  c.scalars["md_residual"] = residual_;  // the last thermo row's e_total; 0 before the first
  save_box(c, "md_box", system_.box);    // a barostat changes both
  save_box(c, "md_build_box", neighbors_.build_box());
  // Records: every rank holds the same thermo rows (and RDF samples), rank 0 the frames.
  c.arrays.push_back({"md_thermo", thermo_array(rows_)});
  for (const auto& output : outputs_) output->save(c);
  potential_->save_state(c);
}

void MdSolver::load_state(const io::Hdf5Checkpoint& c) {
  if (static_cast<long>(c.scalar("md_atoms")) != natoms_)
    throw InputError(
        fmt::format("the checkpoint holds {} atoms, this case {}", c.scalar("md_atoms"), natoms_));
  const auto& x = c.array("md_x").values;
  const auto& v = c.array("md_v").values;
  const auto& hold = c.array("md_xhold").values;
  const auto& ids = c.array("md_ids").values;
  const long n = static_cast<long>(x.extent(0));
  // Rebuild the lists exactly as they were, from the positions of the last build (this rank's
  // atoms, in their order), then move the atoms to where they are: the continuation is
  // bitwise the uninterrupted run.
  const Box box = load_box(c, "md_box", system_.box);
  AtomData data;
  data.box = load_box(c, "md_build_box", box);
  data.ntypes = system_.ntypes;
  auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), system_.mass);
  data.mass.assign(hm.data(), hm.data() + hm.extent(0));
  data.has_velocities = true;
  for (long i = 0; i < n; ++i) {
    data.tag.push_back(static_cast<long>(ids(i, 0)));
    data.type.push_back(static_cast<int>(ids(i, 1)));
    data.x.push_back({hold(i, 0), hold(i, 1), hold(i, 2)});
    data.v.push_back({v(i, 0), v(i, 1), v(i, 2)});
    data.image.push_back(
        {static_cast<int>(ids(i, 2)), static_cast<int>(ids(i, 3)), static_cast<int>(ids(i, 4))});
  }
  system_.load(data);
  step_ = static_cast<long>(c.scalar("md_step"));
  thermostat_->load_state(c);
  // The saved atoms are in the order the last build (and its sort) left them: rebuilding must
  // not sort again, or the positions below would land on other atoms. Checkpoints from before
  // the sort step was saved assume the default schedule.
  const long sort_every = std::max<long>(neighbors_.sort_every, 1);
  const long last_sort = static_cast<long>(
      c.scalar_or("md_last_sort", static_cast<double>(step_ - step_ % sort_every)));
  neighbors_.set_box(data.box);
  neighbors_.rebuild_saved(system_, step_,
                           static_cast<long>(c.scalar_or("md_neighbor_builds", 0.0)), last_sort);
  // Saved values into the owned rows of a per-atom vector (ghost rows kept).
  auto put_owned = [n](const Vec3View& view, const io::HostArray& saved) {
    auto host = Kokkos::create_mirror_view(view);
    Kokkos::deep_copy(host, view);
    for (long i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) host(i, d) = saved(i, d);
    Kokkos::deep_copy(view, host);
  };
  system_.box = box;
  neighbors_.set_box(box);
  put_owned(system_.x, x);
  neighbors_.update_ghosts(system_);
  refresh_state();
  energy_step_ = -1;
  potential_->load_state(c);  // before evaluating: its records already hold this step
  compute_forces(true);       // energy and virial of this step (thermo() between thermo steps)
  // The step's own forces, thermostat share included (bitwise what the straight run holds).
  if (const io::NamedArray* saved = c.find_array("md_f")) put_owned(system_.f, saved->values);
  rows_.clear();
  if (const io::NamedArray* saved = c.find_array("md_thermo"))
    rows_ = rows_from_array(saved->values, system_.box);
  if (rows_.empty()) rows_ = {measure_thermo()};  // a checkpoint from before rows were saved
  residual_ = c.scalar_or("md_residual", rows_.back().e_total);
  for (auto& output : outputs_) output->load(c);
}

}  // namespace surrox::solvers::md

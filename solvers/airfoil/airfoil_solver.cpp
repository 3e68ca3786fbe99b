#include "solvers/airfoil/airfoil_solver.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>

#include "io/hdf5_checkpoint.hpp"
#include "io/vtk_writer.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {
namespace {

using Range2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
using Range1 = Kokkos::RangePolicy<>;
using Rows = Kokkos::pair<long, long>;

// Sums of N per-cell figures in one pass (Kokkos 3 joins through volatile references).
template <int N>
struct SumN {
  double v[N];
  KOKKOS_INLINE_FUNCTION SumN() {
    for (int n = 0; n < N; ++n) v[n] = 0;
  }
  KOKKOS_INLINE_FUNCTION SumN& operator+=(const SumN& o) {
    for (int n = 0; n < N; ++n) v[n] += o.v[n];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile SumN& o) volatile {
    for (int n = 0; n < N; ++n) v[n] += o.v[n];
  }
};

// MPI tags of the ghost-row exchange: rows travelling to the lower and to the upper neighbour.
constexpr int kTagDown = 4101, kTagUp = 4102;
// ... and of the LU-SGS wavefront: edge columns of the forward and of the backward sweep.
constexpr int kTagForward = 4103, kTagBackward = 4104;

KOKKOS_INLINE_FUNCTION long wrap(long i, long n) { return i < 0 ? i + n : (i >= n ? i - n : i); }

// Characteristic far-field state from the interior state wi, the free stream wf and the unit
// normal (nx, ny) pointing out of the domain: Riemann invariants u_n ± 2c/(γ−1), entropy and
// tangential velocity from the side the flow comes from (subsonic normal flow).
KOKKOS_INLINE_FUNCTION State far_field_state(const State& wi, const State& wf, double nx,
                                             double ny) {
  const double g1 = kGamma - 1;
  const double ci = sqrt(kGamma * wi[3] / wi[0]), cf = sqrt(kGamma * wf[3] / wf[0]);
  const double vni = wi[1] * nx + wi[2] * ny, vnf = wf[1] * nx + wf[2] * ny;
  const double rp = vni + 2 * ci / g1, rm = vnf - 2 * cf / g1;
  const double vn = 0.5 * (rp + rm), c = 0.25 * g1 * (rp - rm);
  const State& src = vn > 0 ? wi : wf;
  const double vns = vn > 0 ? vni : vnf;
  const double s = src[3] / pow(src[0], kGamma);
  const double rho = pow(c * c / (kGamma * s), 1 / g1);
  return {{rho, src[1] + (vn - vns) * nx, src[2] + (vn - vns) * ny, rho * c * c / kGamma}};
}

// The free stream at (x, y), optionally with the compressible point vortex of circulation
// gamma_c at the reference point (Thomas & Salas 1986); isentropic with the free stream.
KOKKOS_INLINE_FUNCTION State freestream_at(double x, double y, double x_ref, double y_ref,
                                           double alpha, double mach, double p_inf,
                                           double circulation) {
  double u = cos(alpha), v = sin(alpha);
  if (circulation != 0) {
    const double dx = x - x_ref, dy = y - y_ref;
    const double r = sqrt(dx * dx + dy * dy), theta = atan2(dy, dx);
    const double beta = sqrt(1 - mach * mach);
    const double s = sin(theta - alpha);
    const double f = circulation * beta / (2 * M_PI * r * (1 - mach * mach * s * s));
    u += f * sin(theta);
    v -= f * cos(theta);
  }
  const double t = 1 + 0.5 * (kGamma - 1) * mach * mach * (1 - u * u - v * v);
  const double p = p_inf * pow(t, kGamma / (kGamma - 1));
  const double rho = pow(t, 1 / (kGamma - 1));
  return {{rho, u, v, p}};
}

template <class T, std::size_t N>
const NamedValue<T>& lookup(const NamedValue<T> (&table)[N], const std::string& name,
                            const CaseNode& config, const char* key) {
  for (const auto& row : table)
    if (name == row.name) return row;
  config.fail(key, "unknown value '" + name + "'");
}

template <class T, std::size_t N>
std::vector<std::string> names_of(const NamedValue<T> (&table)[N]) {
  std::vector<std::string> names;
  for (const auto& row : table) names.emplace_back(row.name);
  return names;
}

template <class T, std::size_t N>
std::string docs_of(const NamedValue<T> (&table)[N]) {
  std::string text;
  for (const auto& row : table)
    text += std::string(text.empty() ? "" : "; ") + row.name + ": " + row.doc;
  return text;
}

}  // namespace

Schema AirfoilSolver::schema() {
  Schema s(
      "Steady 2D compressible flow past an airfoil (Euler or laminar Navier–Stokes) on a "
      "body-fitted O-grid: cell-centred finite volumes, Roe flux with MUSCL reconstruction, "
      "LU-SGS pseudo-time stepping. Units: ρ∞ = 1, |u∞| = 1, chord = 1, p∞ = 1/(γM²).");
  s.choice("equations", names_of(kEquationsTable),
           "governing equations (" + docs_of(kEquationsTable) + ")")
      .fallback("euler");
  s.real("mach", "free-stream Mach number (subsonic far field; shocks only with limiter minmod)")
      .above(0)
      .at_most(0.9)
      .fallback("0.5");
  s.real("alpha_deg", "angle of attack").units("degree").at_least(-30).at_most(30).fallback("0");
  s.real("reynolds", "Reynolds number ρ∞|u∞|c/μ (required for navier_stokes)").above(0).optional();
  s.real("cfl", "pseudo-time CFL number of the local time steps (LU-SGS is stable far beyond 1)")
      .above(0)
      .at_most(1e6)
      .fallback("50");
  s.integer("cfl_ramp", "iterations over which the CFL number grows geometrically from 1")
      .at_least(0)
      .fallback("50");
  s.integer("max_iterations", "pseudo-time iterations at most").at_least(1).fallback("5000");
  s.real("residual_drop",
         "converged when the L2 density residual falls below this fraction of the first one")
      .above(0)
      .below(1)
      .fallback("1e-8");
  s.choice("limiter", names_of(kLimiterTable),
           "MUSCL slope limiter (" + docs_of(kLimiterTable) + ")")
      .fallback("van_albada");
  s.choice("far_field", names_of(kFarFieldTable),
           "far-field state (" + docs_of(kFarFieldTable) + ")")
      .fallback("vortex");
  s.real("entropy_fix", "Harten's entropy-fix width δ/c on the acoustic waves")
      .at_least(0)
      .at_most(0.5)
      .fallback("0.1");
  s.real("linear_wave_fix",
         "the same width on the entropy and shear waves; default 0.2 for euler (damps the "
         "odd-even entropy layer along the wall, which otherwise stalls convergence), 0 for "
         "navier_stokes (the boundary layer must not see it)")
      .at_least(0)
      .at_most(0.5)
      .optional();
  s.real("lusgs_omega", "LU-SGS over-relaxation ω of the spectral radii (1 ≤ ω ≤ 2)")
      .at_least(1)
      .at_most(2)
      .fallback("1.0");
  s.integer(
       "multigrid_levels",
       "grid levels of the FAS multigrid (1: single grid); coarsening stops at odd or tiny grids")
      .at_least(1)
      .at_most(6)
      .fallback("4");
  s.choice("initial", {"freestream", "restart"},
           "initial state: uniform free stream, or the state in restart_file (a checkpoint.h5 of a "
           "run on the same grid, any Mach number or angle: a warm start; residuals stay relative "
           "to this case's free-stream start; `surrox run --restart` continues a run instead)")
      .fallback("freestream");
  s.input_path("restart_file", "checkpoint to start from when initial = restart").optional();
  s.section("mesh", mesh::airfoil_mesh_schema(), "the O-grid around the airfoil");
  return s;
}

void AirfoilSolver::initialize(const CaseNode& config, Runtime& runtime) {
  AirfoilParameters p;
  p.equations = lookup(kEquationsTable, config.string("equations"), config, "equations").value;
  p.mach = config.real("mach");
  p.alpha_deg = config.real("alpha_deg");
  if (p.equations == Equations::kNavierStokes) {
    if (!config.has("reynolds")) config.fail("reynolds", "required for equations: navier_stokes");
    p.reynolds = config.real("reynolds");
  }
  p.cfl = config.real("cfl");
  p.cfl_ramp = config.integer("cfl_ramp");
  p.max_iterations = config.integer("max_iterations");
  p.residual_drop = config.real("residual_drop");
  p.limiter = lookup(kLimiterTable, config.string("limiter"), config, "limiter").value;
  p.far_field = lookup(kFarFieldTable, config.string("far_field"), config, "far_field").value;
  p.entropy_fix = config.real("entropy_fix");
  p.linear_fix = config.has("linear_wave_fix") ? config.real("linear_wave_fix") : -1.0;
  p.lusgs_omega = config.real("lusgs_omega");
  p.multigrid_levels = config.integer("multigrid_levels");
  const CaseNode mesh_section = config.section("mesh");
  try {  // slabs too thin for the ranks: say so before building the grid
    decompose(mesh_section.integer("cells_around"), mesh_section.integer("cells_normal"),
              runtime.size(), p.multigrid_levels);
  } catch (const InputError& e) {
    config.fail("mesh", e.detail());
  }
  mesh::AirfoilGridInfo info;
  const mesh::CurvilinearGrid grid = mesh::build_airfoil_grid(mesh_section, &info);
  initialize(p, grid, runtime.comm());
  shape_ = mesh::named_descriptors(info.shape);
  if (config.string("initial") == "restart") {
    if (!config.has("restart_file")) config.fail("restart_file", "required for initial: restart");
    // A warm start: the checkpoint's state, this case's free-stream residual reference.
    const auto reference = first_residual_;
    load_state(io::Hdf5Checkpoint::read(config.string("restart_file"), runtime.comm()));
    first_residual_ = reference;
    reset_history();
  }
}

AirfoilSolver::Decomposition AirfoilSolver::decompose(long ni, long nj, int ranks, long levels) {
  Decomposition d;
  // The levels the grid allows, as on one rank.
  for (long gi = ni, gj = nj;
       d.grid_levels < levels && gi % 2 == 0 && gj % 2 == 0 && gi / 2 >= 8 && gj / 2 >= 4;
       gi /= 2, gj /= 2)
    ++d.grid_levels;
  // Slabs of whole blocks of 2^(levels−1) rows, so that every level coarsens locally, and at
  // least 2 blocks per rank (2 rows on the coarsest level: the MUSCL and viscous stencils reach
  // 2 rows into a neighbour's slab). Fewer levels when the blocks run short.
  for (d.levels = d.grid_levels;; --d.levels) {
    const long block = 1L << (d.levels - 1), blocks = nj / block;
    if (blocks / ranks >= 2) {
      d.rows.resize(static_cast<std::size_t>(ranks));
      for (int r = 0; r < ranks; ++r)
        d.rows[static_cast<std::size_t>(r)] =
            (blocks / ranks + (r < blocks % ranks ? 1 : 0)) * block;
      return d;
    }
    if (d.levels == 1)
      throw InputError(fmt::format(
          "airfoil solver: {} cells normal to the wall (solver.mesh.cells_normal) over {} MPI "
          "ranks leave a rank fewer than 2 rows of cells; each rank needs at least 2 (with "
          "multigrid, solver.multigrid_levels, 2 on its coarsest level, else fewer levels are "
          "used): run on at most {} ranks or use more cells_normal",
          nj, ranks, nj / 2));
  }
}

void AirfoilSolver::initialize(const AirfoilParameters& parameters,
                               const mesh::CurvilinearGrid& grid, MPI_Comm comm) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  const long ni = grid.cells_i(), nj = grid.cells_j();
  if (ni < 8 || nj < 4)
    throw InputError(fmt::format("airfoil grid too small: {} × {} cells (need ≥ 8 × 4)", ni, nj));
  const Decomposition d = decompose(ni, nj, ranks, parameters.multigrid_levels);
  if (rank == 0 && d.levels < d.grid_levels)
    spdlog::info(
        "airfoil: {} multigrid levels instead of {}: on {} MPI ranks each slab of the {} rows "
        "needs at least 2 rows on the coarsest level",
        d.levels, d.grid_levels, ranks, nj);
  initialize_level(parameters, grid, comm, d.rows, d.levels);
}

void AirfoilSolver::initialize_level(const AirfoilParameters& parameters,
                                     const mesh::CurvilinearGrid& grid, MPI_Comm comm,
                                     const std::vector<long>& rows, int levels) {
  p_ = parameters;
  if (!(p_.mach > 0 && p_.mach <= 0.9))
    throw InputError(fmt::format("airfoil solver: Mach number {} outside (0, 0.9]", p_.mach));
  viscous_ = p_.equations == Equations::kNavierStokes;
  if (p_.linear_fix < 0) p_.linear_fix = viscous_ ? 0.0 : 0.2;
  if (viscous_ && !(p_.reynolds > 0))
    throw InputError("airfoil solver: navier_stokes needs a Reynolds number > 0");
  if (!(p_.cfl > 0) || p_.max_iterations < 1 || !(p_.residual_drop > 0 && p_.residual_drop < 1))
    throw InputError("airfoil solver: cfl, max_iterations and residual_drop must be positive");
  ni_ = grid.cells_i();
  nj_ = grid.cells_j();
  if (ni_ < 8 || nj_ < 4)
    throw InputError(fmt::format("airfoil grid too small: {} × {} cells (need ≥ 8 × 4)", ni_, nj_));
  comm_ = comm;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
  rows_ = rows;
  j0_ = 0;
  for (int r = 0; r < rank_; ++r) j0_ += rows_[static_cast<std::size_t>(r)];
  nl_ = rows_[static_cast<std::size_t>(rank_)];
  alpha_ = p_.alpha_deg * M_PI / 180;
  p_inf_ = 1 / (kGamma * p_.mach * p_.mach);
  setup_geometry(grid);
  mu_ = viscous_ ? chord_ / p_.reynolds : 0.0;

  const long nl = nl_;
  u_ = Array3("Airfoil::u", 4, nl, ni_);
  w_ = Array3("Airfoil::w", 4, nl + 4, ni_);
  res_ = Array3("Airfoil::residual", 4, nl, ni_);
  du_ = Array3("Airfoil::du", 4, nl, ni_);
  fi_ = Array3("Airfoil::flux_i", 4, nl, ni_);
  fj_ = Array3("Airfoil::flux_j", 4, nl + 1, ni_);
  wall_visc_x_ = Array2("Airfoil::wall_viscous_x", 1, ni_);
  wall_visc_y_ = Array2("Airfoil::wall_viscous_y", 1, ni_);
  lam_i_ = Array2("Airfoil::lambda_i", nl, ni_);
  lam_j_ = Array2("Airfoil::lambda_j", nl + 1, ni_);
  lv_i_ = Array2("Airfoil::lambda_viscous_i", nl, ni_);
  lv_j_ = Array2("Airfoil::lambda_viscous_j", nl + 1, ni_);
  node_u_ = Array2("Airfoil::node_u", nl + 1, ni_);
  node_v_ = Array2("Airfoil::node_v", nl + 1, ni_);
  node_t_ = Array2("Airfoil::node_theta", nl + 1, ni_);
  diag_ = Array2("Airfoil::diagonal", nl, ni_);
  w_halo_ = halo_buffers(2);
  // Edge columns of the LU-SGS wavefront: (U, ΔU) of the neighbours' edge rows, zero where
  // there is no neighbour (or no pipelining).
  edge_lo_ = Array2("Airfoil::edge_lo", ni_, 8);
  edge_hi_ = Array2("Airfoil::edge_hi", ni_, 8);
  if (ranks_ > 1) {
    edge_send_ = Array2("Airfoil::edge_send", ni_, 8);
    // Chunks occupy disjoint columns, so the host copy may alias the device buffer.
    edge_host_send_ = Kokkos::create_mirror_view(edge_send_);
    edge_host_receive_ = Kokkos::create_mirror(edge_lo_);  // lands here, then into edge_lo/hi
  }

  state_ = FieldSet();
  const char* names[4] = {"density", "velocity_x", "velocity_y", "pressure"};
  for (int k = 0; k < 4; ++k)
    state_.add(names[k], Field3(w_.data() + (k * (nl + 4) + 2) * ni_, 1, nl, ni_));
  circulation_ = 0;
  coarse_.reset();
  levels_ = 1;
  if (levels > 1) {
    // Every other node; each rank coarsens its own slab (decompose() made its rows even).
    const long ci = 2, nci = ni_ / ci, ncj = nj_ / 2;
    mesh::CurvilinearGrid coarse_grid;
    coarse_grid.x = HostMatrix("Airfoil::coarse_x", nci + 1, ncj + 1);
    coarse_grid.y = HostMatrix("Airfoil::coarse_y", nci + 1, ncj + 1);
    for (long i = 0; i <= nci; ++i)
      for (long j = 0; j <= ncj; ++j)
        coarse_grid.x(i, j) = grid.x(ci * i, 2 * j), coarse_grid.y(i, j) = grid.y(ci * i, 2 * j);
    std::vector<long> coarse_rows(rows_.size());
    for (std::size_t r = 0; r < rows_.size(); ++r) coarse_rows[r] = rows_[r] / 2;
    AirfoilParameters coarse = p_;
    coarse.multigrid_levels = levels - 1;
    coarse.limiter = Limiter::kFirstOrder;
    coarse_ = std::make_unique<AirfoilSolver>();
    coarse_->initialize_level(coarse, coarse_grid, comm_, coarse_rows, levels - 1);
    const long ncl = coarse_->nl_;
    coarse_->forcing_ = Array3("Airfoil::forcing", 4, ncl, nci);
    coarse_->u_start_ = Array3("Airfoil::u_start", 4, ncl, nci);
    coarse_->correction_ = Array3("Airfoil::correction", 4, ncl + 2, nci);
    coarse_->correction_halo_ = coarse_->halo_buffers(1);
    levels_ = 1 + coarse_->levels_;
  }
  set_freestream();
  // The residual reference: the impulsive start from the free stream on this grid. Warm starts
  // keep it, so a good initial field needs fewer iterations to the same absolute level.
  compute_residual();
  for (int k = 0; k < 4; ++k)
    first_residual_[k] = absolute_residual_[k] > 0 ? absolute_residual_[k] : 1e-300;
}

void AirfoilSolver::setup_geometry(const mesh::CurvilinearGrid& grid) {
  // Every rank computes the metrics of the whole grid (cheap) and keeps its slab, so the ghost
  // centroids and face areas at slab edges are exactly those of the neighbour's cells.
  const mesh::GridMetrics m = mesh::compute_metrics(grid);  // InputError on folded cells
  metrics_area_ = m.area;
  metrics_wall_distance_ = m.wall_distance;
  grid_x_ = grid.x;
  grid_y_ = grid.y;
  const long ni = ni_, nj = nj_, nl = nl_, j0 = j0_;
  area_ = Array2("Airfoil::area", nl, ni);
  wall_distance_ = Array2("Airfoil::wall_distance", nl, ni);
  xc_ = Array2("Airfoil::xc", nl + 2, ni);
  yc_ = Array2("Airfoil::yc", nl + 2, ni);
  xn_ = Array2("Airfoil::xn", nl + 1, ni + 1);
  yn_ = Array2("Airfoil::yn", nl + 1, ni + 1);
  sxi_ = Array2("Airfoil::sx_i", nl, ni + 1);
  syi_ = Array2("Airfoil::sy_i", nl, ni + 1);
  sxj_ = Array2("Airfoil::sx_j", nl + 1, ni);
  syj_ = Array2("Airfoil::sy_j", nl + 1, ni);
  vol_j_ = Array2("Airfoil::volume_j", nl + 1, ni);
  auto area = Kokkos::create_mirror_view(area_);
  auto wd = Kokkos::create_mirror_view(wall_distance_);
  auto xc = Kokkos::create_mirror_view(xc_), yc = Kokkos::create_mirror_view(yc_);
  auto xn = Kokkos::create_mirror_view(xn_), yn = Kokkos::create_mirror_view(yn_);
  auto sxi = Kokkos::create_mirror_view(sxi_), syi = Kokkos::create_mirror_view(syi_);
  auto sxj = Kokkos::create_mirror_view(sxj_), syj = Kokkos::create_mirror_view(syj_);
  auto vol_j = Kokkos::create_mirror_view(vol_j_);
  for (long j = 0; j < nl; ++j)
    for (long i = 0; i < ni; ++i) {
      area(j, i) = m.area(i, j0 + j);
      wd(j, i) = m.wall_distance(i, j0 + j);
    }
  // Centroids of the rows j0 − 1 .. j0 + nl; beyond the wall and the far field the interior
  // centroids reflected through the boundary face midpoints.
  for (long j = -1; j <= nl; ++j) {
    const long g = j0 + j;
    for (long i = 0; i < ni; ++i) {
      if (g < 0) {
        const double xw = 0.5 * (grid.x(i, 0) + grid.x(i + 1, 0)),
                     yw = 0.5 * (grid.y(i, 0) + grid.y(i + 1, 0));
        xc(j + 1, i) = 2 * xw - m.xc(i, 0);
        yc(j + 1, i) = 2 * yw - m.yc(i, 0);
      } else if (g >= nj) {
        const double xf = 0.5 * (grid.x(i, nj) + grid.x(i + 1, nj)),
                     yf = 0.5 * (grid.y(i, nj) + grid.y(i + 1, nj));
        xc(j + 1, i) = 2 * xf - m.xc(i, nj - 1);
        yc(j + 1, i) = 2 * yf - m.yc(i, nj - 1);
      } else {
        xc(j + 1, i) = m.xc(i, g);
        yc(j + 1, i) = m.yc(i, g);
      }
    }
  }
  for (long j = 0; j <= nl; ++j)
    for (long i = 0; i <= ni; ++i) xn(j, i) = grid.x(i, j0 + j), yn(j, i) = grid.y(i, j0 + j);
  for (long j = 0; j < nl; ++j)
    for (long i = 0; i <= ni; ++i) sxi(j, i) = m.sx_i(i, j0 + j), syi(j, i) = m.sy_i(i, j0 + j);
  for (long j = 0; j <= nl; ++j) {
    const long g = j0 + j, below = g > 0 ? g - 1 : 0, above = g < nj ? g : nj - 1;
    for (long i = 0; i < ni; ++i) {
      sxj(j, i) = m.sx_j(i, g), syj(j, i) = m.sy_j(i, g);
      vol_j(j, i) = 0.5 * (m.area(i, below) + m.area(i, above));
    }
  }
  Kokkos::deep_copy(area_, area);
  Kokkos::deep_copy(wall_distance_, wd);
  Kokkos::deep_copy(xc_, xc), Kokkos::deep_copy(yc_, yc);
  Kokkos::deep_copy(xn_, xn), Kokkos::deep_copy(yn_, yn);
  Kokkos::deep_copy(sxi_, sxi), Kokkos::deep_copy(syi_, syi);
  Kokkos::deep_copy(sxj_, sxj), Kokkos::deep_copy(syj_, syj);
  Kokkos::deep_copy(vol_j_, vol_j);

  // Chord line: trailing edge = node 0 (the O-grid convention), leading edge = the wall node
  // farthest from it.
  const double xte = grid.x(0, 0), yte = grid.y(0, 0);
  long le = 0;
  double far = -1;
  for (long i = 0; i < ni; ++i) {
    const double d = std::hypot(grid.x(i, 0) - xte, grid.y(i, 0) - yte);
    if (d > far) far = d, le = i;
  }
  i_le_ = le;
  x_le_ = grid.x(le, 0);
  y_le_ = grid.y(le, 0);
  chord_ = far;
  x_ref_ = x_le_ + 0.25 * (xte - x_le_);
  y_ref_ = y_le_ + 0.25 * (yte - y_le_);
  chord_dx_ = (xte - x_le_) / chord_;
  chord_dy_ = (yte - y_le_) / chord_;
}

void AirfoilSolver::set_freestream() {
  const State wf = freestream_at(0, 0, 0, 0, alpha_, p_.mach, p_inf_, 0);
  const State uf = to_conservative(wf);
  const Array3 u = u_;
  Kokkos::parallel_for(
      "AirfoilSolver::set_freestream", Range2({0, 0}, {nl_, ni_}), KOKKOS_LAMBDA(long j, long i) {
        for (int k = 0; k < 4; ++k) u(k, j, i) = uf[k];
      });
  update_primitives();
  reset_history();
}

void AirfoilSolver::reset_history() {
  iteration_ = 0;
  absolute_residual_ = {0, 0, 0, 0};
  relative_residual_ = {1, 1, 1, 1};
}

void AirfoilSolver::set_initial_primitive(const HostMatrix& rho, const HostMatrix& u,
                                          const HostMatrix& v, const HostMatrix& p) {
  // Every rank checks the whole field, so all throw the same error together.
  const HostMatrix* fields[4] = {&rho, &u, &v, &p};
  const char* names[4] = {"rho", "u", "v", "p"};
  for (int k = 0; k < 4; ++k)
    if (static_cast<long>(fields[k]->extent(0)) != ni_ ||
        static_cast<long>(fields[k]->extent(1)) != nj_)
      throw InputError(
          fmt::format("set_initial_primitive: {} is {} × {}, the grid has {} × {} cells", names[k],
                      fields[k]->extent(0), fields[k]->extent(1), ni_, nj_));
  for (long j = 0; j < nj_; ++j)
    for (long i = 0; i < ni_; ++i) {
      const State w{{rho(i, j), u(i, j), v(i, j), p(i, j)}};
      if (!(w[0] > 0 && w[3] > 0 && std::isfinite(w[0] + w[1] + w[2] + w[3])))
        throw InputError(fmt::format(
            "set_initial_primitive: cell (i = {}, j = {}) has ρ = {}, u = {}, v = {}, p = {}; "
            "ρ and p must be positive and all values finite",
            i, j, w[0], w[1], w[2], w[3]));
    }
  auto host = Kokkos::create_mirror_view(u_);
  for (long j = 0; j < nl_; ++j)
    for (long i = 0; i < ni_; ++i) {
      const long g = j0_ + j;
      const State c = to_conservative({{rho(i, g), u(i, g), v(i, g), p(i, g)}});
      for (int k = 0; k < 4; ++k) host(k, j, i) = c[k];
    }
  Kokkos::deep_copy(u_, host);
  update_primitives();
  // The far-field vortex must carry the lift of the field handed in, not that of the previous
  // state: with zero circulation a converged field is pushed away from convergence at once.
  // The residual pass fills the wall states the force integral reads.
  if (p_.far_field == FarField::kVortex && p_.inner == InnerBoundary::kWall) {
    compute_residual();
    circulation_ = 0.5 * chord_ * coefficients().at("cl");
  }
  reset_history();
}

std::array<AirfoilSolver::HostMatrix, 4> AirfoilSolver::gather(const Array3& a, long first,
                                                               const char* label) const {
  auto local = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(a, Kokkos::ALL, Rows(first, first + nl_), Kokkos::ALL));
  std::vector<double> mine(static_cast<std::size_t>(4 * nl_ * ni_));
  for (int k = 0; k < 4; ++k)
    for (long j = 0; j < nl_; ++j)
      for (long i = 0; i < ni_; ++i)
        mine[static_cast<std::size_t>((k * nl_ + j) * ni_ + i)] = local(k, j, i);
  std::vector<double> all;
  const double* from = mine.data();
  if (ranks_ > 1) {
    std::vector<int> counts(rows_.size()), offsets(rows_.size());
    for (std::size_t r = 0, offset = 0; r < rows_.size(); ++r) {
      counts[r] = static_cast<int>(4 * rows_[r] * ni_);
      offsets[r] = static_cast<int>(offset);
      offset += static_cast<std::size_t>(counts[r]);
    }
    all.resize(static_cast<std::size_t>(4 * nj_ * ni_));
    MPI_Allgatherv(mine.data(), counts[static_cast<std::size_t>(rank_)], MPI_DOUBLE, all.data(),
                   counts.data(), offsets.data(), MPI_DOUBLE, comm_);
    from = all.data();
  }
  std::array<HostMatrix, 4> out;
  for (int k = 0; k < 4; ++k) out[k] = HostMatrix(std::string(label), ni_, nj_);
  long j0 = 0;
  for (const long rows : rows_) {
    for (int k = 0; k < 4; ++k)
      for (long j = 0; j < rows; ++j)
        for (long i = 0; i < ni_; ++i) out[k](i, j0 + j) = from[(k * rows + j) * ni_ + i];
    from += 4 * rows * ni_;
    j0 += rows;
  }
  return out;
}

std::array<AirfoilSolver::HostMatrix, 4> AirfoilSolver::primitive_host() const {
  return gather(w_, 2, "Airfoil::primitive");
}

std::array<AirfoilSolver::HostMatrix, 4> AirfoilSolver::conservative_host() const {
  return gather(u_, 0, "Airfoil::conservative");
}

std::array<AirfoilSolver::HostMatrix, 4> AirfoilSolver::residual_host() const {
  return gather(res_, 0, "Airfoil::residual");
}

void AirfoilSolver::update_primitives() {
  const Array3 u = u_, w = w_;
  Kokkos::parallel_for(
      "AirfoilSolver::update_primitives", Range2({0, 0}, {nl_, ni_}),
      KOKKOS_LAMBDA(long j, long i) {
        const State c{{u(0, j, i), u(1, j, i), u(2, j, i), u(3, j, i)}};
        const State p = to_primitive(c);
        for (int k = 0; k < 4; ++k) w(k, j + 2, i) = p[k];
      });
}

// The ghost rows at the physical ends: the wall (or inner far field) on the first rank, the far
// field on the last; the ghost rows between slabs come from exchange_primitive_halo().
void AirfoilSolver::apply_boundaries() {
  const bool inner = has_wall(), outer = has_far_field();
  if (!inner && !outer) return;
  const Array3 w = w_;
  const Array2 sxj = sxj_, syj = syj_, xn = xn_, yn = yn_;
  const long nl = nl_;
  const bool wall = p_.inner == InnerBoundary::kWall, no_slip = viscous_;
  const double x_ref = x_ref_, y_ref = y_ref_, alpha = alpha_, mach = p_.mach, p_inf = p_inf_;
  const double circulation = p_.far_field == FarField::kVortex && wall ? circulation_ : 0.0;
  Kokkos::parallel_for(
      "AirfoilSolver::boundaries", Range1(0, ni_), KOKKOS_LAMBDA(long i) {
        // Far field (j = nj, the slab's last face): rows nl + 2 and nl + 3 hold the
        // characteristic state.
        if (outer) {
          const double sx = sxj(nl, i), sy = syj(nl, i), s = sqrt(sx * sx + sy * sy);
          const double xf = 0.5 * (xn(nl, i) + xn(nl, i + 1)),
                       yf = 0.5 * (yn(nl, i) + yn(nl, i + 1));
          const State wf = freestream_at(xf, yf, x_ref, y_ref, alpha, mach, p_inf, circulation);
          const State wi{{w(0, nl + 1, i), w(1, nl + 1, i), w(2, nl + 1, i), w(3, nl + 1, i)}};
          const State wb = far_field_state(wi, wf, sx / s, sy / s);
          for (int k = 0; k < 4; ++k) w(k, nl + 2, i) = w(k, nl + 3, i) = wb[k];
        }
        if (!inner) return;
        const double sx = sxj(0, i), sy = syj(0, i), s = sqrt(sx * sx + sy * sy);
        const double nx = sx / s, ny = sy / s;
        if (wall) {
          // Rows 1 and 0 mirror rows 2 and 3 (cells j = 0, 1) in the wall face.
          for (int g = 0; g < 2; ++g) {
            const long in = 2 + g, gh = 1 - g;
            const double u = w(1, in, i), v = w(2, in, i);
            w(0, gh, i) = w(0, in, i);
            w(3, gh, i) = w(3, in, i);
            if (no_slip) {
              w(1, gh, i) = -u;
              w(2, gh, i) = -v;
            } else {
              const double vn = u * nx + v * ny;
              w(1, gh, i) = u - 2 * vn * nx;
              w(2, gh, i) = v - 2 * vn * ny;
            }
          }
        } else {
          const double xf = 0.5 * (xn(0, i) + xn(0, i + 1)), yf = 0.5 * (yn(0, i) + yn(0, i + 1));
          const State wf = freestream_at(xf, yf, x_ref, y_ref, alpha, mach, p_inf, 0.0);
          const State wi{{w(0, 2, i), w(1, 2, i), w(2, 2, i), w(3, 2, i)}};
          const State wb = far_field_state(wi, wf, -nx, -ny);
          for (int k = 0; k < 4; ++k) w(k, 0, i) = w(k, 1, i) = wb[k];
        }
      });
}

void AirfoilSolver::compute_residual() {
  {
    ScopedPhase phase(phase_seconds_, "boundaries");
    apply_boundaries();
  }
  {
    ScopedPhase phase(phase_seconds_, "halo");
    exchange_primitive_halo();
  }
  const Array3 w = w_, fi = fi_, fj = fj_, res = res_;
  const Array2 sxi = sxi_, syi = syi_, sxj = sxj_, syj = syj_, area = area_, vol_j = vol_j_;
  const Array2 lam_i = lam_i_, lam_j = lam_j_, lv_i = lv_i_, lv_j = lv_j_;
  const Array2 xc = xc_, yc = yc_, xn = xn_, yn = yn_;
  const Array2 nu = node_u_, nv = node_v_, nt = node_t_;
  const Array2 wvx = wall_visc_x_, wvy = wall_visc_y_;
  const long ni = ni_, nl = nl_, j0 = j0_;
  const Limiter limiter = p_.limiter;
  const double fix = p_.entropy_fix, mu = mu_, eps = p_.limiter_epsilon, lfix = p_.linear_fix;
  const bool viscous = viscous_, adiabatic = p_.inner == InnerBoundary::kWall;
  const bool slip_wall = adiabatic && !viscous && limiter != Limiter::kFirstOrder;
  const double visc_factor = std::max(4.0 / 3.0, kGamma / kPrandtl) * mu;

  if (viscous) {
    ScopedPhase phase(phase_seconds_, "viscous_nodes");
    // Node (i, j): mean of cells (i−1, j−1), (i, j−1), (i−1, j), (i, j), ghosts included.
    Kokkos::parallel_for(
        "AirfoilSolver::node_values", Range2({0, 0}, {nl + 1, ni}), KOKKOS_LAMBDA(long j, long i) {
          const long im = wrap(i - 1, ni);
          double s[3] = {0, 0, 0};
          for (long r = j + 1; r <= j + 2; ++r)
            for (int side = 0; side < 2; ++side) {
              const long c = side == 0 ? im : i;
              s[0] += w(1, r, c);
              s[1] += w(2, r, c);
              s[2] += w(3, r, c) / w(0, r, c);
            }
          nu(j, i) = 0.25 * s[0];
          nv(j, i) = 0.25 * s[1];
          nt(j, i) = 0.25 * s[2];
        });
  }

  // The viscous flux through a face between cells (rows rl, rr of w; columns cl, cr) with
  // diamond corners L centroid, node A, R centroid, node B.
  auto face_viscous = [=] KOKKOS_FUNCTION(long rl, long cl, long rr, long cr, long ja, long ia,
                                          long jb, long ib, double sx, double sy, bool wall_face) {
    const double x[4] = {xc(rl - 1, cl), xn(ja, ia), xc(rr - 1, cr), xn(jb, ib)};
    const double y[4] = {yc(rl - 1, cl), yn(ja, ia), yc(rr - 1, cr), yn(jb, ib)};
    const long na = wrap(ia, ni), nb = wrap(ib, ni);
    FaceGradient g;
    {
      const double phi[4] = {w(1, rl, cl), nu(ja, na), w(1, rr, cr), nu(jb, nb)};
      diamond_gradient(x, y, phi, g.ux, g.uy);
    }
    {
      const double phi[4] = {w(2, rl, cl), nv(ja, na), w(2, rr, cr), nv(jb, nb)};
      diamond_gradient(x, y, phi, g.vx, g.vy);
    }
    {
      const double phi[4] = {w(3, rl, cl) / w(0, rl, cl), nt(ja, na), w(3, rr, cr) / w(0, rr, cr),
                             nt(jb, nb)};
      diamond_gradient(x, y, phi, g.tx, g.ty);
    }
    const double uf = 0.5 * (w(1, rl, cl) + w(1, rr, cr)), vf = 0.5 * (w(2, rl, cl) + w(2, rr, cr));
    return viscous_flux(g, uf, vf, mu, sx, sy, wall_face);
  };

  // MUSCL states at a face from the four cells ll, l | r, rr along a grid line (W rows/cols).
  auto reconstruct = [=] KOKKOS_FUNCTION(long rll, long cll, long rl, long cl, long rr, long cr,
                                         long rrr, long crr, State& wl, State& wr) {
    bool ok = true;
    for (int k = 0; k < 4; ++k) {
      const double a = w(k, rll, cll), b = w(k, rl, cl), c = w(k, rr, cr), d = w(k, rrr, crr);
      wl[k] = b + 0.5 * limited_slope(limiter, b - a, c - b, eps);
      wr[k] = c - 0.5 * limited_slope(limiter, c - b, d - c, eps);
    }
    if (limiter == Limiter::kFirstOrder) ok = false;
    if (!(wl[0] > 0 && wl[3] > 0)) ok = false;
    if (!(wr[0] > 0 && wr[3] > 0)) ok = false;
    if (!ok)  // first order where the reconstruction would leave the admissible states
      for (int k = 0; k < 4; ++k) wl[k] = w(k, rl, cl), wr[k] = w(k, rr, cr);
  };

  {
    ScopedPhase phase(phase_seconds_, "fluxes");
    // i-faces: face (i, j) between cells (i−1, j) and (i, j), periodic in i.
    Kokkos::parallel_for(
        "AirfoilSolver::flux_i", Range2({0, 0}, {nl, ni}), KOKKOS_LAMBDA(long j, long i) {
          const long r = j + 2, il = wrap(i - 1, ni), ill = wrap(i - 2, ni), irr = wrap(i + 1, ni);
          const double sx = sxi(j, i), sy = syi(j, i);
          State wl, wr;
          reconstruct(r, ill, r, il, r, i, r, irr, wl, wr);
          State f = roe_flux(wl, wr, sx, sy, fix, lfix);
          State wm;
          for (int k = 0; k < 4; ++k) wm[k] = 0.5 * (w(k, r, il) + w(k, r, i));
          lam_i(j, i) = 0.5 * spectral_radius(wm, sx, sy);
          if (viscous) {
            const State fv = face_viscous(r, il, r, i, j, i, j + 1, i, sx, sy, false);
            for (int k = 0; k < 4; ++k) f[k] -= fv[k];
            lv_i(j, i) =
                visc_factor / wm[0] * (sx * sx + sy * sy) / (0.5 * (area(j, il) + area(j, i)));
          } else {
            lv_i(j, i) = 0;
          }
          for (int k = 0; k < 4; ++k) fi(k, j, i) = f[k];
        });
    // j-faces: face (i, j) between cells (i, j−1) and (i, j), j local to the slab (global
    // j0 + j); global j = 0 is the wall, j = nj the far field. A face between two slabs is
    // computed by both ranks from the same states, so both get the same flux.
    Kokkos::parallel_for(
        "AirfoilSolver::flux_j", Range2({0, 0}, {nl + 1, ni}), KOKKOS_LAMBDA(long j, long i) {
          const long rl = j + 1, rr = j + 2, jg = j0 + j;
          const double sx = sxj(j, i), sy = syj(j, i);
          State wl, wr;
          reconstruct(rl - 1, i, rl, i, rr, i, rr + 1, i, wl, wr);
          if (slip_wall && jg <= 1) {
            // The mirror ghosts fix ∂/∂n = 0 at the wall, which is wrong for the tangential
            // velocity and the pressure of a curved inviscid wall: the first cell takes the
            // one-sided slope of cells 0 and 1, and the ghost side is the mirror of the wall state.
            State w0, w1;
            for (int k = 0; k < 4; ++k) w0[k] = w(k, 2, i), w1[k] = w(k, 3, i);
            State e;
            for (int k = 0; k < 4; ++k)
              e[k] = jg == 0 ? 1.5 * w0[k] - 0.5 * w1[k] : 0.5 * (w0[k] + w1[k]);
            if (!(e[0] > 0 && e[3] > 0)) e = w0;
            if (jg == 0) {
              const double s = sqrt(sx * sx + sy * sy), nx = sx / s, ny = sy / s;
              const double vn = e[1] * nx + e[2] * ny;
              wr = e;
              wl = e;
              wl[1] = e[1] - 2 * vn * nx;
              wl[2] = e[2] - 2 * vn * ny;
            } else {
              wl = e;
            }
          }
          State f = roe_flux(wl, wr, sx, sy, fix, lfix);
          State wm;
          for (int k = 0; k < 4; ++k) wm[k] = 0.5 * (w(k, rl, i) + w(k, rr, i));
          lam_j(j, i) = 0.5 * spectral_radius(wm, sx, sy);
          if (viscous) {
            const State fv =
                face_viscous(rl, i, rr, i, j, i + 1, j, i, sx, sy, adiabatic && jg == 0);
            for (int k = 0; k < 4; ++k) f[k] -= fv[k];
            lv_j(j, i) = visc_factor / wm[0] * (sx * sx + sy * sy) / vol_j(j, i);
            if (jg == 0) wvx(0, i) = fv[1], wvy(0, i) = fv[2];
          } else {
            lv_j(j, i) = 0;
            if (jg == 0) wvx(0, i) = 0, wvy(0, i) = 0;
          }
          for (int k = 0; k < 4; ++k) fj(k, j, i) = f[k];
        });
  }

  // Global figures in one exchange: Σ (R/V)² per equation over the slab, and the wall force
  // sums (pressure x, y, friction x, y, moment about the reference point) on the wall rank.
  double sums[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  {
    ScopedPhase phase(phase_seconds_, "residual");
    const Array3 forcing = forcing_;
    const bool forced = forcing_.size() > 0;
    SumN<4> squares;
    Kokkos::parallel_reduce(
        "AirfoilSolver::residual", Range2({0, 0}, {nl, ni}),
        KOKKOS_LAMBDA(long j, long i, SumN<4>& s) {
          const long ip = wrap(i + 1, ni);
          const double inv = 1 / area(j, i);
          for (int k = 0; k < 4; ++k) {
            double r = fi(k, j, ip) - fi(k, j, i) + fj(k, j + 1, i) - fj(k, j, i);
            if (forced) r += forcing(k, j, i);
            res(k, j, i) = r;
            s.v[k] += r * inv * r * inv;
          }
        },
        squares);
    for (int k = 0; k < 4; ++k) sums[k] = squares.v[k];
    if (has_wall()) {
      // Body force = momentum leaving the fluid through the wall: −(F − F_v)·S_j summed; split
      // into the pressure part −(p_w − p∞) S_j and the viscous traction F_v·S_j.
      const double p_inf = p_inf_, x_ref = x_ref_, y_ref = y_ref_;
      SumN<5> force;
      Kokkos::parallel_reduce(
          "AirfoilSolver::wall_forces", Range1(0, ni),
          KOKKOS_LAMBDA(long i, SumN<5>& s) {
            const double x0 = xn(0, i), y0 = yn(0, i), x1 = xn(0, i + 1), y1 = yn(0, i + 1);
            const double sx = -(y1 - y0), sy = x1 - x0;
            const double pressure_x = -(fj(1, 0, i) + wvx(0, i)) + p_inf * sx;
            const double pressure_y = -(fj(2, 0, i) + wvy(0, i)) + p_inf * sy;
            const double fric_x = wvx(0, i), fric_y = wvy(0, i);
            const double xm = 0.5 * (x0 + x1) - x_ref, ym = 0.5 * (y0 + y1) - y_ref;
            s.v[0] += pressure_x, s.v[1] += pressure_y, s.v[2] += fric_x, s.v[3] += fric_y;
            s.v[4] += xm * (pressure_y + fric_y) - ym * (pressure_x + fric_x);
          },
          force);
      for (int n = 0; n < 5; ++n) sums[4 + n] = force.v[n];
    }
  }
  {
    ScopedPhase phase(phase_seconds_, "reductions");
    sum_over_ranks(sums, 9);
  }
  const double cells = static_cast<double>(ni_ * nj_);
  for (int k = 0; k < 4; ++k) absolute_residual_[k] = std::sqrt(sums[k] / cells);
  for (int n = 0; n < 5; ++n) wall_force_[n] = sums[4 + n];
}

// LU-SGS on this rank's slab. Across a slab edge the sweeps run as a wavefront over the ranks
// (RankCoupling::kPipelined): the forward sweep of rank r needs, for its first row, the forward
// ΔU of the last row of rank r − 1, which that rank sends on in chunks of columns as its
// hyperplanes pass them; the backward sweep runs the other way. Every cell sees exactly the
// neighbour values it sees on one rank, so N ranks reproduce the one-rank sweeps bit for bit;
// the price is the pipeline's fill (rank r starts about r × rows hyperplanes late, the short
// ones). With kBlockJacobi the neighbour's ΔU counts as zero instead: its off-diagonal term
// ½ΔF − (ω½λ + λ_v)ΔU vanishes and the edge rows skip it, as the wall and far-field rows do.
// The diagonal holds all four faces either way.
void AirfoilSolver::lusgs_sweeps(double cfl) {
  ScopedPhase phase(phase_seconds_, "lusgs");
  const Array3 u = u_, du = du_, res = res_;
  const Array2 sxi = sxi_, syi = syi_, sxj = sxj_, syj = syj_;
  const Array2 lam_i = lam_i_, lam_j = lam_j_, lv_i = lv_i_, lv_j = lv_j_, diag = diag_;
  const Array2 edge_lo = edge_lo_, edge_hi = edge_hi_;
  const long ni = ni_, nl = nl_;
  const double omega = p_.lusgs_omega;
  const double inv_cfl = 1 / cfl;
  const bool pipelined = p_.lusgs_ranks == RankCoupling::kPipelined;
  const bool lo = pipelined && rank_ > 0, hi = pipelined && rank_ < ranks_ - 1;

  Kokkos::parallel_for(
      "AirfoilSolver::lusgs_diagonal", Range2({0, 0}, {nl, ni}), KOKKOS_LAMBDA(long j, long i) {
        const long ip = wrap(i + 1, ni);
        const double lc = lam_i(j, i) + lam_i(j, ip) + lam_j(j, i) + lam_j(j + 1, i);
        const double lv = lv_i(j, i) + lv_i(j, ip) + lv_j(j, i) + lv_j(j + 1, i);
        // V/Δt with Δt = CFL·V/(Σ½λ + Σλ_v), plus the implicit spectral radii.
        diag(j, i) = (lc + lv) * inv_cfl + omega * lc + lv;
      });

  // Σ over the neighbours on one side of the ordering (lower: plane < this cell's plane) of
  // ½ ΔF_n·S_cn − (ω ½λ_f + λ_v,f) ΔU_n, with ΔF_n = F(U_n + ΔU_n) − F(U_n). Rows −1 and nl
  // are the neighbour ranks' edge rows (U, ΔU in edge_lo, edge_hi).
  auto off_diagonal = [=] KOKKOS_FUNCTION(long j, long i, bool lower, State& sum) {
    for (int k = 0; k < 4; ++k) sum[k] = 0;
    const long plane = i + j;
    for (int n = 0; n < 4; ++n) {
      long jn = j, in = i;
      double sx, sy, coef;
      if (n == 0) {  // i − 1
        in = wrap(i - 1, ni);
        sx = -sxi(j, i), sy = -syi(j, i), coef = omega * lam_i(j, i) + lv_i(j, i);
      } else if (n == 1) {  // i + 1
        in = wrap(i + 1, ni);
        sx = sxi(j, i + 1), sy = syi(j, i + 1), coef = omega * lam_i(j, in) + lv_i(j, in);
      } else if (n == 2) {  // j − 1
        if (j == 0 && !lo) continue;
        jn = j - 1;
        sx = -sxj(j, i), sy = -syj(j, i), coef = omega * lam_j(j, i) + lv_j(j, i);
      } else {  // j + 1
        if (j == nl - 1 && !hi) continue;
        jn = j + 1;
        sx = sxj(j + 1, i), sy = syj(j + 1, i), coef = omega * lam_j(j + 1, i) + lv_j(j + 1, i);
      }
      const long pn = in + jn;
      if (lower ? pn >= plane : pn <= plane) continue;
      State un, up, dn;
      for (int k = 0; k < 4; ++k) {
        if (jn < 0)
          un[k] = edge_lo(in, k), dn[k] = edge_lo(in, 4 + k);
        else if (jn == nl)
          un[k] = edge_hi(in, k), dn[k] = edge_hi(in, 4 + k);
        else
          un[k] = u(k, jn, in), dn[k] = du(k, jn, in);
        up[k] = un[k] + dn[k];
      }
      const State f1 = conservative_flux(up, sx, sy), f0 = conservative_flux(un, sx, sy);
      for (int k = 0; k < 4; ++k) sum[k] += 0.5 * (f1[k] - f0[k]) - coef * dn[k];
    }
  };

  // Edge columns travel in chunks [c·chunk, (c + 1)·chunk) ∩ [0, ni), the same on both sides.
  const long chunk = std::max(4L, ni / 16), planes = ni + nl - 1;
  std::vector<MPI_Request> sends;

  // Forward: before hyperplane q, row 0's cell i = q needs the lower rank's column i; after it,
  // the last row's cell i = q − (nl − 1) is final for the upper rank.
  long received = 0;  // lower edge columns [0, received) are here
  for (long plane = 0; plane < planes; ++plane) {
    while (lo && received < ni && received <= plane) {
      const long end = std::min(received + chunk, ni);
      receive_edge(edge_lo_, received, end, rank_ - 1, kTagForward);
      received = end;
    }
    const long jlo = std::max(0L, plane - (ni - 1)), jhi = std::min(nl - 1, plane);
    Kokkos::parallel_for(
        "AirfoilSolver::lusgs_forward", Range1(jlo, jhi + 1), KOKKOS_LAMBDA(long j) {
          const long i = plane - j;
          State sum;
          off_diagonal(j, i, true, sum);
          const double d = diag(j, i);
          for (int k = 0; k < 4; ++k) du(k, j, i) = (-res(k, j, i) - sum[k]) / d;
        });
    const long top = plane - (nl - 1);
    if (hi && top >= 0 && ((top + 1) % chunk == 0 || top == ni - 1))
      send_edge(nl - 1, top / chunk * chunk, top + 1, rank_ + 1, kTagForward, sends);
  }
  if (!sends.empty())
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  sends.clear();

  // Backward: before hyperplane q, the last row's cell i = q − (nl − 1) needs the upper rank's
  // column i (final); after it, row 0's cell i = q is final for the lower rank.
  long lowest = ni;  // upper edge columns [lowest, ni) are here
  for (long plane = planes - 1; plane >= 0; --plane) {
    const long top = plane - (nl - 1);
    while (hi && top >= 0 && top < lowest) {
      const long begin = (lowest - 1) / chunk * chunk;
      receive_edge(edge_hi_, begin, lowest, rank_ + 1, kTagBackward);
      lowest = begin;
    }
    const long jlo = std::max(0L, plane - (ni - 1)), jhi = std::min(nl - 1, plane);
    Kokkos::parallel_for(
        "AirfoilSolver::lusgs_backward", Range1(jlo, jhi + 1), KOKKOS_LAMBDA(long j) {
          const long i = plane - j;
          State sum;
          off_diagonal(j, i, false, sum);
          const double d = diag(j, i);
          for (int k = 0; k < 4; ++k) du(k, j, i) -= sum[k] / d;
        });
    if (lo && plane < ni && plane % chunk == 0)
      send_edge(0, plane, std::min(plane + chunk, ni), rank_ - 1, kTagBackward, sends);
  }
  if (!sends.empty())
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);

  Kokkos::parallel_for(
      "AirfoilSolver::update", Range2({0, 0}, {nl, ni}), KOKKOS_LAMBDA(long j, long i) {
        for (int k = 0; k < 4; ++k) u(k, j, i) += du(k, j, i);
      });
}

void AirfoilSolver::send_edge(long row, long begin, long end, int destination, int tag,
                              std::vector<MPI_Request>& requests) {
  const Array3 u = u_, du = du_;
  const Array2 out = edge_send_;
  Kokkos::parallel_for(
      "AirfoilSolver::pack_edge", Range1(begin, end), KOKKOS_LAMBDA(long i) {
        for (int k = 0; k < 4; ++k) out(i, k) = u(k, row, i), out(i, 4 + k) = du(k, row, i);
      });
  const Rows columns(begin, end);
  Kokkos::deep_copy(Kokkos::subview(edge_host_send_, columns, Kokkos::ALL),
                    Kokkos::subview(edge_send_, columns, Kokkos::ALL));
  requests.emplace_back();
  MPI_Isend(edge_host_send_.data() + 8 * begin, static_cast<int>(8 * (end - begin)), MPI_DOUBLE,
            destination, tag, comm_, &requests.back());
}

void AirfoilSolver::receive_edge(const Array2& edge, long begin, long end, int source, int tag) {
  MPI_Recv(edge_host_receive_.data() + 8 * begin, static_cast<int>(8 * (end - begin)), MPI_DOUBLE,
           source, tag, comm_, MPI_STATUS_IGNORE);
  const Rows columns(begin, end);
  Kokkos::deep_copy(Kokkos::subview(edge, columns, Kokkos::ALL),
                    Kokkos::subview(edge_host_receive_, columns, Kokkos::ALL));
}

// Collective: the minimum over all ranks decides, and on failure the worst cell of all ranks is
// named by every rank, so all throw the same Error together.
void AirfoilSolver::check_state() const {
  const Array3 w = w_;
  const double p_inf = p_inf_;
  double worst = 0;
  Kokkos::parallel_reduce(
      "AirfoilSolver::check_state", Range2({0, 0}, {nl_, ni_}),
      KOKKOS_LAMBDA(long j, long i, double& m) {
        const double rho = w(0, j + 2, i), p = w(3, j + 2, i) / p_inf;
        double v = fmin(rho, p);
        const double sum = rho + w(1, j + 2, i) + w(2, j + 2, i) + p;
        if (!(sum - sum == 0)) v = -INFINITY;  // NaN or ±inf
        if (v < m) m = v;
      },
      Kokkos::Min<double>(worst));
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MIN, comm_);
  if (worst > 0) return;
  // Find and name the worst cell on the host (only on failure).
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w_);
  auto xc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xc_);
  auto yc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), yc_);
  long wi = 0, wj = 0;
  double wv = INFINITY;
  for (long j = 0; j < nl_; ++j)
    for (long i = 0; i < ni_; ++i) {
      double v = std::min(h(0, j + 2, i), h(3, j + 2, i) / p_inf);
      if (!std::isfinite(h(0, j + 2, i) + h(1, j + 2, i) + h(2, j + 2, i) + h(3, j + 2, i)))
        v = -INFINITY;
      if (v < wv) wv = v, wi = i, wj = j;
    }
  // The cell: i, global j, x, y, ρ, u, v, p/p∞, from the rank that holds the worst one.
  double cell[8] = {static_cast<double>(wi), static_cast<double>(j0_ + wj),
                    xc(wj + 1, wi),          yc(wj + 1, wi),
                    h(0, wj + 2, wi),        h(1, wj + 2, wi),
                    h(2, wj + 2, wi),        h(3, wj + 2, wi) / p_inf};
  if (ranks_ > 1) {
    struct {
      double value;
      int rank;
    } mine{wv, rank_}, owner{0, 0};
    MPI_Allreduce(&mine, &owner, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm_);
    MPI_Bcast(cell, 8, MPI_DOUBLE, owner.rank, comm_);
  }
  throw Error(fmt::format(
      "the airfoil solver diverged at iteration {}: cell (i = {}, j = {}) at x = {:.4g}, y = "
      "{:.4g} "
      "has ρ = {:.4g}, u = {:.4g}, v = {:.4g}, p/p∞ = {:.4g} (density residual {:.3e} of the "
      "first); "
      "reduce solver.cfl, raise solver.cfl_ramp or use limiter minmod",
      iteration_, static_cast<long>(cell[0]), static_cast<long>(cell[1]), cell[2], cell[3], cell[4],
      cell[5], cell[6], cell[7], relative_residual_[0]));
}

double AirfoilSolver::current_cfl() const {
  if (p_.cfl_ramp <= 0 || iteration_ >= p_.cfl_ramp) return p_.cfl;
  return std::min(
      p_.cfl, std::pow(p_.cfl, static_cast<double>(iteration_) / static_cast<double>(p_.cfl_ramp)));
}

void AirfoilSolver::smooth(double cfl) {
  lusgs_sweeps(cfl);
  ScopedPhase phase(phase_seconds_, "update");
  update_primitives();
  check_state();
}

// One FAS coarse-grid correction (Jameson's sawtooth cycle: one LU-SGS smoothing per level on
// the way down, none on the way up): U_c⁰ = volume average of the four children, forcing
// P = Σ R_f − R_c(U_c⁰), so the coarse problem R_c(U_c) + P = 0 starts from the restricted
// fine residual; the correction U_c − U_c⁰ returns by bilinear interpolation between coarse
// cell centres (periodic in i; its ghost row at a slab edge from the neighbour rank), skipped
// in any cell where it would make ρ or p non-positive. Each rank restricts and prolongs its own
// slab: the coarse slab is the fine one's rows halved.
void AirfoilSolver::coarse_grid_correction(double cfl) {
  if (!coarse_) return;
  compute_residual();  // R_f at the smoothed state
  AirfoilSolver& c = *coarse_;
  const long nci = c.ni_, ncl = c.nl_, ncj = c.nj_, cj0 = c.j0_, ci = 2;
  {
    ScopedPhase phase(phase_seconds_, "multigrid");
    const Array3 uf = u_, rf = res_, uc = c.u_, u0 = c.u_start_, pc = c.forcing_;
    const Array2 area = area_;
    Kokkos::parallel_for(
        "AirfoilSolver::restrict", Range2({0, 0}, {ncl, nci}), KOKKOS_LAMBDA(long jc, long ic) {
          double v = 0, su[4] = {0, 0, 0, 0}, sr[4] = {0, 0, 0, 0};
          for (long b = 0; b < 2; ++b)
            for (long a = 0; a < ci; ++a) {
              const long i = ci * ic + a, j = 2 * jc + b;
              v += area(j, i);
              for (int k = 0; k < 4; ++k) su[k] += area(j, i) * uf(k, j, i), sr[k] += rf(k, j, i);
            }
          for (int k = 0; k < 4; ++k) {
            uc(k, jc, ic) = u0(k, jc, ic) = su[k] / v;
            pc(k, jc, ic) = sr[k];  // completed below: P = Σ R_f − R_c(U_c⁰)
          }
        });
  }
  {
    // All the work on the coarser levels, which keep their own phase clocks.
    ScopedPhase phase(phase_seconds_, "multigrid_coarse");
    c.update_primitives();
    c.circulation_ = circulation_;
    {
      // R_c(U_c⁰) without forcing: swap the forcing out for the evaluation.
      Array3 restricted = c.forcing_;
      c.forcing_ = Array3();
      c.compute_residual();
      c.forcing_ = restricted;
      const Array3 pc = c.forcing_, rc = c.res_;
      Kokkos::parallel_for(
          "AirfoilSolver::forcing", Range2({0, 0}, {ncl, nci}), KOKKOS_LAMBDA(long jc, long ic) {
            for (int k = 0; k < 4; ++k) {
              const double sum_fine = pc(k, jc, ic);
              pc(k, jc, ic) = sum_fine - rc(k, jc, ic);
              rc(k, jc, ic) = sum_fine;  // R_c(U_c⁰) + P
            }
          });
    }
    c.smooth(cfl);
    c.coarse_grid_correction(cfl);
  }
  {
    ScopedPhase phase(phase_seconds_, "multigrid");
    const Array3 uc = c.u_, u0 = c.u_start_, dc = c.correction_;
    Kokkos::parallel_for(
        "AirfoilSolver::correction", Range2({0, 0}, {ncl, nci}), KOKKOS_LAMBDA(long jc, long ic) {
          for (int k = 0; k < 4; ++k) dc(k, jc + 1, ic) = uc(k, jc, ic) - u0(k, jc, ic);
        });
  }
  {
    ScopedPhase phase(phase_seconds_, "halo");
    c.exchange_correction_halo();
  }
  {
    ScopedPhase phase(phase_seconds_, "multigrid");
    const Array3 uf = u_, dc = c.correction_;
    // Slab rows start at an even global row, so local and global parities agree.
    Kokkos::parallel_for(
        "AirfoilSolver::prolong", Range2({0, 0}, {nl_, ni_}), KOKKOS_LAMBDA(long j, long i) {
          const long ic = i / 2, jc = j / 2;
          const long in = wrap(ic + (i % 2 == 0 ? -1 : 1), nci);
          long jn = jc + (j % 2 == 0 ? -1 : 1);
          if (cj0 + jn < 0 || cj0 + jn >= ncj) jn = jc;  // wall and far field: one-sided
          State next;
          for (int k = 0; k < 4; ++k) {
            const double d = 9.0 / 16 * dc(k, jc + 1, ic) + 3.0 / 16 * dc(k, jc + 1, in) +
                             3.0 / 16 * dc(k, jn + 1, ic) + 1.0 / 16 * dc(k, jn + 1, in);
            next[k] = uf(k, j, i) + d;
          }
          const State w = to_primitive(next);
          if (w[0] > 0 && w[3] > 0)
            for (int k = 0; k < 4; ++k) uf(k, j, i) = next[k];
        });
  }
  update_primitives();
  check_state();
}

StepReport AirfoilSolver::advance() {
  compute_residual();
  for (int k = 0; k < 4; ++k) relative_residual_[k] = absolute_residual_[k] / first_residual_[k];
  if (!std::isfinite(relative_residual_[0])) check_state();
  if (p_.far_field == FarField::kVortex && p_.inner == InnerBoundary::kWall)
    circulation_ = 0.5 * chord_ * coefficients().at("cl");
  const double cfl = current_cfl();
  smooth(cfl);
  coarse_grid_correction(cfl);
  ++iteration_;
  return {iteration_, static_cast<double>(iteration_), 1.0};
}

bool AirfoilSolver::finished() const {
  return iteration_ >= p_.max_iterations ||
         (iteration_ > 0 && relative_residual_[0] <= p_.residual_drop);
}

double AirfoilSolver::progress() const {
  const double by_iterations =
      static_cast<double>(iteration_) / static_cast<double>(p_.max_iterations);
  const double r = relative_residual_[0];
  const double by_residual = r > 0 && r < 1 ? std::log(r) / std::log(p_.residual_drop) : 0.0;
  return std::min(1.0, std::max(by_iterations, by_residual));
}

std::array<double, 4> AirfoilSolver::boundary_outflow() const {
  auto fj = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fj_);
  double out[4] = {0, 0, 0, 0};
  for (long i = 0; i < ni_; ++i)
    for (int k = 0; k < 4; ++k) {
      if (has_far_field()) out[k] += fj(k, nl_, i);
      if (has_wall()) out[k] -= fj(k, 0, i);
    }
  sum_over_ranks(out, 4);
  return {out[0], out[1], out[2], out[3]};
}

AirfoilSolver::Surface AirfoilSolver::surface() const {
  // The wall fluxes per face from the wall rank: convective x, y and viscous x, y.
  std::vector<double> wall(static_cast<std::size_t>(4 * ni_));
  if (has_wall()) {
    auto fj = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), Kokkos::subview(fj_, Kokkos::ALL, 0, Kokkos::ALL));
    auto vx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), wall_visc_x_);
    auto vy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), wall_visc_y_);
    for (long i = 0; i < ni_; ++i) {
      wall[static_cast<std::size_t>(i)] = fj(1, i);
      wall[static_cast<std::size_t>(ni_ + i)] = fj(2, i);
      wall[static_cast<std::size_t>(2 * ni_ + i)] = vx(0, i);
      wall[static_cast<std::size_t>(3 * ni_ + i)] = vy(0, i);
    }
  }
  if (ranks_ > 1) MPI_Bcast(wall.data(), static_cast<int>(4 * ni_), MPI_DOUBLE, 0, comm_);
  Surface s;
  for (long i = 0; i < ni_; ++i) {
    const double x0 = grid_x_(i, 0), y0 = grid_y_(i, 0), x1 = grid_x_(i + 1, 0),
                 y1 = grid_y_(i + 1, 0);
    const double fx = wall[static_cast<std::size_t>(i)],
                 fy = wall[static_cast<std::size_t>(ni_ + i)];
    const double vx = wall[static_cast<std::size_t>(2 * ni_ + i)],
                 vy = wall[static_cast<std::size_t>(3 * ni_ + i)];
    const double sx = -(y1 - y0), sy = x1 - x0, s2 = sx * sx + sy * sy, len = std::sqrt(s2);
    // The convective wall flux along S (into the flow) is p_w S: the mass flux vanishes.
    const double fcx = fx + vx, fcy = fy + vy;
    const double pw = (fcx * sx + fcy * sy) / s2;
    const bool upper = i >= i_le_;
    const double sign = upper ? 1.0 : -1.0;  // downstream tangent: +e_i above, −e_i below
    const double tx = sign * (x1 - x0) / len, ty = sign * (y1 - y0) / len;
    const double tau = (vx * tx + vy * ty) / len;
    const double xm = 0.5 * (x0 + x1) - x_le_, ym = 0.5 * (y0 + y1) - y_le_;
    s.x.push_back((xm * chord_dx_ + ym * chord_dy_) / chord_);
    s.y.push_back((-xm * chord_dy_ + ym * chord_dx_) / chord_);
    s.cp.push_back(2 * (pw - p_inf_));
    s.cf.push_back(2 * tau);
    s.upper.push_back(upper ? 1 : 0);
  }
  return s;
}

double AirfoilSolver::separation_point() const {
  if (!viscous_) return std::numeric_limits<double>::quiet_NaN();
  const Surface s = surface();
  for (long i = i_le_ + 1; i < ni_; ++i) {
    if (s.cf[i - 1] > 0 && s.cf[i] <= 0) {
      const double t = s.cf[i - 1] / (s.cf[i - 1] - s.cf[i]);
      return s.x[i - 1] + t * (s.x[i] - s.x[i - 1]);
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

Diagnostics AirfoilSolver::coefficients() const {
  // From the wall force sums of the last residual (compute_residual: global, every rank).
  const double px = wall_force_[0], py = wall_force_[1], fx = wall_force_[2], fy = wall_force_[3],
               moment = wall_force_[4];
  const double q = 0.5 * chord_;  // ½ ρ∞ |u∞|² c
  const double ca = std::cos(alpha_), sa = std::sin(alpha_);
  Diagnostics d;
  d["cl"] = (-(px + fx) * sa + (py + fy) * ca) / q;
  d["cd"] = ((px + fx) * ca + (py + fy) * sa) / q;
  d["cd_pressure"] = (px * ca + py * sa) / q;
  d["cd_friction"] = (fx * ca + fy * sa) / q;
  d["cm"] = -moment / (q * chord_);
  return d;
}

Diagnostics AirfoilSolver::monitor() const {
  Diagnostics d = coefficients();
  d.erase("cm");
  const char* names[4] = {"res_rho", "res_rhou", "res_rhov", "res_rhoe"};
  for (int k = 0; k < 4; ++k) d[names[k]] = relative_residual_[k];
  return d;
}

Diagnostics AirfoilSolver::diagnostics() const {
  Diagnostics d = coefficients();
  d["iterations"] = static_cast<double>(iteration_);
  d["final_residual"] = relative_residual_[0];
  d["converged"] = relative_residual_[0] <= p_.residual_drop ? 1.0 : 0.0;
  d["residual_orders"] = relative_residual_[0] > 0 ? -std::log10(relative_residual_[0]) : 0.0;
  d["mach"] = p_.mach;
  d["multigrid_levels"] = levels_;
  d["alpha_deg"] = p_.alpha_deg;
  for (const auto& [name, value] : shape_) d[name] = value;  // surrogate inputs in a sweep dataset
  if (viscous_) {
    d["reynolds"] = p_.reynolds;
    const double sep = separation_point();
    d["separation_x_over_c"] = std::isfinite(sep) ? sep : -1.0;
  }
  return d;
}

io::MeshData AirfoilSolver::output_mesh() const {
  // The ghost rows between slabs as of now (the vorticity reads them).
  exchange_ghost_rows(w_, w_halo_);
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kStructured;
  mesh.extent = {0, ni_, j0_, j0_ + nl_, 0, 0};
  const long np = (ni_ + 1) * (nl_ + 1), nc = ni_ * nl_;
  mesh.points = io::HostArray("Airfoil::points", np, 3);
  for (long j = 0; j <= nl_; ++j)
    for (long i = 0; i <= ni_; ++i) {
      const long n = i + (ni_ + 1) * j;
      mesh.points(n, 0) = grid_x_(i, j0_ + j);
      mesh.points(n, 1) = grid_y_(i, j0_ + j);
      mesh.points(n, 2) = 0;
    }
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w_);
  auto sxi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sxi_);
  auto syi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), syi_);
  auto sxj = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sxj_);
  auto syj = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), syj_);
  io::HostArray rho("density", nc, 1), vel("velocity", nc, 3), pres("pressure", nc, 1),
      mach("Mach", nc, 1), cp("Cp", nc, 1), vort("vorticity", nc, 1), area("cell_area", nc, 1),
      wd("wall_distance", nc, 1);
  for (long j = 0; j < nl_; ++j)
    for (long i = 0; i < ni_; ++i) {
      const long n = i + ni_ * j, r = j + 2, g = j0_ + j;
      const double d = w(0, r, i), u = w(1, r, i), v = w(2, r, i), p = w(3, r, i);
      rho(n, 0) = d;
      vel(n, 0) = u, vel(n, 1) = v, vel(n, 2) = 0;
      pres(n, 0) = p;
      mach(n, 0) = std::sqrt((u * u + v * v) / (kGamma * p / d));
      cp(n, 0) = 2 * (p - p_inf_);
      area(n, 0) = metrics_area_(i, g);
      wd(n, 0) = metrics_wall_distance_(i, g);
      // Vorticity ∂v/∂x − ∂u/∂y by Green–Gauss over the cell, faces at the mean of the two
      // cells (ghost rows at the boundaries and slab edges).
      const long im = (i + ni_ - 1) % ni_, ip = (i + 1) % ni_;
      auto face = [&](long k, long r2, long i2) { return 0.5 * (w(k, r, i) + w(k, r2, i2)); };
      double c = 0;
      c += face(2, r, ip) * sxi(j, i + 1) - face(1, r, ip) * syi(j, i + 1);
      c -= face(2, r, im) * sxi(j, i) - face(1, r, im) * syi(j, i);
      c += face(2, r + 1, i) * sxj(j + 1, i) - face(1, r + 1, i) * syj(j + 1, i);
      c -= face(2, r - 1, i) * sxj(j, i) - face(1, r - 1, i) * syj(j, i);
      vort(n, 0) = c / metrics_area_(i, g);
    }
  mesh.cell_data = {{"density", rho},    {"velocity", vel},    {"pressure", pres},
                    {"Mach", mach},      {"Cp", cp},           {"vorticity", vort},
                    {"cell_area", area}, {"wall_distance", wd}};
  return mesh;
}

// Scalars are global; each rank saves its slab of U and where the slab lies ("slab": first row,
// rows), so a restart on the same number of ranks puts every row back wherever it now lives.
void AirfoilSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["iteration"] = static_cast<double>(iteration_);
  checkpoint.scalars["circulation"] = circulation_;
  checkpoint.scalars["cells_i"] = static_cast<double>(ni_);
  checkpoint.scalars["cells_j"] = static_cast<double>(nj_);
  for (int k = 0; k < 4; ++k) {
    checkpoint.scalars["first_residual_" + std::to_string(k)] = first_residual_[k];
    checkpoint.scalars["relative_residual_" + std::to_string(k)] = relative_residual_[k];
  }
  auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_);
  io::HostArray a("Airfoil::conservative", ni_ * nl_, 4);
  for (long j = 0; j < nl_; ++j)
    for (long i = 0; i < ni_; ++i)
      for (int k = 0; k < 4; ++k) a(i + ni_ * j, k) = u(k, j, i);
  checkpoint.arrays.push_back({"conservative", a});
  io::HostArray slab("Airfoil::slab", 1, 2);
  slab(0, 0) = static_cast<double>(j0_);
  slab(0, 1) = static_cast<double>(nl_);
  checkpoint.arrays.push_back({"slab", slab});
}

// Collective. Every rank's piece is gathered, so the rows need not lie where they did when saved
// (another multigrid_levels changes the slabs); a checkpoint without "slab" is one whole grid.
void AirfoilSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  const io::NamedArray& a = checkpoint.array("conservative");
  const long saved_i = static_cast<long>(checkpoint.scalar("cells_i"));
  const long saved_j = static_cast<long>(checkpoint.scalar("cells_j"));
  long first = 0, rows = saved_j;
  for (const auto& s : checkpoint.arrays)
    if (s.name == "slab" && s.tuples() == 1 && s.components() == 2)
      first = static_cast<long>(s.values(0, 0)), rows = static_cast<long>(s.values(0, 1));
  int fits = a.components() == 4 && static_cast<long>(a.tuples()) == rows * ni_ && first >= 0 &&
             rows >= 0 && first + rows <= nj_;
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_MIN, comm_);
  if (saved_i != ni_ || saved_j != nj_ || !fits)
    throw InputError(fmt::format(
        "checkpoint of a {} × {} grid{} does not match this {} × {} grid", saved_i, saved_j,
        saved_i == ni_ && saved_j == nj_ ? " (its array 'conservative' does not tile it)" : "", ni_,
        nj_));
  // Pieces of all ranks: (first, rows) pairs, then the values.
  long mine[2] = {first, rows};
  std::vector<long> slabs(static_cast<std::size_t>(2 * ranks_));
  std::vector<double> values(static_cast<std::size_t>(4 * rows * ni_));
  for (long n = 0; n < rows * ni_; ++n)
    for (int k = 0; k < 4; ++k) values[static_cast<std::size_t>(4 * n + k)] = a.values(n, k);
  std::vector<double> all = values;
  if (ranks_ > 1) {
    MPI_Allgather(mine, 2, MPI_LONG, slabs.data(), 2, MPI_LONG, comm_);
    std::vector<int> counts(static_cast<std::size_t>(ranks_)), offsets(counts.size());
    for (std::size_t r = 0, offset = 0; r < counts.size(); ++r) {
      counts[r] = static_cast<int>(4 * slabs[2 * r + 1] * ni_);
      offsets[r] = static_cast<int>(offset);
      offset += static_cast<std::size_t>(counts[r]);
    }
    all.resize(static_cast<std::size_t>(offsets.back() + counts.back()));
    MPI_Allgatherv(values.data(), counts[static_cast<std::size_t>(rank_)], MPI_DOUBLE, all.data(),
                   counts.data(), offsets.data(), MPI_DOUBLE, comm_);
  } else {
    slabs = {first, rows};
  }
  // Global row → position of its first value in `all`; every row exactly once.
  std::vector<long> where(static_cast<std::size_t>(nj_), -1);
  bool tiles = true;
  for (std::size_t r = 0, offset = 0; r < slabs.size() / 2; ++r) {
    for (long j = 0; j < slabs[2 * r + 1]; ++j) {
      auto& w = where[static_cast<std::size_t>(slabs[2 * r] + j)];
      tiles = tiles && w < 0;
      w = static_cast<long>(offset) + 4 * ni_ * j;
    }
    offset += static_cast<std::size_t>(4 * slabs[2 * r + 1] * ni_);
  }
  for (const long w : where) tiles = tiles && w >= 0;
  if (!tiles)  // the same on every rank: all hold the same slab list
    throw InputError(fmt::format(
        "checkpoint of a {} × {} grid: the pieces of its array 'conservative' do not tile the grid",
        saved_i, saved_j));
  auto u = Kokkos::create_mirror_view(u_);
  for (long j = 0; j < nl_; ++j) {
    const double* row = all.data() + where[static_cast<std::size_t>(j0_ + j)];
    for (long i = 0; i < ni_; ++i)
      for (int k = 0; k < 4; ++k) u(k, j, i) = row[4 * i + k];
  }
  Kokkos::deep_copy(u_, u);
  update_primitives();
  iteration_ = static_cast<long>(checkpoint.scalar("iteration"));
  circulation_ = checkpoint.scalar("circulation");
  for (int k = 0; k < 4; ++k) {
    first_residual_[k] = checkpoint.scalar("first_residual_" + std::to_string(k));
    relative_residual_[k] = checkpoint.scalar("relative_residual_" + std::to_string(k));
  }
  check_state();
}

void AirfoilSolver::finalize(const std::filesystem::path& output_dir, nlohmann::json& results) {
  // Surface fluxes of the final state (collective); rank 0 writes the surface files.
  compute_residual();
  const Diagnostics d = diagnostics();
  nlohmann::json out;
  for (const auto& [name, value] : d) out[name] = value;
  out["phase_times_s"] = phase_seconds_;
  out["mpi_ranks"] = ranks_;
  out["slab_rows"] = rows_;
  results["airfoil"] = out;

  const Surface s = surface();
  results["outputs"]["surface_csv"] = (output_dir / "surface.csv").string();
  results["outputs"]["surface_vtp"] = (output_dir / "surface.vtp").string();
  std::string failure;
  if (rank_ == 0) {
    try {
      std::ofstream csv(output_dir / "surface.csv");
      csv << "i,x_over_c,y_over_c,cp,cf,upper\n";
      csv.precision(10);
      for (long i = 0; i < ni_; ++i)
        csv << i << ',' << s.x[i] << ',' << s.y[i] << ',' << s.cp[i] << ',' << s.cf[i] << ','
            << s.upper[i] << '\n';
      if (!csv) throw Error("cannot write " + (output_dir / "surface.csv").string());
      io::MeshData poly;
      poly.kind = io::MeshKind::kPolyData;
      poly.points = io::HostArray("Airfoil::surface_points", ni_, 3);
      io::HostArray cp("Cp", ni_, 1), cf("Cf", ni_, 1), xc("x_over_c", ni_, 1);
      for (long i = 0; i < ni_; ++i) {
        poly.points(i, 0) = 0.5 * (grid_x_(i, 0) + grid_x_(i + 1, 0));
        poly.points(i, 1) = 0.5 * (grid_y_(i, 0) + grid_y_(i + 1, 0));
        poly.points(i, 2) = 0;
        cp(i, 0) = s.cp[i], cf(i, 0) = s.cf[i], xc(i, 0) = s.x[i];
      }
      // One closed polyline through the wall-face midpoints (VTK_POLY_LINE = 4).
      poly.cell_types = {4};
      poly.cell_offsets = {0, ni_ + 1};
      for (long i = 0; i < ni_; ++i) poly.connectivity.push_back(i);
      poly.connectivity.push_back(0);
      poly.point_data = {{"Cp", cp}, {"Cf", cf}, {"x_over_c", xc}};
      io::write_vtk(poly, output_dir / "surface.vtp");
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  // Every rank fails together.
  int failed = failure.empty() ? 0 : 1;
  if (ranks_ > 1) MPI_Bcast(&failed, 1, MPI_INT, 0, comm_);
  if (failed) throw Error(failure.empty() ? "rank 0 could not write the surface files" : failure);
}

AirfoilSolver::HaloBuffers AirfoilSolver::halo_buffers(long ghosts) const {
  HaloBuffers b;
  if (ranks_ == 1) return b;
  b.send_lo = Array3("Airfoil::halo_send_lo", 4, ghosts, ni_);
  b.send_hi = Array3("Airfoil::halo_send_hi", 4, ghosts, ni_);
  b.recv_lo = Array3("Airfoil::halo_recv_lo", 4, ghosts, ni_);
  b.recv_hi = Array3("Airfoil::halo_recv_hi", 4, ghosts, ni_);
  b.host_send_lo = Kokkos::create_mirror_view(b.send_lo);
  b.host_send_hi = Kokkos::create_mirror_view(b.send_hi);
  b.host_recv_lo = Kokkos::create_mirror_view(b.recv_lo);
  b.host_recv_hi = Kokkos::create_mirror_view(b.recv_hi);
  return b;
}

void AirfoilSolver::exchange_ghost_rows(const Array3& a, const HaloBuffers& b) const {
  if (ranks_ == 1) return;
  const long g = static_cast<long>(b.send_lo.extent(1)), n = static_cast<long>(a.extent(1)) - 2 * g;
  const int count = static_cast<int>(4 * g * ni_);
  const int lo = rank_ > 0 ? rank_ - 1 : MPI_PROC_NULL;
  const int hi = rank_ < ranks_ - 1 ? rank_ + 1 : MPI_PROC_NULL;
  const auto all = Kokkos::ALL;
  if (lo != MPI_PROC_NULL) {
    Kokkos::deep_copy(b.send_lo, Kokkos::subview(a, all, Rows(g, 2 * g), all));
    Kokkos::deep_copy(b.host_send_lo, b.send_lo);
  }
  if (hi != MPI_PROC_NULL) {
    Kokkos::deep_copy(b.send_hi, Kokkos::subview(a, all, Rows(n, n + g), all));
    Kokkos::deep_copy(b.host_send_hi, b.send_hi);
  }
  // My first rows go down and the upper neighbour's first rows come in; then the reverse.
  MPI_Sendrecv(b.host_send_lo.data(), count, MPI_DOUBLE, lo, kTagDown, b.host_recv_hi.data(), count,
               MPI_DOUBLE, hi, kTagDown, comm_, MPI_STATUS_IGNORE);
  MPI_Sendrecv(b.host_send_hi.data(), count, MPI_DOUBLE, hi, kTagUp, b.host_recv_lo.data(), count,
               MPI_DOUBLE, lo, kTagUp, comm_, MPI_STATUS_IGNORE);
  if (lo != MPI_PROC_NULL) {
    Kokkos::deep_copy(b.recv_lo, b.host_recv_lo);
    Kokkos::deep_copy(Kokkos::subview(a, all, Rows(0, g), all), b.recv_lo);
  }
  if (hi != MPI_PROC_NULL) {
    Kokkos::deep_copy(b.recv_hi, b.host_recv_hi);
    Kokkos::deep_copy(Kokkos::subview(a, all, Rows(n + g, n + 2 * g), all), b.recv_hi);
  }
}

void AirfoilSolver::exchange_primitive_halo() { exchange_ghost_rows(w_, w_halo_); }

void AirfoilSolver::exchange_correction_halo() {
  exchange_ghost_rows(correction_, correction_halo_);
}

void AirfoilSolver::sum_over_ranks(double* values, int n) const {
  if (ranks_ == 1) return;
  std::vector<double> all(static_cast<std::size_t>(n * ranks_));
  MPI_Allgather(values, n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, comm_);
  for (int k = 0; k < n; ++k) {
    double sum = 0;
    for (int r = 0; r < ranks_; ++r) sum += all[static_cast<std::size_t>(r * n + k)];
    values[k] = sum;
  }
}

}  // namespace surrox::solvers::airfoil

// The airfoil solver's output: the rank's piece of the grid with its cell fields, and the
// surface files and summary of a finished run.
#include <algorithm>
#include <cmath>
#include <fstream>

#include "io/vtk_writer.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "solvers/airfoil/spalart_allmaras.hpp"

namespace surrox::solvers::airfoil {

io::MeshData AirfoilSolver::output_mesh() const {
  // The ghost rows between slabs as of now (the vorticity reads them).
  const FlowLevel& f = fine();
  f.w_ghosts.exchange(f.w);
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kStructured;
  mesh.extent = {0, ni_, j0_, j0_ + nl_, 0, 0};
  const long np = (ni_ + 1) * (nl_ + 1), nc = ni_ * nl_;
  mesh.points = io::HostArray("Airfoil::points", np, 3);
  for (long j = 0; j <= nl_; ++j)
    for (long i = 0; i <= ni_; ++i) {
      const long n = i + (ni_ + 1) * j;
      mesh.points(n, 0) = f.grid_x(i, j0_ + j);
      mesh.points(n, 1) = f.grid_y(i, j0_ + j);
      mesh.points(n, 2) = 0;
    }
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.w);
  auto sxi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.geometry.sxi);
  auto syi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.geometry.syi);
  auto sxj = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.geometry.sxj);
  auto syj = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.geometry.syj);
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
      area(n, 0) = f.cell_area(i, g);
      wd(n, 0) = f.cell_wall_distance(i, g);
      // Vorticity ∂v/∂x − ∂u/∂y by Green–Gauss over the cell, faces at the mean of the two
      // cells (ghost rows at the boundaries and slab edges).
      // A rectangle's end columns take their own value on the open side (a one-sided face).
      const long im = f.periodic ? (i + ni_ - 1) % ni_ : std::max(i - 1, 0L);
      const long ip = f.periodic ? (i + 1) % ni_ : std::min(i + 1, ni_ - 1);
      auto face = [&](long k, long r2, long i2) { return 0.5 * (w(k, r, i) + w(k, r2, i2)); };
      double c = 0;
      c += face(2, r, ip) * sxi(j, i + 1) - face(1, r, ip) * syi(j, i + 1);
      c -= face(2, r, im) * sxi(j, i) - face(1, r, im) * syi(j, i);
      c += face(2, r + 1, i) * sxj(j + 1, i) - face(1, r + 1, i) * syj(j + 1, i);
      c -= face(2, r - 1, i) * sxj(j, i) - face(1, r - 1, i) * syj(j, i);
      vort(n, 0) = c / f.cell_area(i, g);
    }
  mesh.cell_data = {{"density", rho},    {"velocity", vel},    {"pressure", pres},
                    {"Mach", mach},      {"Cp", cp},           {"vorticity", vort},
                    {"cell_area", area}, {"wall_distance", wd}};
  // RANS: ν̃ and the kinematic eddy viscosity ν_t = μ_t/ρ = ν̃ f_v1 (μ from Sutherland's law
  // as the viscous flux takes it), the turbulence fields of the RANS surrogate datasets.
  if (f.turbulent) {
    auto nt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.nu_tilde);
    io::HostArray nu_tilde("nu_tilde", nc, 1), nu_t("nu_t", nc, 1);
    for (long j = 0; j < nl_; ++j)
      for (long i = 0; i < ni_; ++i) {
        const long n = i + ni_ * j, r = j + 2;
        const double rho = w(0, r, i), theta = w(3, r, i) / rho;
        const double mu = f.mu * sa::sutherland(theta / p_inf_, f.sutherland_ratio);
        nu_tilde(n, 0) = nt(0, r, i);
        nu_t(n, 0) = sa::eddy_viscosity(rho, nt(0, r, i), mu / rho) / rho;
      }
    mesh.cell_data.push_back({"nu_tilde", nu_tilde});
    mesh.cell_data.push_back({"nu_t", nu_t});
  }
  return mesh;
}

void AirfoilSolver::finalize(const std::filesystem::path& output_dir, nlohmann::json& results) {
  // Surface fluxes of the final state (collective); rank 0 writes the surface files.
  compute_residual();
  const Slab& slab = fine().slab;
  const Diagnostics d = diagnostics();
  nlohmann::json out;
  for (const auto& [name, value] : d) out[name] = value;
  out["phase_times_s"] = fine().phase_seconds;
  out["mpi_ranks"] = slab.ranks();
  out["slab_rows"] = slab.rows_of_ranks();
  results["airfoil"] = out;

  const Surface s = surface();
  results["outputs"]["surface_csv"] = (output_dir / "surface.csv").string();
  results["outputs"]["surface_vtp"] = (output_dir / "surface.vtp").string();
  std::string failure;
  if (slab.rank() == 0) {
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
        poly.points(i, 0) = 0.5 * (fine().grid_x(i, 0) + fine().grid_x(i + 1, 0));
        poly.points(i, 1) = 0.5 * (fine().grid_y(i, 0) + fine().grid_y(i + 1, 0));
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
  if (slab.ranks() > 1) MPI_Bcast(&failed, 1, MPI_INT, 0, slab.comm());
  if (failed) throw Error(failure.empty() ? "rank 0 could not write the surface files" : failure);
}

}  // namespace surrox::solvers::airfoil

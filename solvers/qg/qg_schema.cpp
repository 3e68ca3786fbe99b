#include "solvers/qg/qg_initial_vorticity.hpp"
#include "solvers/qg/qg_solver.hpp"

namespace surrox::solvers::qg {

Schema qg_schema() {
  Schema s(
      "Wind-driven barotropic ocean on a β-plane (quasi-geostrophic double gyre): ∂ω/∂t + J(ψ, ω) "
      "+ β ∂ψ/∂x = F0 sin(2πy/Ly) − r ω + ν ∇²ω, ∇²ψ = ω on [0, Lx] × [−Ly/2, Ly/2], ψ = 0 on "
      "the walls; Arakawa Jacobian, SSP-RK3, FFTW or PETSc streamfunction inversion.");
  s.choice("units", {"nondimensional", "dimensional"},
           "nondimensional: San et al. (2011) / Rahman et al. (2019), β = F0 = 1/Ro, ν = 1/Re "
           "(lengths in basin widths, their ψ = −ψ here); dimensional: SI units with beta, "
           "viscosity, wind_stress, density and depth (F0 = 2π τ0/(ρ H Ly))")
      .fallback("nondimensional");
  s.real("reynolds", "Reynolds number Re (nondimensional units): ν = 1/Re")
      .above(0)
      .fallback("450");
  s.real("rossby", "Rossby number Ro (nondimensional units): β = F0 = 1/Ro")
      .above(0)
      .fallback("0.0036");
  s.real("beta", "β = df/dy (dimensional units)").units("1/(m s)").at_least(0).fallback("2e-11");
  s.real("viscosity", "lateral eddy viscosity A_H (dimensional units)")
      .units("m^2/s")
      .at_least(0)
      .fallback("100");
  s.real("wind_stress", "wind stress amplitude τ0 of τx = τ0 cos(2πy/Ly) (dimensional units)")
      .units("N/m^2")
      .at_least(0)
      .fallback("0.1");
  s.real("density", "water density ρ (dimensional units)")
      .units("kg/m^3")
      .above(0)
      .fallback("1000");
  s.real("depth", "layer depth H (dimensional units)").units("m").above(0).fallback("500");
  s.real("drag", "linear bottom drag r (1/s in dimensional units)").at_least(0).fallback("0");
  s.reals("length", "basin size [Lx, Ly] (m in dimensional units); y runs over [−Ly/2, Ly/2]")
      .sized(2)
      .fallback("[1.0, 2.0]");
  s.integers("cells", "grid intervals [nx, ny]; the (nx − 1)(ny − 1) interior nodes are unknowns")
      .sized(2)
      .at_least(4)
      .fallback("[256, 512]");
  s.choice("boundary", {"free_slip", "no_slip"},
           "wall condition on ω: free_slip ω = 0; no_slip ω = 2ψ_adjacent/h² (Thom)")
      .fallback("free_slip");
  s.boolean("advection", "the Jacobian J(ψ, ω); false: the linear (Stommel, Munk) problem")
      .fallback("true");
  s.choice("initial", qg_initial_vorticity_names(),
           "rest: ω = 0; random: ω = A/4 Σ a_lm sin(lπx/Lx) sin(mπ(y/Ly + ½)), l, m = 1…4, with "
           "seeded a_lm ∈ [−1, 1); basin_mode: the linear Rossby basin mode ψ = A sin(mπx/Lx) "
           "sin(nπ(y/Ly + ½)) cos(Kx + σt) at t = 0, K² = (mπ/Lx)² + (nπ/Ly)², which travels west "
           "at the frequency σ = β/(2K) (validation; run it with advection, forcing, drag and "
           "viscosity off)")
      .fallback("rest");
  s.integers("mode", "the basin mode's [m, n] (initial: basin_mode)")
      .sized(2)
      .at_least(1)
      .fallback("[1, 1]");
  s.real("amplitude", "amplitude A of the random initial vorticity or of the basin mode's ψ")
      .at_least(0)
      .fallback("1");
  s.integer("seed", "seed of the random initial vorticity").at_least(0).fallback("7");
  s.real("end_time", "simulated time to reach").above(0).fallback("10");
  s.real("cfl",
         "time step as a fraction of the stable SSP-RK3 limit: √3 over the advective and Rossby "
         "rates, 2.5 over the drag and viscous rates")
      .above(0)
      .at_most(1)
      .fallback("0.8");
  s.real("dt", "a fixed time step instead (still clipped onto output times); 0: adaptive")
      .at_least(0)
      .fallback("0");
  s.real("max_dt", "largest adaptive time step; 0: no cap").at_least(0).fallback("0");
  s.real("average_from", "start of the time-averaging window of the budgets in summary.json")
      .at_least(0)
      .fallback("0");
  s.real("steady_tolerance",
         "stop early when max|∂ω/∂t| / F0 falls below this (steady linear problems); 0: run to "
         "end_time")
      .at_least(0)
      .fallback("0");
  Schema poisson("The streamfunction inversion ∇²ψ = ω (ψ = 0 on the walls).");
  poisson
      .choice("solver", {"fft", "fft_tridiagonal", "ksp"},
              "fft: FFTW's type-I sine transform in x and y; fft_tridiagonal: the sine transform "
              "in x and a tridiagonal (Thomas) solve per mode in y; ksp: PETSc KSP on the DMDA "
              "(options prefix -qg_poisson_). All solve the same discrete problem; the default "
              "is the fastest measured (bench/qg, docs/validation/qg.md)")
      .fallback("fft");
  poisson.string("ksp_type", "KSP type (ksp only); \"auto\": preonly with a direct LU")
      .fallback("auto");
  poisson
      .string("pc_type",
              "PC type (ksp only); \"auto\": LU with nested dissection (redundant on several "
              "ranks); or gamg, hypre, ...")
      .fallback("auto");
  poisson.real("rtol", "relative residual tolerance (ksp only)").above(0).fallback("1e-12");
  poisson.string("options", "extra PETSc options (ksp only)").fallback("\"\"");
  s.section("poisson", poisson, "streamfunction Poisson solver");
  return s;
}

}  // namespace surrox::solvers::qg

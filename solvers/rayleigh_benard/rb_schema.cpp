#include "solvers/rayleigh_benard/rb_solver.hpp"

namespace surrox::solvers::rayleigh_benard {

Schema rayleigh_benard_schema(int dim) {
  const bool three_d = dim == 3;
  Schema s(three_d ? "3D Rayleigh–Bénard convection (Boussinesq, free-fall units) on a MAC grid "
                     "with PETSc pressure projection; periodic in x and y, no-slip walls at z = "
                     "0 and 1."
                   : "Rayleigh–Bénard convection (Boussinesq, free-fall units) on a MAC grid with "
                     "PETSc pressure projection; periodic in x, no-slip walls at z = 0 and 1.");
  s.real("rayleigh", "Rayleigh number Ra").above(0).fallback(three_d ? "1e5" : "1e6");
  s.real("prandtl", "Prandtl number Pr").above(0).fallback("1.0");
  s.reals("length", three_d ? "domain size [Lx, Ly, Lz]; Lz = 1 is the unit of length"
                            : "domain size [Lx, Lz]; Lz = 1 is the unit of length")
      .sized(dim)
      .fallback(three_d ? "[2.0, 2.0, 1.0]" : "[4.0, 1.0]");
  s.integers("cells", three_d ? "cells [nx, ny, nz]" : "cells [nx, nz]")
      .sized(dim)
      .at_least(1)
      .fallback(three_d ? "[32, 32, 16]" : "[512, 128]");
  s.real("end_time", "simulated time to reach (free-fall units)")
      .above(0)
      .fallback(three_d ? "10.0" : "50.0");
  s.real("cfl", "time step as a fraction of the stable SSP-RK3 limit (advective and diffusive)")
      .above(0)
      .at_most(1)
      .fallback("0.8");
  s.real("max_dt", "largest time step").above(0).fallback("0.05");
  s.real("stretching",
         "wall-normal clustering γ: cell faces z_k = ½(1 + tanh(γ(2k/nz − 1))/tanh γ), "
         "k = 0…nz, centres midway; the wall cell is ≈ 2γ/sinh 2γ of a uniform one (γ = 1.5: "
         "0.30) for large nz. 0: uniform")
      .at_least(0)
      .at_most(4)
      .fallback("0");
  s.choice("initial", {"random", "mode"},
           three_d ? "initial perturbation of the conductive profile, a function of position (the "
                     "same on every grid): random: b' = A M^-1/2 Σ a cos(2πlx/Lx + θ) cos(2πmy/Ly "
                     "+ φ) sin(nπz) over l ≤ 2Lx, m ≤ 2Ly, n ≤ 4 with seeded a, θ, φ; mode: b' = A "
                     "cos(2πx/Lx) cos(2πy/Ly) sin(πz)"
                   : "initial perturbation of the conductive profile, a function of position (the "
                     "same on every grid): random: b' = A M^-1/2 Σ a cos(2πlx/Lx + θ) sin(nπz) "
                     "over l ≤ 4Lx, n ≤ 4 with seeded a, θ; mode: b' = A cos(2πx/Lx) sin(πz)")
      .fallback("random");
  s.real("amplitude", "amplitude A of the initial buoyancy perturbation")
      .at_least(0)
      .fallback(three_d ? "1e-2" : "1e-3");
  s.integer("seed", "seed of the random perturbation").at_least(0).fallback("42");
  s.real("average_from", "start of the time-averaging window for summary.json")
      .at_least(0)
      .fallback("0");
  s.real("steady_tolerance",
         "stop early when |dNu/dt| (bottom plate) falls below this; 0: run to end_time")
      .at_least(0)
      .fallback("0");
  Schema pressure("The pressure Poisson equation: PETSc KSP (options prefix -pressure_) or FFTW.");
  pressure
      .choice("solver", {"ksp", "fft_tridiagonal"},
              three_d ? "ksp: PETSc KSP on the DMDA (fft_tridiagonal is 2D only)"
                      : "fft_tridiagonal: FFTW's real DFT in x and a tridiagonal (Thomas) solve "
                        "per mode in z, any stretching (the default: 0.13× the pressure time of "
                        "ksp at 512 × 128, bench/rayleigh_benard/pressure_solvers.sh); ksp: PETSc "
                        "KSP on the DMDA with the options below (the same discrete problem)")
      .fallback(three_d ? "ksp" : "fft_tridiagonal");
  pressure
      .string("ksp_type",
              "KSP type; \"auto\": preonly (a direct factorisation needs no iterations)")
      .fallback("auto");
  pressure
      .string("pc_type",
              "PC type; \"auto\": LU with nested-dissection ordering on one rank, the same LU "
              "redundantly "
              "on every rank on several (the fastest measured, docs/performance_rb.md); or gamg, "
              "hypre, ...")
      .fallback("auto");
  pressure.real("rtol", "relative residual tolerance (to the right-hand side)")
      .above(0)
      .fallback("1e-12");
  pressure
      .real("divergence_tolerance",
            "absolute tolerance: stop when max|∇·u| after the projection is below this times U/h")
      .above(0)
      .fallback("1e-11");
  pressure.string("options", "extra PETSc options, e.g. \"-pressure_pc_mg_levels 4\"")
      .fallback("\"\"");
  s.section("pressure", pressure, "pressure solver");
  return s;
}

}  // namespace surrox::solvers::rayleigh_benard

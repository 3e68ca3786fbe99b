#pragma once
// The cases of the restart matrix: every solver with restarts, on small grids, each stopped at
// steps of different kinds (noted per case) and restarted into its folder.
#include <string>
#include <vector>

#include "support/test_paths.hpp"

namespace surrox::testing {

struct RestartMatrixCase {
  std::string name;
  std::vector<std::string> run;  // "run CASE --set ...", without -o
  std::vector<long> stops;
  bool one_rank_only = false;  // the heat demo solver
};

inline std::vector<RestartMatrixCase> restart_matrix_cases() {
  auto run = [](const std::string& case_file, std::vector<std::string> sets) {
    std::vector<std::string> args = {"run", (source_dir() / "cases" / case_file).string(),
                                     "--log-level", "warn"};
    for (auto& s : sets) {
      args.push_back("--set");
      args.push_back(std::move(s));
    }
    return args;
  };
  const std::vector<std::string> airfoil_grid = {
      "solver.mesh.cells_around=64", "solver.max_iterations=45", "output.monitor_interval=5"};
  auto airfoil = [&](const std::string& file, std::vector<std::string> more) {
    std::vector<std::string> sets = airfoil_grid;
    sets.insert(sets.end(), more.begin(), more.end());
    return run("airfoil/" + file, sets);
  };
  const std::vector<std::string> md_small = {"solver.lattice.replicate=[5,5,5]",
                                             "solver.steps=60",
                                             "solver.thermo=10",
                                             "solver.neighbor.sort=20",
                                             "output.monitor_interval=10",
                                             "output.interval=0.05"};
  auto md = [&](const std::string& file, std::vector<std::string> more) {
    std::vector<std::string> sets = md_small;
    sets.insert(sets.end(), more.begin(), more.end());
    return run("md/" + file, sets);
  };
  return {
      // heat: two steps between outputs (outputs land on their times).
      {"heat",
       run("demo/heat.yaml", {"solver.grid.points=[33, 33]", "solver.end_time=0.02",
                              "output.interval=0.005", "output.hdf5=false"}),
       {4, 7},
       true},
      // qg: before and after the averaging window opens, between outputs; VTK and HDF5.
      {"qg",
       run("qg/double_gyre.yaml",
           {"solver.cells=[16, 32]", "solver.end_time=1", "solver.average_from=0.5",
            "output.interval=0.25", "output.vtk=true", "output.hdf5=true",
            "output.monitor_interval=5"}),
       {5, 13}},
      // rayleigh_benard 2D: early in the growth and at a monitor step; VTK and HDF5 outputs.
      {"rayleigh_benard",
       run("rayleigh_benard/onset.yaml",
           {"solver.rayleigh=5000", "solver.amplitude=0.1", "solver.cells=[16, 16]",
            "solver.end_time=3", "output.interval=0.5", "output.hdf5=true",
            "output.monitor_interval=5"}),
       {7, 20}},
      // rayleigh_benard 3D.
      {"rayleigh_benard_3d",
       run("rayleigh_benard/ra1e4_3d.yaml",
           {"solver.rayleigh=2e4", "solver.amplitude=0.3", "solver.cells=[8, 8, 6]",
            "solver.end_time=1", "solver.average_from=0.5", "output.hdf5=false"}),
       {6}},
      // airfoil: the end of the CFL ramp (10), a refactorisation of the line factors (20),
      // Anderson's history part-filled (27; Euler and laminar run it), mid-ramp for RANS.
      {"airfoil_euler",
       airfoil("naca0012_euler.yaml", {"solver.mesh.cells_normal=32"}),
       {10, 20, 27}},
      {"airfoil_laminar",
       airfoil("naca0012_laminar.yaml",
               {"solver.mesh.cells_normal=32", "solver.mesh.first_cell_height=1e-3"}),
       {10, 27}},
      {"airfoil_rans",
       airfoil("naca0012_rans.yaml",
               {"solver.mesh.cells_normal=48", "solver.mesh.first_cell_height=1e-4",
                "solver.mesh.farfield_radius=30"}),
       {10, 27}},
      // md: a sort step with a thermo row (20), a plain step (33); Langevin (the shipped NVT
      // case), Nosé–Hoover, NVE, and Stillinger–Weber silicon.
      {"md_langevin", md("lj_liquid_nvt.yaml", {}), {20, 33}},
      {"md_nose_hoover",
       md("lj_liquid_nvt.yaml", {"solver.integrator.style=nose_hoover"}),
       {20, 33}},
      {"md_nve", md("lj_benchmark.yaml", {}), {20, 33}},
      // Before the first thermo row after step 0, where the residual the monitor records is
      // still 0 (the fault test found a restart putting step 0's energy there).
      {"md_before_first_thermo_row", md("lj_liquid_nvt.yaml", {"solver.thermo=50"}), {20}},
      {"md_sw",
       run("md/si_sw.yaml", {"solver.steps=60", "solver.thermo=10", "solver.neighbor.sort=20",
                             "output.monitor_interval=10"}),
       {20, 33}},
  };
}

inline std::vector<RestartMatrixCase> restart_matrix_cases_on_ranks() {
  std::vector<RestartMatrixCase> out;
  for (auto& c : restart_matrix_cases())
    if (!c.one_rank_only) out.push_back(std::move(c));
  return out;
}

}  // namespace surrox::testing

#pragma once
// Helpers of the MD tests: building an MdSolver in-process from case text, reading the
// thermo table of a LAMMPS log, and finding lmp.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/md/md_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::md::test {

inline std::filesystem::path md_dir() { return testing::source_dir() / "tests/md"; }

// An initialized MdSolver for `solver:` YAML text (a flow map body) plus --set overrides.
inline std::unique_ptr<MdSolver> make_solver(const std::string& solver_yaml,
                                             const std::vector<std::string>& overrides = {}) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: md, " + solver_yaml + "}\n",
                         (md_dir() / "inline.yaml").string(), apps::run_case_schema(), overrides);
  auto solver = std::make_unique<MdSolver>();
  solver->initialize(c.root.section("solver"), testing::runtime());
  return solver;
}

// Rows of the LAMMPS thermo table "Step Temp PotEng KinEng TotEng Press" in a log file.
inline std::vector<ThermoRow> read_lammps_log(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<ThermoRow> rows;
  bool table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Step Temp PotEng KinEng TotEng Press", 0) == 0 ||
        line.find("Step Temp PotEng KinEng TotEng Press") != std::string::npos) {
      table = true;
      continue;
    }
    if (!table) continue;
    if (line.rfind("Loop time", 0) == 0) break;
    std::istringstream ls(line);
    ThermoRow r;
    if (ls >> r.step >> r.temp >> r.e_pair >> r.e_kin >> r.e_total >> r.press) rows.push_back(r);
  }
  return rows;
}

inline bool lammps_available() { return testing::run_command("which lmp > /dev/null") == 0; }

struct ParityError {
  double temp = 0, e_pair = 0, e_kin = 0, e_total = 0, press = 0;
  double worst() const { return std::max({temp, e_pair, e_kin, e_total, press}); }
};

inline double relative(double a, double b) {
  return std::fabs(a - b) / std::max(std::fabs(b), 1e-300);
}

// Runs `solver` to the end and compares its thermo with LAMMPS's rows at every LAMMPS step.
inline ParityError compare_with_lammps(MdSolver& solver, const std::vector<ThermoRow>& lammps) {
  ParityError e;
  std::size_t next = 0;
  auto check = [&] {
    while (next < lammps.size() && lammps[next].step < solver.step()) ++next;
    if (next < lammps.size() && lammps[next].step == solver.step()) {
      const ThermoRow s = solver.thermo(), &l = lammps[next];
      e.temp = std::max(e.temp, relative(s.temp, l.temp));
      e.e_pair = std::max(e.e_pair, relative(s.e_pair, l.e_pair));
      e.e_kin = std::max(e.e_kin, relative(s.e_kin, l.e_kin));
      e.e_total = std::max(e.e_total, relative(s.e_total, l.e_total));
      e.press = std::max(e.press, relative(s.press, l.press));
      ++next;
    }
  };
  check();
  while (!solver.finished()) {
    solver.advance();
    check();
  }
  EXPECT_EQ(next, lammps.size()) << "not every LAMMPS thermo row was compared";
  return e;
}

}  // namespace surrox::solvers::md::test

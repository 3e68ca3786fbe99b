#pragma once
// A coupler drives a solver and a surrogate together (a warm start; neural time steps, learned
// forces and super-resolution are further registry entries of the same shape). It gets the test
// cases already expanded and validated by the app (each a resolved `solver` section and the key
// paths that made it), runs them, writes what it wants into the output folder and reports its
// figures in `results` (summary.json "results"). Couplers come from a registry like solvers: a case
// file names one in `coupler: {type: NAME}`. Each coupler is registered by its surrogate family's
// registration call (families/); the registry is empty until then.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "core/runtime.hpp"

namespace surrox::couplers {

// One test case: its name (case_NNNN), the swept key paths that define it (key path → YAML
// text) and its validated solver section.
struct CoupledCase {
  std::string name;
  std::map<std::string, std::string> parameters;
  CaseNode solver;
};

class Coupler {
 public:
  virtual ~Coupler() = default;
  // `section` is the validated coupler section (its type's keys).
  virtual void run(Runtime& runtime, const CaseNode& section, const std::vector<CoupledCase>& cases,
                   const std::filesystem::path& output_dir, nlohmann::json& results) = 0;
};

using CouplerRegistry = Registry<Coupler>;
const CouplerRegistry& registry();
CouplerRegistry& coupler_registry();  // for families::FamilyRegistrar

}  // namespace surrox::couplers

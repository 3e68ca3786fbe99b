#pragma once
// A surrogate family: one kind of model with its own data, network and training loop (field
// surrogates on sweep datasets, deep potentials on MD frames, space-time super-resolution,
// emulators). `surrox train` picks the family from the config's top-level `family` key,
// `surrox evaluate` from the model file's metadata, so neither command grows an `if` over family
// names. A family's entry is registered by its one registration call (families/, see
// families/family_registrar.hpp); the registry is empty until then.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/registry.hpp"
#include "core/runtime.hpp"
#include "core/schema.hpp"
#include "io/case_file.hpp"

namespace surrox::training {

struct TrainRequest {
  const io::CaseFile& config;  // validated against the family's config schema
  Runtime& runtime;
  std::filesystem::path output_dir;             // only rank 0 writes
  std::optional<std::filesystem::path> resume;  // --resume CHECKPOINT
  long max_epochs = 0;                          // --max-epochs; 0: the config's epochs
  std::string config_path;
};

struct EvaluateRequest {
  std::filesystem::path model, data;  // surrox evaluate MODEL DATA
  Runtime& runtime;
  std::filesystem::path output_dir;  // where per-case tables or figures go (rank 0)
  long baseline_neighbours = 3;      // k of the field family's interpolation baseline
};

struct PredictRequest {
  std::filesystem::path model, data;  // surrox predict MODEL DATA
  Runtime& runtime;
  std::filesystem::path output_dir;  // where the prediction goes (rank 0)
  std::string family;                // the model's, from its metadata
  bool openfoam = false;             // --openfoam: also a copy of the OpenFOAM case DATA
};

// What `surrox predict` accepts, for the errors of families that do not predict.
inline constexpr const char* kPredictAccepts =
    "surrox predict takes a `field` model trained on a collection (VTK files or OpenFOAM case "
    "folders) and one case to apply it to: a VTK file, an OpenFOAM case folder, or a manifest "
    "listing one case (needed when the model takes parameters)";

class SurrogateFamily {
 public:
  virtual ~SurrogateFamily() = default;
  // Trains and writes model.pt (+ metrics.csv, checkpoint.pt, loss.png) into output_dir;
  // figures for summary.json go into `results`.
  virtual void train(const TrainRequest& request, nlohmann::json& results) = 0;
  // Measures a model of this family on a dataset; the figures go into `results`.
  virtual void evaluate(const EvaluateRequest& request, nlohmann::json& results) = 0;
  // Applies a model of this family to a new case and writes the prediction into output_dir;
  // what was written goes into `results`. Families without it refuse (InputError).
  virtual void predict(const PredictRequest& request, nlohmann::json& results);
};

// An entry's schema is the family's whole training config except the `family` key.
using FamilyRegistry = Registry<SurrogateFamily>;
const FamilyRegistry& surrogate_families();
FamilyRegistry& surrogate_family_registry();  // for families::FamilyRegistrar

inline constexpr const char* kDefaultFamily = "field";

// The `runtime` section every training config has (threads, log level).
Schema runtime_config_schema();
// A family's config schema with the `family` key, as `surrox train` validates it.
Schema train_config_schema(const std::string& family);
// The family a config selects (its top-level `family`, or a `--set family=` override);
// kDefaultFamily when absent. An unknown name is an InputError naming file, line and choices.
std::string config_family(const std::filesystem::path& config,
                          const std::vector<std::string>& overrides);

}  // namespace surrox::training

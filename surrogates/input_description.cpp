#include "surrogates/input_description.hpp"

#include "core/error.hpp"
#include "core/suggest.hpp"

namespace surrox::surrogates {
namespace {

void write(nlohmann::json& j, const PointInputs& d) { j["dimensions"] = d.dimensions; }
void write(nlohmann::json& j, const StructuredGridInputs& d) {
  j["cells"] = d.cells;
  j["samples"] = grid_samples_names().at(static_cast<std::size_t>(d.samples));
}
void write(nlohmann::json& j, const SpaceTimeCropInputs& d) { j["extent"] = d.extent; }
void write(nlohmann::json& j, const AtomicEnvironmentInputs& d) {
  j["cutoff"] = d.cutoff;
  j["max_neighbors"] = d.max_neighbors;
  j["species"] = d.species;
}
void write(nlohmann::json& j, const PodCoefficientInputs& d) {
  j["modes"] = d.modes;
  j["steps"] = d.steps;
}

// Readers in the order of the variant's alternatives.
InputDomain read(std::size_t kind, const nlohmann::json& j, const std::string& source) {
  switch (kind) {
    case 0:
      return PointInputs{j.at("dimensions").get<long>()};
    case 1:
      // Files before "samples" said it once per model ("layout", read by SurrogateMetadata).
      return StructuredGridInputs{
          j.at("cells").get<std::vector<long>>(),
          parse_grid_samples(j.value("samples", "row_per_cell"), source + ": samples")};
    case 2:
      return SpaceTimeCropInputs{j.at("extent").get<std::vector<long>>()};
    case 3:
      return AtomicEnvironmentInputs{j.at("cutoff").get<double>(),
                                     j.at("max_neighbors").get<long>(),
                                     j.at("species").get<std::vector<std::string>>()};
    default:
      return PodCoefficientInputs{j.at("modes").get<long>(), j.at("steps").get<long>()};
  }
}

}  // namespace

const std::vector<std::string>& input_kind_names() {
  static const std::vector<std::string> names = {"points", "structured_grid", "space_time_crops",
                                                 "atomic_environments", "pod_coefficients"};
  static_assert(std::variant_size_v<InputDomain> == 5, "a name per InputDomain alternative");
  return names;
}

const std::string& InputDescription::kind() const { return input_kind_names().at(domain.index()); }

nlohmann::json InputDescription::to_json() const {
  nlohmann::json j = {{"name", name}, {"kind", kind()}};
  std::visit([&j](const auto& d) { write(j, d); }, domain);
  return j;
}

InputDescription InputDescription::from_json(const nlohmann::json& j, const std::string& source) {
  const auto& names = input_kind_names();
  const std::string kind = j.at("kind").get<std::string>();
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == kind) return {j.at("name").get<std::string>(), read(k, j, source)};
  throw InputError(source + ": unknown input kind '" + kind + "'" + did_you_mean(kind, names) +
                   "; known: " + join(names));
}

InputDescription grid_cells_input(std::vector<long> cells, GridSamples samples) {
  return {"cells", StructuredGridInputs{std::move(cells), samples}};
}

const std::vector<std::string>& grid_samples_names() {
  static const std::vector<std::string> names = {"row_per_cell", "whole_grid"};
  return names;
}

GridSamples parse_grid_samples(const std::string& name, const std::string& what) {
  const auto& names = grid_samples_names();
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<GridSamples>(k);
  throw InputError(what + ": unknown grid sampling '" + name + "'" + did_you_mean(name, names) +
                   "; known: " + join(names));
}

bool takes_whole_grids(const std::vector<InputDescription>& inputs) {
  const auto* grid = find_input<StructuredGridInputs>(inputs);
  return grid && grid->samples == GridSamples::kWholeGrid;
}

}  // namespace surrox::surrogates

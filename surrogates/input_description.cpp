#include "surrogates/input_description.hpp"

#include "core/error.hpp"
#include "core/suggest.hpp"

namespace surrox::surrogates {
namespace {

void write(nlohmann::json& j, const PointInputs& d) { j["dimensions"] = d.dimensions; }
void write(nlohmann::json& j, const StructuredGridInputs& d) { j["cells"] = d.cells; }
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
InputDomain read(std::size_t kind, const nlohmann::json& j) {
  switch (kind) {
    case 0:
      return PointInputs{j.at("dimensions").get<long>()};
    case 1:
      return StructuredGridInputs{j.at("cells").get<std::vector<long>>()};
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
    if (names[k] == kind) return {j.at("name").get<std::string>(), read(k, j)};
  throw InputError(source + ": unknown input kind '" + kind + "'" + did_you_mean(kind, names) +
                   "; known: " + join(names));
}

InputDescription grid_cells_input(std::vector<long> cells) {
  return {"cells", StructuredGridInputs{std::move(cells)}};
}

}  // namespace surrox::surrogates

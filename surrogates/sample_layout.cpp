#include "surrogates/sample_layout.hpp"

#include "core/error.hpp"
#include "core/suggest.hpp"

namespace surrox::surrogates {

const std::vector<std::string>& sample_layout_names() {
  static const std::vector<std::string> names = {"points", "grid"};
  return names;
}

const std::string& to_string(SampleLayout layout) {
  return sample_layout_names().at(static_cast<std::size_t>(layout));
}

SampleLayout parse_sample_layout(const std::string& name, const std::string& what) {
  const auto& names = sample_layout_names();
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<SampleLayout>(k);
  throw InputError(what + ": unknown sample layout '" + name + "'" + did_you_mean(name, names) +
                   "; known: " + join(names));
}

}  // namespace surrox::surrogates

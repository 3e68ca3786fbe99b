#include "surrogates/output_scaling.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace surrox::surrogates {
namespace {

long index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<long>(it - names.begin());
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(' '), last = s.find_last_not_of(' ');
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

// The output channels an entry's OUTPUT names: itself, or a vector's components.
std::vector<long> outputs_named(const std::string& name, const std::vector<std::string>& names) {
  std::vector<long> found;
  if (const long k = index_of(names, name); k >= 0) return {k};
  for (long k = 0; k < static_cast<long>(names.size()); ++k)
    if (names[static_cast<std::size_t>(k)].rfind(name + "[", 0) == 0) found.push_back(k);
  return found;
}

}  // namespace

torch::Tensor OutputScaling::divisors(const torch::Tensor& inputs, long outputs) const {
  const auto physical = inputs.to(torch::kFloat64);
  std::vector<torch::Tensor> columns(static_cast<std::size_t>(outputs));
  for (const Factor& f : factors) {
    const torch::Tensor term = physical.select(1, f.input).pow(f.power);
    auto& column = columns[static_cast<std::size_t>(f.output)];
    column = column.defined() ? column * term : term;
  }
  const torch::Tensor one = torch::ones_like(physical.select(1, 0));
  for (auto& column : columns)
    if (!column.defined()) column = one;
  const torch::Tensor d = torch::stack(columns, 1);
  if (d.numel() > 0 && !(d.isfinite().all().item<bool>() && (d > 0).all().item<bool>()))
    throw InputError(
        "output scaling: a divisor is not positive and finite on some rows (its input channel "
        "holds 0, a negative value or NaN there)");
  return d;
}

torch::Tensor OutputScaling::to_scaled(const torch::Tensor& outputs,
                                       const torch::Tensor& inputs) const {
  if (empty()) return outputs;
  return (outputs.to(torch::kFloat64) / divisors(inputs, outputs.size(1))).to(outputs.dtype());
}

torch::Tensor OutputScaling::to_physical(const torch::Tensor& scaled,
                                         const torch::Tensor& inputs) const {
  if (empty()) return scaled;
  return (scaled.to(torch::kFloat64) * divisors(inputs, scaled.size(1))).to(scaled.dtype());
}

nlohmann::json OutputScaling::to_json(const std::vector<std::string>& input_names,
                                      const std::vector<std::string>& output_names) const {
  nlohmann::json j = nlohmann::json::array();
  for (const Factor& f : factors)
    j.push_back({{"output", output_names.at(static_cast<std::size_t>(f.output))},
                 {"input", input_names.at(static_cast<std::size_t>(f.input))},
                 {"power", f.power}});
  return j;
}

OutputScaling OutputScaling::from_json(const nlohmann::json& j,
                                       const std::vector<std::string>& input_names,
                                       const std::vector<std::string>& output_names,
                                       const std::string& source) {
  OutputScaling s;
  for (const auto& entry : j) {
    Factor f;
    f.output = index_of(output_names, entry.at("output").get<std::string>());
    f.input = index_of(input_names, entry.at("input").get<std::string>());
    f.power = entry.at("power").get<double>();
    if (f.output < 0 || f.input < 0)
      throw InputError(source + ": output_scaling names a channel the model does not have (" +
                       entry.dump() + ")");
    s.factors.push_back(f);
  }
  return s;
}

OutputScaling parse_output_scaling(const std::vector<std::string>& entries,
                                   const std::vector<std::string>& input_names,
                                   const std::vector<std::string>& output_names) {
  OutputScaling s;
  for (const std::string& entry : entries) {
    const auto slash = entry.find('/');
    const std::string output = trimmed(entry.substr(0, slash));
    const std::vector<long> outputs =
        slash == std::string::npos ? std::vector<long>{} : outputs_named(output, output_names);
    if (outputs.empty())
      throw InputError(
          fmt::format("'{}' must read OUTPUT/INPUT[^POWER][*INPUT...] with OUTPUT one of the "
                      "outputs ({})",
                      entry, fmt::join(output_names, ", ")));
    std::string rest = entry.substr(slash + 1);
    for (std::size_t start = 0; start <= rest.size();) {
      const std::size_t star = std::min(rest.find('*', start), rest.size());
      const std::string term = trimmed(rest.substr(start, star - start));
      const auto caret = term.find('^');
      const std::string input = trimmed(term.substr(0, caret));
      double power = 1;
      if (caret != std::string::npos) {
        try {
          std::size_t used = 0;
          power = std::stod(term.substr(caret + 1), &used);
          if (trimmed(term.substr(caret + 1 + used)) != "") throw std::invalid_argument("tail");
        } catch (const std::exception&) {
          throw InputError(fmt::format("'{}': the power in '{}' is not a number", entry, term));
        }
      }
      const long k = index_of(input_names, input);
      if (k < 0)
        throw InputError(fmt::format("'{}': '{}' is not an input channel; the inputs are {}", entry,
                                     input, fmt::join(input_names, ", ")));
      for (long o : outputs) s.factors.push_back({o, k, power});
      start = star + 1;
    }
  }
  return s;
}

}  // namespace surrox::surrogates

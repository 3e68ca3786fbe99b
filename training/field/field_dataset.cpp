#include "training/field/field_dataset.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <regex>

#include "core/error.hpp"
#include "io/hdf5_sweep.hpp"
#include "surrogates/grid_channels.hpp"
#include "training/field/field_output_scaling.hpp"

namespace surrox::training {
namespace {

// "velocity[1]" → {velocity, 1}; "pressure" → {pressure, -1} (every component).
struct ChannelSpec {
  std::string field;
  long component = -1;
};

ChannelSpec parse_channel(const std::string& text, const CaseNode& section,
                          const std::string& key) {
  static const std::regex pattern(R"(^([A-Za-z_][A-Za-z0-9_.]*)(\[([0-9]+)\])?$)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern))
    section.fail(key, "'" + text + "' is not a field name or field[component]");
  return {m[1], m[3].matched ? std::stol(m[3]) : -1};
}

// Cell centroids of a structured 2D grid from its points (VTK order, i fastest).
std::pair<std::vector<double>, std::vector<double>> centroids(const io::HostArray& points, long ni,
                                                              long nj) {
  std::vector<double> cx(ni * nj), cy(ni * nj);
  const long np = ni + 1;
  for (long j = 0; j < nj; ++j)
    for (long i = 0; i < ni; ++i) {
      const long corners[4] = {i + np * j, i + 1 + np * j, i + 1 + np * (j + 1), i + np * (j + 1)};
      double x = 0, y = 0;
      for (long c : corners) x += points(c, 0), y += points(c, 1);
      cx[i + ni * j] = x / 4;
      cy[i + ni * j] = y / 4;
    }
  return {cx, cy};
}

// Per-case channels [C, cells] for a list of channel names.
class ChannelReader {
 public:
  ChannelReader(const io::SweepDatasetReader& reader, const CaseNode& section, long ni, long nj)
      : reader_(reader), section_(section), ni_(ni), nj_(nj) {
    for (const auto& f : reader.fields()) fields_[f.name] = f;
    for (const auto& name : reader.parameter_names()) scalars_.emplace(name, std::vector<double>());
    for (const auto& name : reader.result_names()) scalars_.emplace(name, std::vector<double>());
  }

  // Names of the channels a spec list expands to ("velocity" with 3 components → velocity[0..2]).
  std::vector<std::string> expand(const std::vector<std::string>& specs,
                                  const std::string& key) const {
    std::vector<std::string> names;
    for (const auto& text : specs) {
      const ChannelSpec spec = parse_channel(text, section_, key);
      if (spec.field == "centroid_x" || spec.field == "centroid_y" ||
          surrogates::grid_index_channel(spec.field) >= 0) {
        names.push_back(spec.field);
        continue;
      }
      auto f = fields_.find(spec.field);
      if (f == fields_.end())
        section_.fail(key,
                      "the dataset " + reader_path() + " has no field '" + spec.field +
                          "'; it has: " + known_fields() + ", centroid_x, centroid_y, " +
                          fmt::format("{}", fmt::join(surrogates::grid_index_channels(), ", ")));
      if (f->second.on != io::FieldSpec::On::kCells)
        section_.fail(
            key, "'" + spec.field + "' is a point field; only cell fields are per-cell channels");
      const long components = static_cast<long>(f->second.components);
      if (spec.component >= components)
        section_.fail(key, fmt::format("'{}' has {} components; component {} does not exist",
                                       spec.field, components, spec.component));
      if (spec.component >= 0 || components == 1) {
        names.push_back(components == 1 ? spec.field : text);
      } else {
        for (long c = 0; c < components; ++c) names.push_back(fmt::format("{}[{}]", spec.field, c));
      }
    }
    return names;
  }

  void check_scalar(const std::string& name, const std::string& key) const {
    if (!scalars_.count(name)) {
      std::string known;
      for (const auto& [n, v] : scalars_) known += (known.empty() ? "" : ", ") + n;
      section_.fail(key, "the dataset " + reader_path() + " has no parameter or result '" + name +
                             "'; it has: " + known);
    }
  }

  // One case's channels as a [C, cells] float64 tensor.
  torch::Tensor read(const std::vector<std::string>& channels,
                     const std::vector<std::string>& parameters, std::size_t index) {
    const long cells = ni_ * nj_;
    auto out = torch::empty({static_cast<long>(channels.size() + parameters.size()), cells},
                            torch::kFloat64);
    std::map<std::string, io::HostArray> cache;
    std::vector<double> cx, cy;
    for (std::size_t c = 0; c < channels.size(); ++c) {
      const ChannelSpec spec = parse_channel(channels[c], section_, "inputs");
      double* row = out[static_cast<long>(c)].data_ptr<double>();
      if (spec.field == "centroid_x" || spec.field == "centroid_y") {
        if (cx.empty()) std::tie(cx, cy) = centroids(reader_.points(index), ni_, nj_);
        const auto& v = spec.field == "centroid_x" ? cx : cy;
        std::copy(v.begin(), v.end(), row);
        continue;
      }
      if (const int g = surrogates::grid_index_channel(spec.field); g >= 0) {
        for (long j = 0; j < nj_; ++j)
          for (long i = 0; i < ni_; ++i)
            row[i + ni_ * j] = surrogates::grid_index_value(g, i, j, ni_, nj_);
        continue;
      }
      auto it = cache.find(spec.field);
      if (it == cache.end()) it = cache.emplace(spec.field, reader_.read(spec.field, index)).first;
      const io::HostArray& values = it->second;
      if (static_cast<long>(values.extent(0)) != cells)
        throw InputError(fmt::format("{}: field '{}' holds {} cells, the grid has {}",
                                     reader_path(), spec.field, values.extent(0), cells));
      const long k = std::max(0L, spec.component);
      for (long p = 0; p < cells; ++p) row[p] = values(p, k);
    }
    for (std::size_t q = 0; q < parameters.size(); ++q) {
      auto& values = scalars_.at(parameters[q]);
      if (values.empty()) values = scalar_values(parameters[q]);
      out[static_cast<long>(channels.size() + q)].fill_(values[index]);
    }
    return out;
  }

 private:
  std::vector<double> scalar_values(const std::string& name) const {
    const auto params = reader_.parameter_names();
    if (std::find(params.begin(), params.end(), name) != params.end()) {
      try {
        return reader_.parameter(name);
      } catch (const InputError&) {
        section_.fail("parameters", "parameter '" + name +
                                        "' holds text (e.g. airfoil names), not numbers; use a "
                                        "numeric result the solver reports instead");
      }
    }
    return reader_.result(name);
  }
  std::string reader_path() const { return section_.string("path"); }
  std::string known_fields() const {
    std::string known;
    for (const auto& [n, f] : fields_) known += (known.empty() ? "" : ", ") + n;
    return known;
  }

  const io::SweepDatasetReader& reader_;
  const CaseNode& section_;
  long ni_, nj_;
  std::map<std::string, io::FieldSpec> fields_;
  std::map<std::string, std::vector<double>> scalars_;
};

Normalization statistics(const torch::Tensor& rows_channels,
                         const std::vector<std::string>& names) {
  // rows_channels: [rows, C, ...]; statistics per channel over everything else.
  const auto flat = rows_channels.transpose(0, 1).reshape({rows_channels.size(1), -1});
  Normalization n;
  n.names = names;
  const auto mean = flat.mean(1), std = flat.std(1, /*unbiased=*/false);
  for (long c = 0; c < flat.size(0); ++c) {
    n.mean.push_back(mean[c].item<double>());
    const double s = std[c].item<double>();
    n.scale.push_back(s > 1e-12 * std::max(1.0, std::abs(n.mean.back()))
                          ? s
                          : 1.0);  // constant channels stay put
  }
  return n;
}

}  // namespace

Schema FieldDataset::schema() {
  Schema s(
      "Training data from a sweep dataset: which fields are inputs and outputs, and how cases are split.");
  s.input_path("path",
               "the sweep dataset (surrox-sweep HDF5, written by a case with a sweep section)");
  s.strings(
       "inputs",
       "per-cell input channels: cell fields (name or name[component]), centroid_x, centroid_y, and "
       "the cell's place in the grid: grid_i_cos, grid_i_sin (angle 2π(i + ½)/ni around the "
       "periodic direction), grid_j ((j + ½)/nj from the wall)")
      .fallback("[centroid_x, centroid_y]");
  s.strings("parameters",
            "swept parameters or solver results broadcast to every cell as inputs "
            "(e.g. solver.alpha_deg, solver.mach)")
      .fallback("[]");
  s.strings("outputs", "per-cell output channels (cell fields, name or name[component])");
  add_scale_outputs_key(s);
  s.string("weight",
           "cell field whose values weight each cell's loss (e.g. the cell area); empty: none")
      .fallback("\"\"");
  s.reals("split", "fractions of cases (or groups) for training, validation and test")
      .sized(3)
      .fallback("[0.7, 0.15, 0.15]");
  s.strings("group_by",
            "keep cases that share these parameters in one split (e.g. the airfoil, so test "
            "airfoils are never seen in training)")
      .fallback("[]");
  s.integer("seed", "seeds the split").at_least(0).fallback("1");
  s.choice("dtype", {"float32", "float64"}, "tensor precision").fallback("float32");
  s.boolean("include_unconverged",
            "keep cases whose steady solver stopped at its iteration limit without "
            "converging (the dataset's `converged` result is 0); by default they are left out")
      .fallback("false");
  return s;
}

namespace {

// A trained model's statistics: every case goes to `test`, normalised with them.
struct ModelStatistics {
  const Normalization& inputs;
  const Normalization& outputs;
};

// The channel names the section asks for, expanded (fails on one the dataset lacks).
struct SweepChannelNames {
  std::vector<std::string> inputs, outputs, parameters;
  std::string weight;
};

SweepChannelNames sweep_channel_names(const CaseNode& c, const ChannelReader& channels) {
  SweepChannelNames n;
  n.inputs = channels.expand(c.strings("inputs"), "inputs");
  n.outputs = channels.expand(c.strings("outputs"), "outputs");
  if (n.outputs.empty()) c.fail("outputs", "needs at least one output channel");
  n.parameters = c.strings("parameters");
  for (const auto& p : n.parameters) channels.check_scalar(p, "parameters");
  n.weight = c.string("weight");
  if (!n.weight.empty()) channels.expand({n.weight}, "weight");
  return n;
}

// Groups of cases that must stay together, shuffled (the split cuts this order by the
// fractions). Unconverged cases are listed in data, and left out unless the section keeps them.
std::vector<std::vector<std::size_t>> sweep_case_groups(const CaseNode& c,
                                                        const io::SweepDatasetReader& reader,
                                                        const ChannelReader& channels,
                                                        const std::vector<std::string>& names,
                                                        std::size_t cases, FieldDataset& data) {
  std::map<std::string, std::vector<std::size_t>> groups;
  std::vector<std::vector<std::string>> group_values;
  for (const auto& g : c.strings("group_by")) {
    channels.check_scalar(g, "group_by");
    group_values.push_back(reader.parameter_text(g));
  }
  // A case its steady solver left unconverged would teach the network a field nobody wants.
  const auto results = reader.result_names();
  const bool has_converged =
      std::find(results.begin(), results.end(), "converged") != results.end();
  const std::vector<double> converged =
      has_converged ? reader.result("converged") : std::vector<double>(cases, 1.0);
  const bool include_unconverged = c.boolean("include_unconverged");
  for (std::size_t k = 0; k < cases; ++k) {
    if (converged[k] == 0.0) {
      (include_unconverged ? data.unconverged_cases_kept : data.unconverged_cases_left_out)
          .push_back(names[k]);
      if (!include_unconverged) continue;
    }
    std::string key = group_values.empty() ? names[k] : "";
    for (const auto& v : group_values) key += v[k] + "\x1f";
    groups[key].push_back(k);
  }
  return shuffled_case_groups(groups, static_cast<std::uint64_t>(c.integer("seed")));
}

// The cases of groups [first, last) as [cases, C, cells] tensors (float64, not normalised);
// their names are appended to case_names.
TensorSet assemble_sweep_cases(ChannelReader& channels, const SweepChannelNames& n,
                               const std::vector<std::vector<std::size_t>>& order,
                               const std::vector<std::string>& names, std::size_t first,
                               std::size_t last, std::vector<std::string>& case_names) {
  std::vector<torch::Tensor> xs, ys, ws;
  for (std::size_t gi = first; gi < last; ++gi)
    for (std::size_t k : order[gi]) {
      case_names.push_back(names[k]);
      xs.push_back(channels.read(n.inputs, n.parameters, k));
      ys.push_back(channels.read(n.outputs, {}, k));
      if (!n.weight.empty()) ws.push_back(channels.read({n.weight}, {}, k)[0]);
    }
  TensorSet set;
  if (xs.empty()) {
    const long cin = static_cast<long>(n.inputs.size() + n.parameters.size());
    set.inputs = torch::empty({0, cin}, torch::kFloat64);
    set.targets = torch::empty({0, static_cast<long>(n.outputs.size())}, torch::kFloat64);
    if (!n.weight.empty()) set.weights = torch::empty({0}, torch::kFloat64);
    return set;
  }
  set.inputs = torch::stack(xs);  // [cases, C, cells]
  set.targets = torch::stack(ys);
  if (!n.weight.empty()) set.weights = torch::stack(ws);  // [cases, cells]
  return set;
}

// The normalisation: a trained model's (which must read and predict these channels), else the
// training cases' statistics.
void set_sweep_normalisation(const CaseNode& c, const ModelStatistics* model,
                             const TensorSet& train, const SweepChannelNames& n,
                             FieldDataset& data) {
  std::vector<std::string> all_inputs = n.inputs;
  all_inputs.insert(all_inputs.end(), n.parameters.begin(), n.parameters.end());
  if (model) {
    if (model->inputs.names != all_inputs || model->outputs.names != n.outputs)
      c.fail("path", fmt::format("the model reads [{}] and predicts [{}]; this dataset gives "
                                 "[{}] and [{}]",
                                 fmt::join(model->inputs.names, ", "),
                                 fmt::join(model->outputs.names, ", "), fmt::join(all_inputs, ", "),
                                 fmt::join(n.outputs, ", ")));
    data.inputs = model->inputs;
    data.outputs = model->outputs;
  } else {
    data.inputs = statistics(train.inputs, all_inputs);
    data.outputs = statistics(train.targets, n.outputs);
  }
}

// The mean of the weights the loss is divided by (1 without weights); fails on one that is
// not positive.
double sweep_mean_weight(const CaseNode& c, const TensorSet& weighted, const std::string& weight) {
  const double mean_weight = weighted.weights.defined() && weighted.rows() > 0
                                 ? weighted.weights.mean().item<double>()
                                 : 1.0;
  if (weighted.weights.defined() && !(mean_weight > 0))
    c.fail("weight",
           "the weight field '" + weight + "' has no positive mean on the training cases");
  return mean_weight;
}

// Normalises a set and lays it out for the network: [cases, C, nj, ni] for a grid, else
// [cases·cells, C]; then to the section's dtype.
void finish_sweep_set(TensorSet& set, const FieldDataset& data, double mean_weight, long ni,
                      long nj, torch::Dtype dtype) {
  if (set.rows() > 0 && set.inputs.dim() == 3) {
    set.inputs = data.inputs.apply(set.inputs);
    set.targets = data.outputs.apply(set.targets);
    if (set.weights.defined()) set.weights = set.weights / mean_weight;
    if (surrogates::takes_whole_grids(data.input_domains)) {
      set.inputs = set.inputs.reshape({set.inputs.size(0), set.inputs.size(1), nj, ni});
      set.targets = set.targets.reshape({set.targets.size(0), set.targets.size(1), nj, ni});
      if (set.weights.defined()) set.weights = set.weights.reshape({set.weights.size(0), nj, ni});
    } else {
      // [cases, C, cells] → [cases·cells, C]
      set.inputs = set.inputs.permute({0, 2, 1}).reshape({-1, set.inputs.size(1)});
      set.targets = set.targets.permute({0, 2, 1}).reshape({-1, set.targets.size(1)});
      if (set.weights.defined()) set.weights = set.weights.reshape({-1});
    }
  }
  set.inputs = set.inputs.to(dtype).contiguous();
  set.targets = set.targets.to(dtype).contiguous();
  if (set.weights.defined()) set.weights = set.weights.to(dtype).contiguous();
}

FieldDataset load_field_dataset(const CaseNode& c, surrogates::GridSamples samples,
                                const ModelStatistics* model) {
  const auto split = c.reals("split");
  if (std::abs(split[0] + split[1] + split[2] - 1) > 1e-9 ||
      *std::min_element(split.begin(), split.end()) < 0)
    c.fail("split", "the three fractions must be non-negative and sum to 1");
  const io::SweepDatasetReader reader(c.string("path"));
  if (reader.kind() != io::MeshKind::kStructured)
    c.fail("path",
           "training datasets need a structured grid (the airfoil solver's); this sweep has a " +
               io::to_string(reader.kind()) + " mesh");
  const auto dims = reader.dimensions();
  FieldDataset data;
  const long ni = dims[0] - 1, nj = dims[1] - 1;
  data.input_domains = {surrogates::grid_cells_input({ni, nj}, samples)};
  ChannelReader channels(reader, c, ni, nj);
  const SweepChannelNames channel_names = sweep_channel_names(c, channels);

  const std::size_t cases = reader.cases();
  const auto names = reader.case_names();
  const auto order = sweep_case_groups(c, reader, channels, names, cases, data);
  const std::size_t g = order.size();
  const std::size_t n_train =
      model ? 0 : static_cast<std::size_t>(std::lround(split[0] * static_cast<double>(g)));
  const std::size_t n_valid =
      model ? 0
            : std::min(g - n_train,
                       static_cast<std::size_t>(std::lround(split[1] * static_cast<double>(g))));
  if (g == 0)
    c.fail("include_unconverged",
           fmt::format("all {} cases of {} are unconverged; rerun the sweep with a "
                       "higher max_iterations or set include_unconverged: true",
                       cases, c.string("path")));
  if (n_train == 0 && !model)
    c.fail(
        "split",
        fmt::format("the training split is empty: {} case group(s) and a training fraction of {}",
                    g, split[0]));

  const auto dtype = c.string("dtype") == "float64" ? torch::kFloat64 : torch::kFloat32;
  TensorSet train =
      assemble_sweep_cases(channels, channel_names, order, names, 0, n_train, data.train_cases);
  TensorSet valid = assemble_sweep_cases(channels, channel_names, order, names, n_train,
                                         n_train + n_valid, data.validation_cases);
  TensorSet test = assemble_sweep_cases(channels, channel_names, order, names, n_train + n_valid, g,
                                        data.test_cases);

  std::vector<std::string> all_inputs = channel_names.inputs;
  all_inputs.insert(all_inputs.end(), channel_names.parameters.begin(),
                    channel_names.parameters.end());
  data.output_scaling = output_scaling_of(c, all_inputs, channel_names.outputs);
  for (TensorSet* set : {&train, &valid, &test}) scale_targets(c, *set, data.output_scaling);
  set_sweep_normalisation(c, model, train, channel_names, data);
  const double mean_weight = sweep_mean_weight(c, model ? test : train, channel_names.weight);
  finish_sweep_set(train, data, mean_weight, ni, nj, dtype);
  finish_sweep_set(valid, data, mean_weight, ni, nj, dtype);
  finish_sweep_set(test, data, mean_weight, ni, nj, dtype);
  data.train = std::move(train);
  data.validation = std::move(valid);
  data.test = std::move(test);
  return data;
}

}  // namespace

torch::Tensor FieldDataset::physical_targets(const TensorSet& set) const {
  return output_scaling.to_physical(outputs.invert(set.targets), inputs.invert(set.inputs));
}

FieldDataset FieldDataset::load(const CaseNode& section, surrogates::GridSamples samples) {
  return load_field_dataset(section, samples, nullptr);
}

FieldDataset FieldDataset::load_all(const CaseNode& section, surrogates::GridSamples samples,
                                    const Normalization& inputs, const Normalization& outputs) {
  const ModelStatistics model{inputs, outputs};
  return load_field_dataset(section, samples, &model);
}

std::vector<std::vector<std::size_t>> shuffled_case_groups(
    const std::map<std::string, std::vector<std::size_t>>& groups, std::uint64_t seed) {
  std::vector<std::vector<std::size_t>> order;
  for (const auto& [key, members] : groups) order.push_back(members);
  std::mt19937_64 engine(seed);
  for (std::size_t i = order.size(); i > 1; --i) {
    std::uniform_int_distribution<std::size_t> pick(0, i - 1);
    std::swap(order[i - 1], order[pick(engine)]);
  }
  return order;
}

}  // namespace surrox::training

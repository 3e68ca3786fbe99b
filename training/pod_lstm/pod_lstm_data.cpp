#include "training/pod_lstm/pod_lstm_data.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"

namespace surrox::training::pod_lstm {

Snapshots read_snapshots(const std::filesystem::path& path, const std::string& field) {
  const io::Hdf5DatasetReader reader(path);
  std::vector<std::string> names;
  bool found = false;
  for (const auto& f : reader.fields()) {
    names.push_back(f.name);
    if (f.name == field) {
      found = true;
      if (f.components != 1)
        throw InputError(
            fmt::format("{}: field '{}' has {} components; the emulator takes a "
                        "scalar field",
                        path.string(), field, f.components));
    }
  }
  if (!found)
    throw InputError(
        fmt::format("{}: no field '{}'; it has: {}", path.string(), field, fmt::join(names, ", ")));
  Snapshots s;
  s.path = path;
  s.field = field;
  s.times = reader.times();
  const long steps = static_cast<long>(s.times.size());
  if (steps == 0) throw InputError(path.string() + ": the dataset holds no time steps");
  std::vector<torch::Tensor> rows;
  for (long t = 0; t < steps; ++t) {
    const io::HostArray a = reader.read(field, static_cast<std::size_t>(t));
    rows.push_back(
        torch::from_blob(a.data(), {static_cast<long>(a.extent(0))}, torch::kFloat64).clone());
  }
  s.values = torch::stack(rows);
  return s;
}

TimeSplit TimeSplit::from_fractions(long steps, double train, double validation) {
  TimeSplit s;
  s.steps = steps;
  s.train_end = static_cast<long>(std::floor(train * double(steps) + 1e-9));
  s.validation_end = std::min(
      steps, s.train_end + static_cast<long>(std::floor(validation * double(steps) + 1e-9)));
  return s;
}

std::vector<long> window_starts(long begin, long end, long input, long output) {
  std::vector<long> starts;
  for (long s = begin; s + input + output <= end; ++s) starts.push_back(s);
  return starts;
}

Windows make_windows(const torch::Tensor& coefficients, const std::vector<long>& starts, long input,
                     long output) {
  Windows w;
  if (starts.empty()) return w;
  std::vector<torch::Tensor> in, out;
  for (const long s : starts) {
    in.push_back(coefficients.slice(0, s, s + input).reshape({-1}));
    out.push_back(coefficients.slice(0, s + input, s + input + output).reshape({-1}));
  }
  w.inputs = torch::stack(in);
  w.targets = torch::stack(out);
  return w;
}

Scaling Scaling::fit(const torch::Tensor& coefficients, long begin, long end) {
  if (end - begin < 2) throw InputError("the training part needs at least 2 snapshots");
  const torch::Tensor part = coefficients.slice(0, begin, end).to(torch::kFloat64);
  Scaling s;
  s.mean = part.mean(0);
  s.std = part.std(0).clamp_min(1e-12);
  return s;
}

torch::Tensor Scaling::apply(const torch::Tensor& a) const {
  const long n = mean.size(0), last = a.size(-1);
  const auto o = a.options();
  return (a - mean.to(o).repeat({last / n})) / std.to(o).repeat({last / n});
}

torch::Tensor Scaling::undo(const torch::Tensor& a) const {
  const long n = mean.size(0), last = a.size(-1);
  const auto o = a.options();
  return a * std.to(o).repeat({last / n}) + mean.to(o).repeat({last / n});
}

}  // namespace surrox::training::pod_lstm

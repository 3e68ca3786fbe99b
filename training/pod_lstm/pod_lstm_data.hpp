#pragma once
// The data side of the POD-LSTM emulator: snapshots of one field of a surrox dataset (the QG
// emulation dataset, docs/formats.md), a split in time into training, validation and test
// parts, forecast windows that never straddle a split boundary, and the per-mode scaling
// fitted on the training part only.
#include <torch/torch.h>

#include <filesystem>
#include <string>
#include <vector>

namespace surrox::training::pod_lstm {

// One field of a dataset at every stored time: values [T, n] (float64), times [T].
struct Snapshots {
  std::filesystem::path path;
  std::string field;
  torch::Tensor values;
  std::vector<double> times;
  long steps() const { return values.size(0); }
};

// InputError naming the file for a missing field or a dataset that is not a surrox dataset.
Snapshots read_snapshots(const std::filesystem::path& path, const std::string& field);

// Contiguous parts of the time axis: [0, train_end), [train_end, validation_end),
// [validation_end, steps).
struct TimeSplit {
  long steps = 0, train_end = 0, validation_end = 0;
  // train/validation fractions of `steps` (the test part is the rest), rounded down.
  static TimeSplit from_fractions(long steps, double train, double validation);
  long train_begin() const { return 0; }
  long test_begin() const { return validation_end; }
};

// Windows of `input` steps followed by `output` steps whose every index lies in [begin, end):
// the first index of each window, stride 1. Empty when the part is shorter than one window.
std::vector<long> window_starts(long begin, long end, long input, long output);

// Windows of coefficients [T, N] at `starts`: inputs [W, input · N], targets [W, output · N].
struct Windows {
  torch::Tensor inputs, targets;
  long count() const { return inputs.defined() ? inputs.size(0) : 0; }
};
Windows make_windows(const torch::Tensor& coefficients, const std::vector<long>& starts, long input,
                     long output);

// Per-mode standardisation of coefficients [T, N]: (a − mean)/std.
struct Scaling {
  torch::Tensor mean, std;  // [N], float64
  // Fitted on rows [begin, end) only.
  static Scaling fit(const torch::Tensor& coefficients, long begin, long end);
  // Apply to / undo on any tensor whose last axis is N or a multiple of N (flattened windows).
  torch::Tensor apply(const torch::Tensor& a) const;
  torch::Tensor undo(const torch::Tensor& a) const;
};

}  // namespace surrox::training::pod_lstm

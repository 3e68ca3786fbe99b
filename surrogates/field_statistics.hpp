#pragma once
// Summary statistics of a solver's fields (min, max, mean, RMS), computed by LibTorch on
// zero-copy tensors of the state: the run command's use of the Kokkos↔torch bridge until
// the surrogates and couplers arrive. Torch-free header so apps/ need not pull in torch.
#include <nlohmann/json.hpp>

#include "core/field_set.hpp"

namespace surrox::surrogates {

// {"u": {"min": ..., "max": ..., "mean": ..., "rms": ..., "shape": [...], "zero_copy": true}, ...}
nlohmann::json field_statistics(const FieldSet& fields);

}  // namespace surrox::surrogates

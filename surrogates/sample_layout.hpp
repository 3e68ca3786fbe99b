#pragma once
// How a network's samples are shaped, which training data and inference must agree on:
//   points  a row per point, inputs [rows, C] (per-point networks);
//   grid    a row per case, inputs [cases, C, nj, ni] on a structured grid in VTK order (i
//   fastest).
// Saved by name in a model's metadata. A new family's layout (space-time crops, atomic
// environments, coefficient sequences) is one more enumerator and name here.
#include <string>
#include <vector>

namespace surrox::surrogates {

enum class SampleLayout { kPoints, kGrid };

// The valid names, in enumerator order.
const std::vector<std::string>& sample_layout_names();
const std::string& to_string(SampleLayout layout);
// InputError listing the valid names when `name` is not one; `what` says where it came from.
SampleLayout parse_sample_layout(const std::string& name, const std::string& what = "layout");

}  // namespace surrox::surrogates

#include "surrogates/field_statistics.hpp"

#include "surrogates/tensor_bridge.hpp"

namespace surrox::surrogates {

nlohmann::json field_statistics(const FieldSet& fields) {
  nlohmann::json out = nlohmann::json::object();
  torch::NoGradGuard no_grad;
  for (const auto& [name, view] : fields.fields) {
    const torch::Tensor t = as_tensor(view);
    nlohmann::json s;
    s["shape"] = t.sizes().vec();
    s["unit"] = fields.units.count(name) ? fields.units.at(name) : "1";
    // Same address: the statistics read the solver's memory, not a copy of it.
    s["zero_copy"] = t.data_ptr() == static_cast<const void*>(view.data());
    if (t.numel() > 0) {
      s["min"] = t.min().item<double>();
      s["max"] = t.max().item<double>();
      s["mean"] = t.mean().item<double>();
      s["rms"] = t.square().mean().sqrt().item<double>();
    }
    out[name] = s;
  }
  return out;
}

}  // namespace surrox::surrogates

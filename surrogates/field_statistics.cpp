#include "surrogates/field_statistics.hpp"

#include <cmath>
#include <limits>

#include "surrogates/tensor_bridge.hpp"

namespace surrox::surrogates {

nlohmann::json field_statistics(const FieldSet& fields, MPI_Comm comm) {
  nlohmann::json out = nlohmann::json::object();
  torch::NoGradGuard no_grad;
  for (const auto& [name, view] : fields.fields) {
    const torch::Tensor t = as_tensor(view);
    nlohmann::json s;
    s["shape"] = t.sizes().vec();
    s["unit"] = fields.units.count(name) ? fields.units.at(name) : "1";
    // Same address: the statistics read the solver's memory, not a copy of it.
    s["zero_copy"] = t.data_ptr() == static_cast<const void*>(view.data());
    // Local extremes and sums, then one reduction each over the ranks' pieces.
    double low = std::numeric_limits<double>::infinity(), high = -low;
    double sums[3] = {0, 0, static_cast<double>(t.numel())};  // Σx, Σx², count
    if (t.numel() > 0) {
      const torch::Tensor d = t.to(torch::kFloat64);
      low = d.min().item<double>();
      high = d.max().item<double>();
      sums[0] = d.sum().item<double>();
      sums[1] = d.square().sum().item<double>();
    }
    MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, comm);
    s["values"] = static_cast<long long>(sums[2]);
    if (sums[2] > 0) {
      s["min"] = low;
      s["max"] = high;
      s["mean"] = sums[0] / sums[2];
      s["rms"] = std::sqrt(sums[1] / sums[2]);
    }
    out[name] = s;
  }
  return out;
}

}  // namespace surrox::surrogates

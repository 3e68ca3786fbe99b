#include "training/field/field_output_scaling.hpp"

#include "core/error.hpp"

namespace surrox::training {

void add_scale_outputs_key(Schema& s) {
  s.strings("scale_outputs",
            "similarity scaling: outputs divided by products of powers of input channels "
            "(parameters), e.g. [U/speed, p/speed^2] for an incompressible case at several "
            "speeds; the network learns the scaled fields and the model multiplies the scale "
            "back (predictions, errors and baselines are physical; the baselines interpolate the "
            "scaled fields). A vector name scales all its components")
      .fallback("[]");
}

surrogates::OutputScaling output_scaling_of(const CaseNode& c,
                                            const std::vector<std::string>& inputs,
                                            const std::vector<std::string>& outputs) {
  try {
    return surrogates::parse_output_scaling(c.strings("scale_outputs"), inputs, outputs);
  } catch (const InputError& e) {
    c.fail("scale_outputs", e.what());
  }
}

void scale_targets(const CaseNode& c, TensorSet& set, const surrogates::OutputScaling& scaling) {
  if (scaling.empty() || set.rows() == 0) return;
  try {
    set.targets = scaling.to_scaled(set.targets, set.inputs);
  } catch (const InputError& e) {
    c.fail("scale_outputs", e.what());
  }
}

}  // namespace surrox::training

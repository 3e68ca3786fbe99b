#pragma once
// The `scale_outputs` key of the field family's data sections (sweeps and collections): the
// similarity scaling of surrogates/output_scaling.hpp, parsed against the section's channels
// and applied to the raw training rows before their statistics are taken.
#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "surrogates/output_scaling.hpp"
#include "training/tensor_set.hpp"

namespace surrox::training {

void add_scale_outputs_key(Schema& s);

// The section's scaling over these channels; a wrong entry fails naming the key, its file and
// line, and the valid channels.
surrogates::OutputScaling output_scaling_of(const CaseNode& c,
                                            const std::vector<std::string>& inputs,
                                            const std::vector<std::string>& outputs);

// A raw (physical, not normalised) set's targets divided by the scaling, channel axis 1.
void scale_targets(const CaseNode& c, TensorSet& set, const surrogates::OutputScaling& scaling);

}  // namespace surrox::training

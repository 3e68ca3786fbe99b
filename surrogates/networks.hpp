#pragma once
// Built-in network architectures, chosen by name in a training config
// (`network: {type: mlp, hidden: [256, 256]}`):
//   mlp   the per-point multilayer perceptron of arXiv:2106.01775: one grid cell's inputs
//         (coordinates, wall distance, flow and shape parameters) → that cell's outputs;
//   unet  a U-Net over the structured (i, j) grid: every input channel on the whole grid →
//         every output channel, periodic in i (the O-grid wraps around the airfoil).
#include <torch/torch.h>

#include <memory>
#include <string>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "surrogates/network.hpp"
#include "surrogates/sample_layout.hpp"

namespace surrox::surrogates {

// Factories take the network's section and the numbers of input and output channels.
using NetworkRegistry = Registry<Network, const CaseNode&, long, long>;

const NetworkRegistry& networks();

// The sample layout an architecture consumes; an unknown name is an InputError listing the
// networks.
SampleLayout layout_of(const std::string& network, const ErrorContext& where = {});

}  // namespace surrox::surrogates

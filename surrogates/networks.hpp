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
#include "surrogates/input_description.hpp"
#include "surrogates/network.hpp"

namespace surrox::surrogates {

// Factories take the network's section and the numbers of input and output channels.
using NetworkRegistry = Registry<Network, const CaseNode&, long, long>;

const NetworkRegistry& networks();

// How an architecture takes its samples from a structured grid (a row per cell, or the whole
// grid); an unknown name is an InputError listing the networks.
GridSamples grid_samples_of(const std::string& network, const ErrorContext& where = {});

}  // namespace surrox::surrogates

#pragma once
// Optimizers by name (`optimizer: {type: adam, lr: 1e-3}`), built over a network's parameters.
// The rate in the section is the base rate that the schedule scales each epoch.
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "core/case_node.hpp"
#include "core/registry.hpp"

namespace surrox::training {

using OptimizerRegistry =
    Registry<torch::optim::Optimizer, std::vector<torch::Tensor>, const CaseNode&>;

// adam, adamw, sgd.
const OptimizerRegistry& optimizers();

// Sets the rate of every parameter group.
void set_learning_rate(torch::optim::Optimizer& optimizer, double rate);

}  // namespace surrox::training

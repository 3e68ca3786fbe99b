#pragma once
// The toy family's data and training task (its `training/` layer): rows "x,y" of a CSV file,
// fitted by the one Trainer (training/trainer.hpp: exact resume, checkpoints, metrics.csv,
// data parallelism come with it); evaluated as the RMSE of y on another CSV file.
#include <filesystem>

#include "training/surrogate_family.hpp"
#include "training/tensor_set.hpp"

namespace surrox::toy {

// The rows of a CSV file with the header "x,y" as [rows, 1] float64 tensors; InputError naming
// the file and line for anything else.
training::TensorSet read_toy_rows(const std::filesystem::path& path);

training::FamilyRegistry::Entry toy_training_entry();

}  // namespace surrox::toy

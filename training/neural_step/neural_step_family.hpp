#pragma once
// The `neural_step` surrogate family: the proposal network of the neural_step coupler trained
// offline on a solver's output (`surrox train`, family neural_step: a dataset of one field every
// window, e.g. ω of a QG run written every k fixed steps) and measured on held-out snapshots
// against persistence and the mean change (`surrox evaluate`). The coupler starts from such a
// model file (`coupler.model`) instead of pretraining in its own run.
#include "core/schema.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::training::neural_step {

Schema neural_step_training_schema();
// Its training registry entry (families/neural_step.cpp registers it).
FamilyRegistry::Entry neural_step_family_entry();

}  // namespace surrox::training::neural_step

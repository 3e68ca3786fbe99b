#pragma once
// The `field` surrogate family: networks that map per-cell inputs of a steady solver's sweep
// (fields, coordinates, swept parameters) to its output fields — the airfoil surrogates the
// warm-start coupler uses. Trained on a sweep dataset (training/field/field_dataset.hpp), evaluated
// on any sweep dataset with the same channels.
#include "training/surrogate_family.hpp"

namespace surrox::training {

// Its training registry entry (families/field.cpp registers it).
FamilyRegistry::Entry field_family_entry();

}  // namespace surrox::training

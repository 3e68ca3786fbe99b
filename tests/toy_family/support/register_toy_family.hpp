#pragma once
// The toy family's one registration call: its training and evaluation (`family: toy`), its
// coupler (`toy_decay`) and its CLI verb (`surrox toy-line MODEL`).
#include "families/family_registrar.hpp"

namespace surrox::toy {

void register_toy_family(families::FamilyRegistrar& registrar);

}  // namespace surrox::toy

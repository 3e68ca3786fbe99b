#pragma once
// The surrogate families surrox ships, each registered by its one call (families/<family>.cpp).
// The surrox executable calls register_builtin_families() before it parses the command line;
// an in-process test that runs commands or workflows calls it too. Idempotent.
#include "families/family_registrar.hpp"

namespace surrox::families {

void register_field(FamilyRegistrar& registrar);  // airfoil fields; warm_start
void register_deep_potential(
    FamilyRegistrar& registrar);  // se_e2_a; pair deep; compress, concurrent-learn
void register_super_resolution(FamilyRegistrar& registrar);  // MeshfreeFlowNet; super_resolution
void register_pod_lstm(FamilyRegistrar& registrar);          // POD-LSTM emulators
void register_neural_step(FamilyRegistrar& registrar);       // guarded neural steps; neural_step

void register_builtin_families();

}  // namespace surrox::families

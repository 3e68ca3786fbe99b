#pragma once
// The MD engine on a learned potential: `pair: {type: deep, model: PATH}` evaluates a trained
// se_e2_a model (surrogates/deep_potential/) on the engine's own full neighbour list (owned
// and ghost atoms, reused until the next rebuild), adds −∂E/∂x to owned and ghost rows (the
// engine folds ghosts back), and tallies energy, virial (Σ x·f) and per-atom values. Lives in
// couplers/ because it is the one place that includes both the MD engine and LibTorch.
#include "solvers/md/potential.hpp"

namespace surrox::couplers {

// The MD pair style "deep" (families/deep_potential.cpp registers it).
solvers::md::PotentialRegistry::Entry deep_potential_pair_entry();

}  // namespace surrox::couplers

#pragma once
// The MD engine on a learned potential: `pair: {type: deep, model: PATH}` evaluates a trained
// se_e2_a model (surrogates/deep_potential/) on the engine's own full neighbour list (owned
// and ghost atoms, reused until the next rebuild), adds −∂E/∂x to owned and ghost rows (the
// engine folds ghosts back), and tallies energy, virial (Σ x·f) and per-atom values. Lives in
// couplers/ because it is the one place that includes both the MD engine and LibTorch.
namespace surrox::couplers {

// Adds "deep" to the MD potential registry (idempotent); the CLI calls it at start-up.
void register_deep_potential_pair();

}  // namespace surrox::couplers

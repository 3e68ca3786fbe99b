#pragma once
// Labels configurations with a reference potential (the "first-principles" step of DP-GEN's
// concurrent learning): each frame becomes a LAMMPS data file that the reference MD case runs
// for zero steps, recording the potential's energy, forces and virial as a DeePMD frame
// (solvers/md/deepmd_output.hpp). The reference is thus whatever `pair` the case names, with
// its own cutoffs and parameters, and the labels are exactly what its MD runs record.
#include <filesystem>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "io/deepmd_system.hpp"

namespace surrox::apps {

// `configurations` gives coordinates and orthogonal boxes (energies and forces, if any, are
// ignored); the result holds the same frames labelled by the case at `reference_case` (a
// metal-units MD case; `overrides` are applied first, as --set). Collective over
// runtime.comm(); every rank returns the frames. Scratch files go under `work_dir`, which is
// removed at the end.
io::DeepmdFrames label_with_reference(Runtime& runtime, const std::filesystem::path& reference_case,
                                      const std::vector<std::string>& overrides,
                                      const io::DeepmdFrames& configurations,
                                      const std::filesystem::path& work_dir);

}  // namespace surrox::apps

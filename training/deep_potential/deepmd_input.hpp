#pragma once
// DeePMD-kit's training input (input.json of `dp train`) as a surrox deep-potential config:
// `surrox train input.json` maps its descriptor (se_e2_a, or hybrid of se_e2_a with se_e3 and
// se_e2_r), fitting net, exponential learning rate, ener loss and training section onto the
// keys of `family: deep_potential` (docs/case-reference.md), which then validates the values.
// A key surrox does not implement, or a value it implements differently (type_one_side: true, a
// non-tanh activation, float32 precision, ...), is an InputError naming input.json's line and
// key path: nothing is dropped silently. Output-only keys (disp_file, save_ckpt, tensorboard,
// ...) and "_comment" keys are accepted and have no effect.
#include <filesystem>
#include <string>

namespace surrox::training {

// Whether `path` is a DeePMD-kit input: a .json file whose "model" has a "descriptor".
bool is_deepmd_input(const std::filesystem::path& path);

// The surrox config (YAML text) of a DeePMD-kit input; system paths made absolute (DeePMD-kit
// resolves them from the working directory, as surrox does for a command-line path).
std::string deepmd_input_to_config(const std::filesystem::path& path);

}  // namespace surrox::training

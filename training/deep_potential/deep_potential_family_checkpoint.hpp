#pragma once
// The deep_potential family's training checkpoint (OUTDIR/checkpoint.pt): the one trainer's
// archive (training_loop.hpp) with the model (weights and statistics), the optimizer's state
// and the task's "metadata", JSON with the family,
// the config sections the run was trained with (model, data, training), the step, the
// batch-selection generator's state, the running loss since the last metrics row and the
// metrics.csv rows so far. The learning rate and the loss prefactors are functions of the step,
// so a resumed run continues exactly as the uninterrupted one (bit for bit on CPU).
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/case_node.hpp"

namespace surrox::training {

struct DpTrainingState {
  long step = 0;            // steps trained
  std::string rng;          // the batch-selection std::mt19937_64, as operator<< writes it
  double running_loss = 0;  // loss summed since the last metrics row
  long running = 0;         // steps in that sum
  std::string csv;          // metrics.csv so far
  double seconds = 0;       // training time of the earlier invocations
};

// What a checkpoint must match to be resumed: the config's model, data and training sections.
nlohmann::json dp_checkpoint_identity(const CaseNode& root);

// The task's entry of the one trainer's checkpoint ("metadata", beside the trainer's "model" and
// "optimizer"): the family, the kind, the identity and the state.
void write_dp_checkpoint_state(torch::serialize::OutputArchive& archive,
                               const nlohmann::json& identity, const DpTrainingState& state);

// InputError for an archive that is not a deep-potential training checkpoint (another family's
// checkpoint, a model file) or one written for another config (naming the first key that
// differs); otherwise its state.
DpTrainingState read_dp_checkpoint_state(torch::serialize::InputArchive& archive,
                                         const std::string& source, const nlohmann::json& identity);

}  // namespace surrox::training

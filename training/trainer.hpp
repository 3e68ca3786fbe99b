#pragma once
// The supervised families' front end of the one trainer (training_loop.hpp): shuffled mini-batches
// (deterministic from the seed), an optimizer, a learning-rate schedule and a loss from their
// registries, gradient clipping, early stopping on the validation loss, a metrics CSV, checkpoints
// every N epochs and at the end, and an exact resume: a run resumed from a checkpoint continues the
// loss curve that the uninterrupted run would have produced, bit for bit on CPU.
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "surrogates/network.hpp"
#include "training/data_parallel.hpp"
#include "training/loss.hpp"
#include "training/lr_schedule.hpp"
#include "training/tensor_set.hpp"

namespace surrox::training {

struct EpochRecord {
  long epoch = 0;  // 1-based: the number of epochs trained
  double train_loss = 0, validation_loss = 0, learning_rate = 0, seconds = 0;
};

struct TrainResult {
  std::vector<EpochRecord> history;
  long best_epoch = 0;
  double best_validation_loss = 0;
  bool stopped_early = false;
  double samples_per_second = 0;     // training rows per second over this invocation
  long optimizer_state_bytes = 0;    // this rank's optimizer state, serialized (sharded: its part)
  double gradient_sync_seconds = 0;  // this rank's wall time in the gradient sum's collectives
  double cpu_seconds = 0;            // process CPU time of this invocation, summed over ranks
};

class Trainer {
 public:
  // The `training` section: epochs, batch_size, seed, clip_grad_norm, early_stopping_patience,
  // checkpoint_interval, restore_best, the optimizer/schedule/loss components and the
  // data_parallel options (overlapped gradient sum, sharded optimizer state: gradient_buckets.hpp).
  static Schema schema();

  // `parallel` may be null (one process). Only rank 0 writes files.
  Trainer(const CaseNode& section, std::unique_ptr<DataParallel> parallel = nullptr);
  ~Trainer();

  const Loss& loss() const { return *loss_; }

  // Trains `model` in place. Writes OUTDIR/metrics.csv (one row per epoch) and
  // OUTDIR/checkpoint.pt; `resume` continues from such a checkpoint. `stop_after` > 0 ends
  // this invocation after that many epochs with a checkpoint (for batch queues).
  TrainResult fit(surrogates::Network& model, const TensorSet& train, const TensorSet& validation,
                  const std::filesystem::path& output_dir,
                  const std::optional<std::filesystem::path>& resume = std::nullopt,
                  long stop_after = 0);

  // Mean loss over a set (rows split over the ranks), without gradients.
  double evaluate(surrogates::Network& model, const TensorSet& data);

 private:
  class SupervisedTask;  // the epochs over rows that fit() runs through the one training loop

  long epochs_, batch_size_, patience_, checkpoint_interval_;
  std::uint64_t seed_;
  double clip_norm_;
  bool restore_best_;
  bool shard_, overlap_;  // the data_parallel section
  std::size_t bucket_bytes_;
  CaseNode optimizer_section_;
  std::unique_ptr<Loss> loss_;
  std::unique_ptr<LrSchedule> schedule_;
  std::unique_ptr<DataParallel> parallel_;
};

}  // namespace surrox::training

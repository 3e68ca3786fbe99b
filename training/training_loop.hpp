#pragma once
// The one trainer: every family's training (trainer.hpp's supervised task, deep_potential_task.hpp)
// and the neural-step coupler's online updates run through it. It resumes from a checkpoint (the
// model, the optimizer's state and the task's), builds the optimizer step over the weights as
// resumed, runs the task's units with a checkpoint every `checkpoint_interval` units, at the end
// and where `stop_after` pauses the run (for batch queues), and stops a diverged run with its
// last good checkpoint named. Checkpoints are written atomically on rank 0.
#include <filesystem>
#include <optional>

#include "training/data_parallel.hpp"
#include "training/optimizer_step.hpp"
#include "training/training_task.hpp"

namespace surrox::training {

struct TrainingLoopOptions {
  OptimizerFactory optimizer;
  OptimizerStepOptions step;
  long checkpoint_interval = 10;  // units
  // Empty: no checkpoints (the in-memory online updates).
  std::filesystem::path checkpoint;
  std::optional<std::filesystem::path> resume;
  long stop_after = 0;  // > 0: this invocation trains at most that many units
};

struct TrainingLoopResult {
  long units_trained = 0;  // by this invocation
  bool paused = false;     // this invocation trained stop_after units
  long optimizer_state_bytes = 0;
  double gradient_sync_seconds = 0;
};

// Trains `model` (whose parameters the optimizer steps) on `task`.
TrainingLoopResult run_training(torch::nn::Module& model, TrainingTask& task,
                                DataParallel& parallel, const TrainingLoopOptions& options);

// The same loop over the task's units with an optimizer step the caller keeps between calls
// (its optimizer state lives on): the online updates, without checkpoints.
void run_units(TrainingTask& task, OptimizerStep& step);

}  // namespace surrox::training

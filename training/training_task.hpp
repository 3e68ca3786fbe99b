#pragma once
// What the one trainer (training_loop.hpp) trains: a family's task says what one unit of
// training is (an epoch over rows for the supervised families, a step of DeePMD's schedule for
// deep potentials, an online update for the neural-step coupler), runs it through the
// trainer's optimizer step (its batches, loss terms, learning rate and metrics), and keeps its
// own state in the trainer's checkpoint, so that every task resumes exactly.
#include <torch/torch.h>

#include <string>

#include "training/optimizer_step.hpp"

namespace surrox::training {

class TrainingTask {
 public:
  virtual ~TrainingTask() = default;

  // The run's end, in units, and what a unit is called in messages ("epoch", "step").
  virtual long units() const = 0;
  virtual const char* unit_name() const = 0;
  // Trains unit `unit` (0-based: the units done so far) with `step`.
  virtual void train_unit(long unit, OptimizerStep& step) = 0;
  // After a unit: the loss it trained at (a non-finite one stops the run as diverged) and
  // whether the task ends the run early (early stopping).
  virtual double last_loss() const = 0;
  virtual double last_learning_rate() const = 0;
  virtual bool stop() const { return false; }
  // What else than a lower learning rate may cure a divergence, for the message.
  virtual std::string divergence_hint() const { return " or set clip_grad_norm"; }

  // The task's own entries of a checkpoint (rank 0 writes; every rank reads). A resume reads
  // them first, before the model's weights and the optimizer's state, so that a task whose
  // checkpoints carry their config refuses another's (InputError naming `source`) before
  // anything else is compared.
  virtual void save(torch::serialize::OutputArchive& archive) const = 0;
  virtual void load(torch::serialize::InputArchive& archive, const std::string& source) = 0;
  // The units a resumed run has done (read by load()).
  virtual long units_done() const = 0;
};

}  // namespace surrox::training

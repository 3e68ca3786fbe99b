#pragma once
// One optimizer step of the one trainer, for every family and for the online updates: zero the
// gradients, run the task's backward pass on this rank's share of the batch, combine the
// gradients over data-parallel ranks (plain sum, overlapped buckets or ZeRO-1 shards:
// gradient_buckets.hpp), clip, step. It owns the optimizer, so it also moves the optimizer's
// state in and out of checkpoints (sharded: every rank's part).
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "training/data_parallel.hpp"

namespace surrox::training {

class FlatGradients;
class GradientBuckets;

using OptimizerFactory =
    std::function<std::unique_ptr<torch::optim::Optimizer>(std::vector<torch::Tensor>)>;

// The optimizer an `optimizer: {type: ..., ...}` section names (optimizer.hpp's registry).
OptimizerFactory configured_optimizer(const CaseNode& section);

struct OptimizerStepOptions {
  double clip_norm = 0;  // the gradient's global L2 norm is clipped to this; 0: no clipping
  bool shard = false;    // ZeRO stage 1 (more than one rank)
  bool overlap = false;  // bucket sums during the backward pass (more than one rank)
  std::size_t bucket_bytes = 1 << 20;
  // A parameter no rank's batch used (a deep potential's type absent from the system) keeps
  // no gradient on every rank, as on one rank, so that Adam leaves it alone; its gradients are
  // then summed from copies, not from flat buffers. Not with shard or overlap.
  bool unused_keep_no_gradient = false;
};

class OptimizerStep {
 public:
  // `parameters` as they are now (resumed weights included: the sharded optimizer is built
  // over this rank's part of them).
  OptimizerStep(std::vector<torch::Tensor> parameters, const OptimizerFactory& make,
                DataParallel& parallel, OptimizerStepOptions options);
  ~OptimizerStep();
  OptimizerStep(const OptimizerStep&) = delete;
  OptimizerStep& operator=(const OptimizerStep&) = delete;

  void set_learning_rate(double rate);
  // One step: `backward` runs this rank's forward and backward passes (or nothing, for a rank
  // without rows in this batch); then the gradients are combined, clipped and applied.
  void step(const std::function<void()>& backward);

  // Collective when sharded (the parts are gathered on rank 0); writes on rank 0 only.
  void save(torch::serialize::OutputArchive& archive);
  // From a checkpoint's archive; InputError naming `source` when the checkpoint's optimizer
  // state does not fit (sharded over other ranks, whole where sharding is on, other shapes).
  void load(torch::serialize::InputArchive& archive, const std::string& source);

  long state_bytes();            // this rank's optimizer state, serialized (sharded: its part)
  double sync_seconds() const {  // wall time in the gradient sum's collectives so far
    return sync_seconds_;
  }

 private:
  void combine_gradients();

  std::vector<torch::Tensor> parameters_;
  DataParallel& parallel_;
  OptimizerStepOptions options_;
  bool sharded_ = false;
  std::unique_ptr<FlatGradients> flat_gradients_;
  std::unique_ptr<GradientBuckets> buckets_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  double sync_seconds_ = 0;
};

}  // namespace surrox::training

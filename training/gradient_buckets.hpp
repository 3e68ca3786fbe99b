#pragma once
// The data-parallel gradient step in buckets, for the two options of the `training.data_parallel`
// section (the default step sums all gradients after the backward pass,
// DataParallel::sum_gradients):
//
// * overlap_gradient_sum: a post-hook on every parameter's gradient accumulator counts the
//   gradients of its bucket as the backward pass produces them and starts the bucket's
//   collective as soon as the bucket is complete (DDP's reducer), so that the sum of the last
//   layers' gradients travels while the first layers' are computed. Buckets start in one fixed
//   order on every rank (a bucket waits for the buckets before it), as MPI's collectives must;
//   each hook also lets the started ones progress.
// * shard_optimizer_state (ZeRO stage 1): each bucket is split into one part per rank
//   (part_range). A reduce-scatter leaves rank r the summed gradient of its parts only; the
//   optimizer holds one tensor per bucket (rank r's part of the parameters) and its state for
//   those elements only; after the step the parts are all-gathered into every rank's
//   parameters. Same traffic as the allreduce (reduce-scatter + all-gather), 1/N of the
//   optimizer state and of its update per rank. Every registered optimizer updates element by
//   element, so the sharded step equals the whole one up to round-off.
//
// The gradients must be views lying back to back in flat buffers (the trainer's FlatGradients):
// a bucket is a contiguous range of one such buffer.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "training/data_parallel.hpp"

namespace surrox::training {

struct BucketOptions {
  std::size_t bucket_bytes = 1u << 20;
  bool overlap = false;  // start buckets from autograd hooks during the backward pass
  bool shard = false;    // ZeRO stage 1
};

class GradientBuckets {
 public:
  GradientBuckets(const std::vector<torch::Tensor>& parameters, DataParallel& parallel,
                  BucketOptions options);
  ~GradientBuckets();  // removes the hooks
  GradientBuckets(const GradientBuckets&) = delete;
  GradientBuckets& operator=(const GradientBuckets&) = delete;

  // Before each backward pass: no bucket has started.
  void begin_step();
  // After the backward pass: starts the buckets the hooks did not and waits for all. Then each
  // parameter's gradient (or, sharded, each part's) holds its sum over ranks.
  void finish_gradients();

  // Sharded: what the optimizer updates, rank r's part of every bucket's parameters (leaves
  // whose gradients are the reduce-scattered parts); fixed for the object's life.
  const std::vector<torch::Tensor>& shards() const { return shard_parameters_; }
  // Sharded: scales the parts' gradients so that the global L2 norm is at most max_norm (as
  // torch::nn::utils::clip_grad_norm_ on the whole gradient).
  void clip_shards(double max_norm);
  // Sharded: every rank's updated parts into every rank's parameters.
  void gather_parameters();

  std::size_t buckets() const { return buckets_.size(); }

 private:
  struct Bucket {
    std::vector<std::size_t> members;  // parameter indices, in the order the hooks usually come
    torch::Tensor gradients;           // the members' gradients as one 1-D view
    torch::Tensor parameters;          // sharded: gather buffer over the members' parameters
    torch::Tensor part_gradient;       // sharded: this rank's part of the summed gradient
    std::size_t waiting = 0;           // members whose gradient is not ready in this step
  };
  void ready(std::size_t parameter);
  void start_ready_buckets();
  void start(Bucket& bucket);

  std::vector<torch::Tensor> parameters_;
  DataParallel& parallel_;
  BucketOptions options_;
  std::vector<Bucket> buckets_;
  std::vector<std::size_t> bucket_of_;
  std::vector<char> fired_;  // per parameter, in this step
  std::size_t started_ = 0;  // buckets started in this step (a prefix of buckets_)
  bool active_ = false;      // between begin_step and finish_gradients, with overlap
  std::vector<torch::Tensor> shard_parameters_;
  // The accumulators must stay alive for their hooks to stay (a parameter holds its own weakly).
  std::vector<std::shared_ptr<torch::autograd::Node>> accumulators_;
  std::vector<std::uintptr_t> hook_keys_;
};

}  // namespace surrox::training

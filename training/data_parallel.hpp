#pragma once
// How gradients and loss sums are combined across data-parallel ranks. The trainer divides
// every batch's loss by the *global* batch size and sums gradients over ranks, so N ranks
// with the same global batch reproduce one rank up to the order of floating-point sums.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace surrox::training {

// Rank r's part [n·r/N, n·(r+1)/N) of n elements: the split of a bucket in the sharded
// (ZeRO stage 1) step, the same on every rank.
inline std::pair<std::int64_t, std::int64_t> part_range(std::int64_t n, int rank, int size) {
  return {n * rank / size, n * (rank + 1) / size};
}

class DataParallel {
 public:
  virtual ~DataParallel() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // In place: each gradient becomes its sum over ranks. Collective: every rank passes gradients
  // of the same shapes, dtypes and devices in the same order. Gradients that are views lying
  // back to back in one buffer are summed there without copies.
  virtual void sum_gradients(std::vector<torch::Tensor>& gradients) = 0;
  // Sum of a value over ranks (loss sums, counts).
  virtual double sum(double value) = 0;

  // Collectives on contiguous 1-D tensors that may still be in flight when they return (the
  // overlapped and the sharded gradient steps); wait() completes them all. Every rank starts
  // the same ones in the same order, and leaves the tensors alone until wait() returns. The
  // defaults are blocking and built on sum_gradients; the MPI implementation overrides them.
  //
  // In place: `flat` becomes its sum over ranks.
  virtual void start_sum(const torch::Tensor& flat);
  // `part` (this rank's part_range of `flat`'s elements) becomes the sum over ranks of that
  // part; `flat` is left as it was or used as scratch.
  virtual void start_reduce_scatter(const torch::Tensor& flat, const torch::Tensor& part);
  // In place: every rank's part_range of `flat` is replaced by that rank's values.
  virtual void start_all_gather(const torch::Tensor& flat);
  // Lets started collectives advance (Open MPI moves them only inside MPI calls).
  virtual void progress() {}
  virtual void wait() {}
  // Every rank's bytes, in rank order, on rank 0 (empty elsewhere): the sharded optimizer state
  // of a checkpoint.
  virtual std::vector<std::string> gather_to_root(const std::string& bytes);
};

// One process: nothing to combine.
std::unique_ptr<DataParallel> single_process();

}  // namespace surrox::training

#pragma once
// How gradients and loss sums are combined across data-parallel ranks. The trainer divides
// every batch's loss by the *global* batch size and sums gradients over ranks, so N ranks
// with the same global batch reproduce one rank up to the order of floating-point sums.
#include <torch/torch.h>

#include <memory>
#include <vector>

namespace surrox::training {

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
};

// One process: nothing to combine.
std::unique_ptr<DataParallel> single_process();

}  // namespace surrox::training

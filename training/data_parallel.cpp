#include "training/data_parallel.hpp"

#include "core/error.hpp"

namespace surrox::training {

void DataParallel::start_sum(const torch::Tensor& flat) {
  std::vector<torch::Tensor> one = {flat};
  sum_gradients(one);
}

void DataParallel::start_reduce_scatter(const torch::Tensor& flat, const torch::Tensor& part) {
  start_sum(flat);
  const auto [begin, end] = part_range(flat.numel(), rank(), size());
  part.copy_(flat.slice(0, begin, end));
}

// A sum in which every part but its owner's is zero: x + 0 = x exactly.
void DataParallel::start_all_gather(const torch::Tensor& flat) {
  const auto [begin, end] = part_range(flat.numel(), rank(), size());
  flat.slice(0, 0, begin).zero_();
  flat.slice(0, end).zero_();
  start_sum(flat);
}

std::vector<std::string> DataParallel::gather_to_root(const std::string& bytes) {
  if (size() == 1) return {bytes};
  throw Error("this data-parallel backend cannot gather a sharded optimizer state");
}

}  // namespace surrox::training

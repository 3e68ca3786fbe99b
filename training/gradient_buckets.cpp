#include "training/gradient_buckets.hpp"

#include <torch/csrc/autograd/utils/lambda_post_hook.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace surrox::training {
namespace {

// True when b's gradient starts where a's ends (views of one flat buffer, a before b).
bool follows(const torch::Tensor& a, const torch::Tensor& b) {
  return a.dtype() == b.dtype() && a.device() == b.device() && a.is_contiguous() &&
         b.is_contiguous() &&
         static_cast<const char*>(a.data_ptr()) + a.nbytes() ==
             static_cast<const char*>(b.data_ptr());
}

}  // namespace

GradientBuckets::GradientBuckets(const std::vector<torch::Tensor>& parameters,
                                 DataParallel& parallel, BucketOptions options)
    : parameters_(parameters),
      parallel_(parallel),
      options_(options),
      bucket_of_(parameters.size()),
      fired_(parameters.size(), 0) {
  // Buckets from the last parameter to the first, the order in which backward passes usually
  // produce the gradients; within a bucket, members ascend as their gradients lie in memory.
  for (std::size_t k = parameters_.size(); k-- > 0;) {
    const torch::Tensor& g = parameters_[k].grad();
    if (!g.defined() || !g.is_contiguous())
      throw Error("bucketed gradient sum: every gradient must be a view of a flat buffer");
    const bool joins = !buckets_.empty() &&
                       follows(g, parameters_[buckets_.back().members.front()].grad()) &&
                       buckets_.back().gradients.nbytes() + g.nbytes() <= options_.bucket_bytes;
    if (!joins) buckets_.emplace_back();
    Bucket& b = buckets_.back();
    b.members.insert(b.members.begin(), k);
    b.gradients = torch::from_blob(
        g.data_ptr(), {b.gradients.defined() ? b.gradients.numel() + g.numel() : g.numel()},
        g.options());
    bucket_of_[k] = buckets_.size() - 1;
  }

  if (options_.shard) {
    torch::NoGradGuard no_grad;
    for (Bucket& b : buckets_) {
      b.parameters = torch::empty({b.gradients.numel()}, parameters_[b.members.front()].options());
      std::int64_t offset = 0;
      for (std::size_t k : b.members) {
        const std::int64_t n = parameters_[k].numel();
        b.parameters.slice(0, offset, offset + n).copy_(parameters_[k].detach().reshape(-1));
        offset += n;
      }
      const auto [begin, end] =
          part_range(b.parameters.numel(), parallel_.rank(), parallel_.size());
      b.part_gradient = torch::zeros({end - begin}, b.gradients.options());
      torch::Tensor shard = b.parameters.slice(0, begin, end).clone().requires_grad_(true);
      shard.mutable_grad() = b.part_gradient;
      shard_parameters_.push_back(shard);
    }
  }

  if (options_.overlap)
    for (std::size_t k = 0; k < parameters_.size(); ++k) {
      if (!parameters_[k].requires_grad()) continue;
      auto accumulator = torch::autograd::impl::grad_accumulator(parameters_[k]);
      hook_keys_.push_back(
          accumulator->add_post_hook(std::make_unique<torch::autograd::utils::LambdaPostHook>(
              [this, k](const torch::autograd::variable_list& outputs,
                        const torch::autograd::variable_list&) {
                ready(k);
                return outputs;
              })));
      accumulators_.push_back(std::move(accumulator));
    }
}

GradientBuckets::~GradientBuckets() {
  for (std::size_t h = 0; h < accumulators_.size(); ++h)
    accumulators_[h]->del_post_hook(hook_keys_[h]);
}

void GradientBuckets::begin_step() {
  started_ = 0;
  std::fill(fired_.begin(), fired_.end(), 0);
  for (Bucket& b : buckets_) {
    b.waiting = 0;
    for (std::size_t k : b.members) b.waiting += parameters_[k].requires_grad() ? 1 : 0;
  }
  active_ = options_.overlap;
}

void GradientBuckets::ready(std::size_t k) {
  if (!active_) return;  // a backward pass outside a training step
  if (!fired_[k]) {
    fired_[k] = 1;
    if (--buckets_[bucket_of_[k]].waiting == 0) start_ready_buckets();
  }
  parallel_.progress();
}

void GradientBuckets::start_ready_buckets() {
  while (started_ < buckets_.size() && buckets_[started_].waiting == 0) start(buckets_[started_++]);
}

void GradientBuckets::start(Bucket& b) {
  if (options_.shard) {
    parallel_.start_reduce_scatter(b.gradients, b.part_gradient);
  } else {
    parallel_.start_sum(b.gradients);
  }
}

void GradientBuckets::finish_gradients() {
  active_ = false;
  while (started_ < buckets_.size()) start(buckets_[started_++]);
  parallel_.wait();
}

void GradientBuckets::clip_shards(double max_norm) {
  double squares = 0;
  for (const auto& s : shard_parameters_)
    squares += s.grad().to(torch::kDouble).square().sum().item<double>();
  const double coefficient = max_norm / (std::sqrt(parallel_.sum(squares)) + 1e-6);
  if (coefficient < 1)
    for (auto& s : shard_parameters_) s.grad().mul_(coefficient);
}

void GradientBuckets::gather_parameters() {
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    Bucket& b = buckets_[i];
    const auto [begin, end] = part_range(b.parameters.numel(), parallel_.rank(), parallel_.size());
    b.parameters.slice(0, begin, end).copy_(shard_parameters_[i]);
    parallel_.start_all_gather(b.parameters);
  }
  parallel_.wait();
  for (Bucket& b : buckets_) {
    std::int64_t offset = 0;
    for (std::size_t k : b.members) {
      const std::int64_t n = parameters_[k].numel();
      parameters_[k].copy_(b.parameters.slice(0, offset, offset + n).view_as(parameters_[k]));
      offset += n;
    }
  }
}

}  // namespace surrox::training

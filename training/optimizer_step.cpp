#include "training/optimizer_step.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "training/gradient_buckets.hpp"
#include "training/optimizer.hpp"

namespace surrox::training {

// While alive, each parameter's gradient is a view of one flat buffer per run of parameters
// with the same dtype and device, so that the data-parallel sum works on the buffers in place
// instead of copying into buckets and back (DDP's gradient_as_bucket_view). Backward accumulates
// into existing gradients, so the views last as long as only zero() resets them: the
// optimizer's zero_grad would detach_ them, which views refuse. The destructor gives every
// gradient its own memory again, so the model leaves training as it would on one process.
class FlatGradients {
 public:
  explicit FlatGradients(const std::vector<torch::Tensor>& parameters) : parameters_(parameters) {
    for (std::size_t first = 0, last = 0; first < parameters_.size(); first = last) {
      const auto options = torch::TensorOptions()
                               .dtype(parameters_[first].dtype())
                               .device(parameters_[first].device());
      std::int64_t numel = 0;
      for (last = first;
           last < parameters_.size() && parameters_[last].dtype() == options.dtype() &&
           parameters_[last].device() == options.device();
           ++last)
        numel += parameters_[last].numel();
      const torch::Tensor flat = torch::zeros({numel}, options);
      std::int64_t offset = 0;
      for (std::size_t i = first; i < last; ++i) {
        auto& p = parameters_[i];
        torch::Tensor view = flat.slice(0, offset, offset + p.numel()).view_as(p);
        if (p.grad().defined()) view.copy_(p.grad());
        p.mutable_grad() = view;
        offset += p.numel();
      }
      buffers_.push_back(flat);
    }
  }
  FlatGradients(const FlatGradients&) = delete;
  FlatGradients& operator=(const FlatGradients&) = delete;
  ~FlatGradients() {
    for (auto& p : parameters_)
      if (p.grad().defined()) p.mutable_grad() = p.grad().clone();
  }

  void zero() {
    for (auto& buffer : buffers_) buffer.zero_();
  }

 private:
  std::vector<torch::Tensor> parameters_;
  std::vector<torch::Tensor> buffers_;
};

namespace {

// An optimizer's state as bytes (a serialized archive), and back.
std::string optimizer_bytes(torch::optim::Optimizer& optimizer) {
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  std::string bytes;
  archive.save_to([&bytes](const void* data, std::size_t n) {
    bytes.append(static_cast<const char*>(data), n);
    return n;
  });
  return bytes;
}

torch::Tensor bytes_tensor(const std::string& bytes) {
  return torch::from_blob(const_cast<char*>(bytes.data()), {static_cast<long>(bytes.size())},
                          torch::kUInt8)
      .clone();
}

}  // namespace

OptimizerFactory configured_optimizer(const CaseNode& section) {
  const auto& entry = optimizers().at(section.type(), section.context("type"));
  return [&entry, section](std::vector<torch::Tensor> parameters) {
    return entry.make(std::move(parameters), section);
  };
}

OptimizerStep::OptimizerStep(std::vector<torch::Tensor> parameters, const OptimizerFactory& make,
                             DataParallel& parallel, OptimizerStepOptions options)
    : parameters_(std::move(parameters)), parallel_(parallel), options_(options) {
  const int ranks = parallel_.size();
  if (options_.unused_keep_no_gradient && (options_.shard || options_.overlap))
    throw Error(
        "the optimizer step keeps unused parameters without gradients only in the "
        "plain gradient sum, not sharded or overlapped");
  sharded_ = options_.shard && ranks > 1;
  if (ranks > 1 && !options_.unused_keep_no_gradient)
    flat_gradients_ = std::make_unique<FlatGradients>(parameters_);
  if (ranks > 1 && (options_.overlap || options_.shard))
    buckets_ = std::make_unique<GradientBuckets>(
        parameters_, parallel_,
        BucketOptions{options_.bucket_bytes, options_.overlap, options_.shard});
  optimizer_ = make(sharded_ ? buckets_->shards() : parameters_);
}

OptimizerStep::~OptimizerStep() = default;

void OptimizerStep::set_learning_rate(double rate) {
  training::set_learning_rate(*optimizer_, rate);
}

void OptimizerStep::step(const std::function<void()>& backward) {
  if (flat_gradients_) {
    flat_gradients_->zero();
  } else {
    optimizer_->zero_grad();
  }
  if (buckets_) buckets_->begin_step();
  backward();
  Stopwatch sync_clock;
  combine_gradients();
  sync_seconds_ += sync_clock.seconds();
  if (sharded_) {
    if (options_.clip_norm > 0) buckets_->clip_shards(options_.clip_norm);
    optimizer_->step();
    Stopwatch gather_clock;
    buckets_->gather_parameters();
    sync_seconds_ += gather_clock.seconds();
  } else {
    if (options_.clip_norm > 0) torch::nn::utils::clip_grad_norm_(parameters_, options_.clip_norm);
    optimizer_->step();
  }
}

void OptimizerStep::combine_gradients() {
  if (buckets_) {
    buckets_->finish_gradients();
    return;
  }
  if (options_.unused_keep_no_gradient) {
    if (parallel_.size() == 1) return;
    std::vector<torch::Tensor> used{
        torch::zeros({static_cast<long>(parameters_.size())}, torch::kFloat64)};
    for (std::size_t i = 0; i < parameters_.size(); ++i)
      used[0][static_cast<long>(i)] = parameters_[i].grad().defined() ? 1.0 : 0.0;
    parallel_.sum_gradients(used);
    std::vector<torch::Tensor> gradients;
    for (auto& p : parameters_) {
      if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
      gradients.push_back(p.grad());
    }
    parallel_.sum_gradients(gradients);
    for (std::size_t i = 0; i < parameters_.size(); ++i)
      if (used[0][static_cast<long>(i)].item<double>() == 0)
        parameters_[i].mutable_grad() = torch::Tensor();
    return;
  }
  std::vector<torch::Tensor> gradients;
  for (auto& p : parameters_) {
    if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
    gradients.push_back(p.grad());
  }
  parallel_.sum_gradients(gradients);
}

void OptimizerStep::save(torch::serialize::OutputArchive& archive) {
  // Sharded: every rank's part of the optimizer state, collected on rank 0.
  const std::vector<std::string> shards =
      sharded_ ? parallel_.gather_to_root(optimizer_bytes(*optimizer_))
               : std::vector<std::string>{};
  if (parallel_.rank() != 0) return;
  if (sharded_) {
    archive.write("optimizer_shard_ranks",
                  torch::tensor(static_cast<std::int64_t>(parallel_.size())));
    for (std::size_t r = 0; r < shards.size(); ++r)
      archive.write("optimizer_shard_" + std::to_string(r), bytes_tensor(shards[r]));
  } else {
    torch::serialize::OutputArchive optimizer_archive;
    optimizer_->save(optimizer_archive);
    archive.write("optimizer", optimizer_archive);
  }
}

void OptimizerStep::load(torch::serialize::InputArchive& archive, const std::string& source) {
  const int ranks = parallel_.size();
  torch::Tensor shard_ranks;
  const long saved_ranks =
      archive.try_read("optimizer_shard_ranks", shard_ranks) ? shard_ranks.item<long>() : 0;
  if (saved_ranks > 0 && (!sharded_ || saved_ranks != ranks))
    throw InputError(fmt::format(
        "--resume {}: its optimizer state is sharded over {} ranks "
        "(training.data_parallel.shard_optimizer_state); resume it on {} ranks with "
        "shard_optimizer_state: true (this run: {} rank{}, sharding {})",
        source, saved_ranks, saved_ranks, ranks, ranks == 1 ? "" : "s", sharded_ ? "on" : "off"));
  if (saved_ranks == 0 && sharded_)
    throw InputError("--resume " + source +
                     ": its optimizer state is whole (written without "
                     "training.data_parallel.shard_optimizer_state or on one rank); resume "
                     "it with shard_optimizer_state: false");
  if (!sharded_) {
    try {
      torch::serialize::InputArchive optimizer_archive;
      archive.read("optimizer", optimizer_archive);
      optimizer_->load(optimizer_archive);
    } catch (const c10::Error& e) {
      throw InputError("--resume " + source +
                       ": its optimizer state does not fit this model and config (" +
                       e.what_without_backtrace() + ")");
    }
    return;
  }
  try {
    torch::Tensor bytes;
    archive.read("optimizer_shard_" + std::to_string(parallel_.rank()), bytes);
    torch::serialize::InputArchive shard;
    shard.load_from(static_cast<const char*>(bytes.data_ptr()),
                    static_cast<std::size_t>(bytes.numel()));
    optimizer_->load(shard);
  } catch (const c10::Error& e) {
    throw InputError("--resume " + source +
                     ": its optimizer shard does not fit this model and config (" +
                     e.what_without_backtrace() + ")");
  }
}

long OptimizerStep::state_bytes() { return static_cast<long>(optimizer_bytes(*optimizer_).size()); }

}  // namespace surrox::training

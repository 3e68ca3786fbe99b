#include "training/trainer.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <numeric>
#include <optional>
#include <random>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "training/gradient_buckets.hpp"
#include "training/optimizer.hpp"

namespace surrox::training {
namespace {

// The same permutation on every rank and in every resumed run: it depends on seed and epoch only.
torch::Tensor permutation(long rows, std::uint64_t seed, long epoch) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 engine(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(epoch));
  for (std::size_t i = order.size(); i > 1; --i) {
    std::uniform_int_distribution<std::size_t> pick(0, i - 1);
    std::swap(order[i - 1], order[pick(engine)]);
  }
  return torch::tensor(order, torch::kLong);
}

// This rank's share [begin, end) of n rows.
std::pair<long, long> share(long n, int rank, int size) {
  return {n * rank / size, n * (rank + 1) / size};
}

std::vector<torch::Tensor> clone_parameters(surrogates::Network& model) {
  std::vector<torch::Tensor> copies;
  for (const auto& p : model.parameters()) copies.push_back(p.detach().clone());
  return copies;
}

void load_parameters(surrogates::Network& model, const std::vector<torch::Tensor>& values) {
  torch::NoGradGuard no_grad;
  auto parameters = model.parameters();
  for (std::size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(values[i]);
}

std::string metrics_csv(const std::vector<EpochRecord>& history) {
  std::string text = "epoch,train_loss,validation_loss,learning_rate,seconds\n";
  for (const auto& r : history)
    text += fmt::format("{},{:.17g},{:.17g},{:.17g},{:.6f}\n", r.epoch, r.train_loss,
                        r.validation_loss, r.learning_rate, r.seconds);
  return text;
}

// While alive, each parameter's gradient is a view of one flat buffer per run of parameters
// with the same dtype and device, so that the data-parallel sum works on the buffers in place
// instead of copying into buckets and back (DDP's gradient_as_bucket_view). Backward accumulates
// into existing gradients, so the views last as long as only zero() resets them: the
// optimizer's zero_grad would detach_ them, which views refuse. The destructor gives every
// gradient its own memory again, so the model leaves fit() as it would on one process.
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

class SingleProcess final : public DataParallel {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void sum_gradients(std::vector<torch::Tensor>&) override {}
  double sum(double value) override { return value; }
};

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

// Everything a checkpoint holds besides the model and optimizer archives.
struct TrainingState {
  long epoch = 0;
  std::vector<EpochRecord> history;
  long best_epoch = 0, bad_epochs = 0;
  double best = INFINITY;
  std::vector<torch::Tensor> best_parameters;
};

}  // namespace

std::unique_ptr<DataParallel> single_process() { return std::make_unique<SingleProcess>(); }

Schema Trainer::schema() {
  Schema s(
      "How a surrogate is trained: epochs, batches, optimizer, schedule, loss, stopping, checkpoints.");
  s.integer("epochs", "passes over the training split").at_least(1).fallback("100");
  s.integer("batch_size",
            "rows per global batch (points for per-point networks, cases for grid networks), "
            "split over data-parallel ranks")
      .at_least(1)
      .fallback("1024");
  s.integer("seed", "seeds the weights and the shuffling; equal seeds give equal runs")
      .at_least(0)
      .fallback("1");
  s.real("clip_grad_norm", "clip the gradient's global L2 norm to this; 0: no clipping")
      .at_least(0)
      .fallback("0");
  s.integer("early_stopping_patience",
            "stop after this many epochs without a better validation loss; 0: never")
      .at_least(0)
      .fallback("0");
  s.integer("checkpoint_interval", "epochs between checkpoints (one is always written at the end)")
      .at_least(1)
      .fallback("10");
  s.boolean("restore_best", "end with the weights of the epoch with the lowest validation loss")
      .fallback("true");
  s.component("optimizer", optimizers(), "the optimizer").default_type("adam");
  Schema parallel(
      "How data-parallel MPI ranks combine their gradients (no effect on one rank). Both options "
      "give the default step's result up to round-off.");
  parallel
      .boolean("shard_optimizer_state",
               "ZeRO stage 1: each rank keeps the optimizer state of 1/N of the parameters and "
               "updates only those (gradients reduce-scattered, parameters all-gathered); its "
               "checkpoints hold every rank's shard and resume only on as many ranks with this on")
      .fallback("false");
  parallel
      .boolean("overlap_gradient_sum",
               "sum gradient buckets while the backward pass runs, each as soon as its gradients "
               "are ready (autograd hooks, nonblocking collectives)")
      .fallback("false");
  parallel
      .integer("bucket_kib",
               "gradient bucket size of the overlapped and the sharded step, KiB (the default "
               "step sums in 25 MiB buckets)")
      .at_least(1)
      .fallback("1024");
  s.section("data_parallel", parallel, "overlapped gradient sum and sharded optimizer (ZeRO-1)");
  s.component("schedule", lr_schedules(), "the learning-rate schedule").default_type("constant");
  s.component("loss", losses(), "the training loss").default_type("mse");
  return s;
}

Trainer::Trainer(const CaseNode& c, std::unique_ptr<DataParallel> parallel)
    : epochs_(c.integer("epochs")),
      batch_size_(c.integer("batch_size")),
      patience_(c.integer("early_stopping_patience")),
      checkpoint_interval_(c.integer("checkpoint_interval")),
      seed_(static_cast<std::uint64_t>(c.integer("seed"))),
      clip_norm_(c.real("clip_grad_norm")),
      restore_best_(c.boolean("restore_best")),
      shard_(c.section("data_parallel").boolean("shard_optimizer_state")),
      overlap_(c.section("data_parallel").boolean("overlap_gradient_sum")),
      bucket_bytes_(static_cast<std::size_t>(c.section("data_parallel").integer("bucket_kib")) *
                    1024),
      optimizer_section_(c.section("optimizer")),
      parallel_(parallel ? std::move(parallel) : single_process()) {
  const CaseNode loss = c.section("loss");
  loss_ = losses().at(loss.type(), loss.context("type")).make(loss);
  const CaseNode schedule = c.section("schedule");
  schedule_ = lr_schedules().at(schedule.type(), schedule.context("type")).make(schedule, epochs_);
}

Trainer::~Trainer() = default;

double Trainer::evaluate(surrogates::Network& model, const TensorSet& data) {
  torch::NoGradGuard no_grad;
  const auto [begin, end] = share(data.rows(), parallel_->rank(), parallel_->size());
  double sum = 0;
  for (long b = begin; b < end; b += batch_size_) {
    const TensorSet batch = data.slice(b, std::min(end, b + batch_size_));
    sum +=
        loss_->rows(model.forward(batch.inputs), batch.targets, batch.weights).sum().item<double>();
  }
  const double total = parallel_->sum(sum);
  return data.rows() > 0 ? total / static_cast<double>(data.rows()) : NAN;
}

TrainResult Trainer::fit(surrogates::Network& model, const TensorSet& train,
                         const TensorSet& validation, const std::filesystem::path& output_dir,
                         const std::optional<std::filesystem::path>& resume, long stop_after) {
  if (train.rows() == 0) throw InputError("the training split is empty: no samples to train on");
  if (loss_->weighted() && !train.weights.defined())
    throw InputError("the loss needs point weights, but the dataset names no weight field");
  const bool root = parallel_->rank() == 0;
  if (root) std::filesystem::create_directories(output_dir);
  auto parameters = model.parameters();
  std::optional<FlatGradients> flat_gradients;
  if (parallel_->size() > 1) flat_gradients.emplace(parameters);
  const int ranks = parallel_->size();
  const bool sharded = shard_ && ranks > 1;
  const auto& make_optimizer = optimizers().at(optimizer_section_.type());
  // Sharded, the optimizer is built over this rank's parts once the weights are final (below).
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (!sharded) optimizer = make_optimizer.make(parameters, optimizer_section_);
  std::string shard_state;  // this rank's optimizer state from a sharded checkpoint
  const double base_rate = optimizer_section_.real("lr");

  TrainingState state;
  const auto checkpoint_path = output_dir / "checkpoint.pt";
  if (resume) {
    torch::serialize::InputArchive archive;
    try {
      archive.load_from(resume->string());
    } catch (const c10::Error& e) {
      throw InputError("cannot read the training checkpoint " + resume->string() +
                       ": not a surrox checkpoint");
    }
    // A checkpoint of another model, family or config: its archive lacks our entries or has
    // other shapes; say so instead of torch's backtrace.
    try {
      torch::serialize::InputArchive model_archive, optimizer_archive, best_archive;
      torch::Tensor shard_ranks;
      const long saved_ranks =
          archive.try_read("optimizer_shard_ranks", shard_ranks) ? shard_ranks.item<long>() : 0;
      if (saved_ranks > 0 && (!sharded || saved_ranks != ranks))
        throw InputError(fmt::format(
            "--resume {}: its optimizer state is sharded over {} ranks "
            "(training.data_parallel.shard_optimizer_state); resume it on {} ranks with "
            "shard_optimizer_state: true (this run: {} rank{}, sharding {})",
            resume->string(), saved_ranks, saved_ranks, ranks, ranks == 1 ? "" : "s",
            sharded ? "on" : "off"));
      if (saved_ranks == 0 && sharded)
        throw InputError("--resume " + resume->string() +
                         ": its optimizer state is whole (written without "
                         "training.data_parallel.shard_optimizer_state or on one rank); resume "
                         "it with shard_optimizer_state: false");
      archive.read("model", model_archive);
      if (sharded) {
        torch::Tensor bytes;
        archive.read("optimizer_shard_" + std::to_string(parallel_->rank()), bytes);
        shard_state.assign(static_cast<const char*>(bytes.data_ptr()),
                           static_cast<std::size_t>(bytes.numel()));
      } else {
        archive.read("optimizer", optimizer_archive);
      }
      archive.read("best_model", best_archive);
      // torch's load replaces a parameter whatever its shape: compare the shapes ourselves.
      std::vector<std::vector<long>> shapes;
      for (const auto& p : parameters) shapes.push_back(p.sizes().vec());
      model.load(model_archive);
      for (std::size_t i = 0; i < parameters.size(); ++i)
        if (parameters[i].sizes().vec() != shapes[i])
          throw InputError("--resume " + resume->string() +
                           ": its network has other layer sizes than this config's");
      if (!sharded) optimizer->load(optimizer_archive);
      torch::Tensor epoch, history, schedule, best;
      archive.read("epoch", epoch);
      archive.read("history", history);
      archive.read("schedule", schedule);
      archive.read("best", best);
      state.epoch = epoch.item<long>();
      for (long e = 0; e < history.size(0); ++e) {
        auto row = history[e];
        state.history.push_back({row[0].item<long>(), row[1].item<double>(), row[2].item<double>(),
                                 row[3].item<double>(), row[4].item<double>()});
      }
      schedule_->restore(std::vector<double>(schedule.data_ptr<double>(),
                                             schedule.data_ptr<double>() + schedule.numel()));
      state.best_epoch = best[0].item<long>();
      state.best = best[1].item<double>();
      state.bad_epochs = best[2].item<long>();
      for (std::size_t i = 0; i < parameters.size(); ++i) {
        torch::Tensor p;
        best_archive.read("p" + std::to_string(i), p);
        state.best_parameters.push_back(p);
      }
    } catch (const c10::Error& e) {
      throw InputError("--resume " + resume->string() +
                       ": not a checkpoint of this model and config (" +
                       e.what_without_backtrace() + ")");
    }
    spdlog::info("resumed training from {} after epoch {}", resume->string(), state.epoch);
  }

  // The overlapped or sharded step, over the weights as resumed.
  std::optional<GradientBuckets> buckets;
  if (ranks > 1 && (overlap_ || shard_))
    buckets.emplace(parameters, *parallel_, BucketOptions{bucket_bytes_, overlap_, shard_});
  if (sharded) {
    optimizer = make_optimizer.make(buckets->shards(), optimizer_section_);
    if (!shard_state.empty()) {
      try {
        torch::serialize::InputArchive archive;
        archive.load_from(shard_state.data(), shard_state.size());
        optimizer->load(archive);
      } catch (const c10::Error& e) {
        throw InputError("--resume " + resume->string() +
                         ": its optimizer shard does not fit this model and config (" +
                         e.what_without_backtrace() + ")");
      }
    }
  }

  auto save_checkpoint = [&] {
    // Sharded: every rank's part of the optimizer state, collected on rank 0.
    const std::vector<std::string> shards =
        sharded ? parallel_->gather_to_root(optimizer_bytes(*optimizer))
                : std::vector<std::string>{};
    if (!root) return;
    torch::serialize::OutputArchive archive, model_archive, optimizer_archive, best_archive;
    model.save(model_archive);
    if (sharded) {
      archive.write("optimizer_shard_ranks", torch::tensor(static_cast<std::int64_t>(ranks)));
      for (std::size_t r = 0; r < shards.size(); ++r)
        archive.write("optimizer_shard_" + std::to_string(r), bytes_tensor(shards[r]));
    } else {
      optimizer->save(optimizer_archive);
      archive.write("optimizer", optimizer_archive);
    }
    for (std::size_t i = 0; i < state.best_parameters.size(); ++i)
      best_archive.write("p" + std::to_string(i), state.best_parameters[i]);
    archive.write("model", model_archive);
    archive.write("best_model", best_archive);
    archive.write("epoch", torch::tensor(static_cast<std::int64_t>(state.epoch)));
    auto history = torch::zeros({static_cast<long>(state.history.size()), 5}, torch::kFloat64);
    for (std::size_t e = 0; e < state.history.size(); ++e) {
      const auto& r = state.history[e];
      history[e] = torch::tensor({static_cast<double>(r.epoch), r.train_loss, r.validation_loss,
                                  r.learning_rate, r.seconds},
                                 torch::kFloat64);
    }
    archive.write("history", history);
    archive.write("schedule", torch::tensor(schedule_->state(), torch::kFloat64));
    archive.write("best", torch::tensor({static_cast<double>(state.best_epoch), state.best,
                                         static_cast<double>(state.bad_epochs)},
                                        torch::kFloat64));
    AtomicFile file(checkpoint_path);
    archive.save_to(file.temporary().string());
    file.commit();
  };

  TrainResult result;
  Progress progress("train", static_cast<std::size_t>(epochs_),
                    root && spdlog::default_logger_raw()->should_log(spdlog::level::info),
                    "epochs");
  Stopwatch clock;
  const std::clock_t cpu_start = std::clock();
  double sync_seconds = 0;  // waiting for the gradient sum (and the all-gather, sharded)
  long rows_trained = 0;
  bool stop = patience_ > 0 && state.bad_epochs >= patience_;
  const long first_epoch = state.epoch;
  auto paused = [&] { return stop_after > 0 && state.epoch - first_epoch >= stop_after; };
  while (state.epoch < epochs_ && !stop && !paused()) {
    Stopwatch epoch_clock;
    const double rate = schedule_->rate(state.epoch, base_rate);
    set_learning_rate(*optimizer, rate);
    const torch::Tensor order = permutation(train.rows(), seed_, state.epoch);
    double loss_sum = 0;
    for (long b = 0; b < train.rows(); b += batch_size_) {
      const long global_rows = std::min(train.rows(), b + batch_size_) - b;
      const auto [begin, end] = share(global_rows, parallel_->rank(), parallel_->size());
      if (flat_gradients) {
        flat_gradients->zero();
      } else {
        optimizer->zero_grad();
      }
      if (buckets) buckets->begin_step();
      if (end > begin) {
        const TensorSet batch = train.select(order.slice(0, b + begin, b + end));
        const torch::Tensor terms =
            loss_->rows(model.forward(batch.inputs), batch.targets, batch.weights);
        (terms.sum() / static_cast<double>(global_rows)).backward();
        loss_sum += terms.detach().sum().item<double>();
      }
      Stopwatch sync_clock;
      if (buckets) {
        buckets->finish_gradients();
      } else {
        std::vector<torch::Tensor> gradients;
        for (auto& p : parameters) {
          if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
          gradients.push_back(p.grad());
        }
        parallel_->sum_gradients(gradients);
      }
      sync_seconds += sync_clock.seconds();
      if (sharded) {
        if (clip_norm_ > 0) buckets->clip_shards(clip_norm_);
        optimizer->step();
        Stopwatch gather_clock;
        buckets->gather_parameters();
        sync_seconds += gather_clock.seconds();
      } else {
        if (clip_norm_ > 0) torch::nn::utils::clip_grad_norm_(parameters, clip_norm_);
        optimizer->step();
      }
      rows_trained += end - begin;
    }
    EpochRecord record;
    record.epoch = ++state.epoch;
    record.train_loss = parallel_->sum(loss_sum) / static_cast<double>(train.rows());
    record.validation_loss = evaluate(model, validation);
    record.learning_rate = rate;
    record.seconds = epoch_clock.seconds();
    if (!std::isfinite(record.train_loss))
      throw Error(fmt::format(
          "training diverged in epoch {}: the training loss is {}; lower the learning rate "
          "(now {:.3g}) or set clip_grad_norm{}",
          record.epoch, record.train_loss, rate,
          std::filesystem::exists(checkpoint_path)
              ? "; the last good checkpoint is " + checkpoint_path.string()
              : ""));
    schedule_->observe(record.validation_loss);
    // Without a validation split the training loss stands in for it.
    const double watched =
        std::isfinite(record.validation_loss) ? record.validation_loss : record.train_loss;
    if (watched < state.best) {
      state.best = watched;
      state.best_epoch = record.epoch;
      state.bad_epochs = 0;
      state.best_parameters = clone_parameters(model);
    } else {
      ++state.bad_epochs;
    }
    state.history.push_back(record);
    stop = patience_ > 0 && state.bad_epochs >= patience_;
    if (root) write_text_atomically(output_dir / "metrics.csv", metrics_csv(state.history));
    if (state.epoch % checkpoint_interval_ == 0 || state.epoch == epochs_ || stop || paused())
      save_checkpoint();
    progress.update(static_cast<std::size_t>(state.epoch),
                    fmt::format("loss {:.4e}  validation {:.4e}  lr {:.2e}", record.train_loss,
                                record.validation_loss, rate));
  }
  progress.finish(fmt::format("best validation {:.4e} at epoch {}", state.best, state.best_epoch));
  if (restore_best_ && !paused() && !state.best_parameters.empty())
    load_parameters(model, state.best_parameters);
  result.history = state.history;
  result.best_epoch = state.best_epoch;
  result.best_validation_loss = state.best;
  result.stopped_early = stop && state.epoch < epochs_;
  result.optimizer_state_bytes = static_cast<long>(optimizer_bytes(*optimizer).size());
  result.gradient_sync_seconds = sync_seconds;
  result.cpu_seconds =
      parallel_->sum(static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
  result.samples_per_second =
      static_cast<double>(parallel_->sum(static_cast<double>(rows_trained))) /
      std::max(clock.seconds(), 1e-9);
  return result;
}

}  // namespace surrox::training

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
#include "training/optimizer.hpp"
#include "training/training_loop.hpp"

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

class SingleProcess final : public DataParallel {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void sum_gradients(std::vector<torch::Tensor>&) override {}
  double sum(double value) override { return value; }
};

}  // namespace

// The supervised families' task (field, super-resolution, POD-LSTM): a unit is an epoch of
// shuffled mini-batches over the training rows, then the validation loss, the schedule's
// observation, early stopping and the best weights; metrics.csv after every epoch.
class Trainer::SupervisedTask final : public TrainingTask {
 public:
  SupervisedTask(Trainer& trainer, surrogates::Network& model, const TensorSet& train,
                 const TensorSet& validation, const std::filesystem::path& output_dir)
      : trainer_(trainer),
        model_(model),
        train_(train),
        validation_(validation),
        output_dir_(output_dir),
        root_(trainer.parallel_->rank() == 0),
        base_rate_(trainer.optimizer_section_.real("lr")),
        progress_("train", static_cast<std::size_t>(trainer.epochs_),
                  root_ && spdlog::default_logger_raw()->should_log(spdlog::level::info),
                  "epochs") {}

  long units() const override { return trainer_.epochs_; }
  const char* unit_name() const override { return "epoch"; }
  long units_done() const override { return epoch_; }
  double last_loss() const override { return history_.empty() ? 0.0 : history_.back().train_loss; }
  double last_learning_rate() const override { return rate_; }
  bool stop() const override { return trainer_.patience_ > 0 && bad_epochs_ >= trainer_.patience_; }
  long rows_trained() const { return rows_trained_; }

  void train_unit(long epoch, OptimizerStep& step) override {
    DataParallel& parallel = *trainer_.parallel_;
    Stopwatch epoch_clock;
    rate_ = trainer_.schedule_->rate(epoch, base_rate_);
    step.set_learning_rate(rate_);
    const torch::Tensor order = permutation(train_.rows(), trainer_.seed_, epoch);
    double loss_sum = 0;
    const long batch_size = trainer_.batch_size_;
    for (long b = 0; b < train_.rows(); b += batch_size) {
      const long global_rows = std::min(train_.rows(), b + batch_size) - b;
      const auto [begin, end] = share(global_rows, parallel.rank(), parallel.size());
      step.step([&, begin = begin, end = end] {
        if (end <= begin) return;
        const TensorSet batch = train_.select(order.slice(0, b + begin, b + end));
        const torch::Tensor terms =
            trainer_.loss_->rows(model_.forward(batch.inputs), batch.targets, batch.weights);
        (terms.sum() / static_cast<double>(global_rows)).backward();
        loss_sum += terms.detach().sum().item<double>();
      });
      rows_trained_ += end - begin;
    }
    EpochRecord record;
    record.epoch = epoch_ = epoch + 1;
    record.train_loss = parallel.sum(loss_sum) / static_cast<double>(train_.rows());
    record.validation_loss = trainer_.evaluate(model_, validation_);
    record.learning_rate = rate_;
    record.seconds = epoch_clock.seconds();
    history_.push_back(record);
    if (!std::isfinite(record.train_loss)) return;  // the loop stops the run as diverged
    trainer_.schedule_->observe(record.validation_loss);
    // Without a validation split the training loss stands in for it.
    const double watched =
        std::isfinite(record.validation_loss) ? record.validation_loss : record.train_loss;
    if (watched < best_) {
      best_ = watched;
      best_epoch_ = record.epoch;
      bad_epochs_ = 0;
      best_parameters_ = clone_parameters(model_);
    } else {
      ++bad_epochs_;
    }
    if (root_) write_text_atomically(output_dir_ / "metrics.csv", metrics_csv(history_));
    progress_.update(static_cast<std::size_t>(epoch_),
                     fmt::format("loss {:.4e}  validation {:.4e}  lr {:.2e}", record.train_loss,
                                 record.validation_loss, rate_));
  }

  void save(torch::serialize::OutputArchive& archive) const override {
    torch::serialize::OutputArchive best_archive;
    for (std::size_t i = 0; i < best_parameters_.size(); ++i)
      best_archive.write("p" + std::to_string(i), best_parameters_[i]);
    archive.write("best_model", best_archive);
    archive.write("epoch", torch::tensor(static_cast<std::int64_t>(epoch_)));
    auto history = torch::zeros({static_cast<long>(history_.size()), 5}, torch::kFloat64);
    for (std::size_t e = 0; e < history_.size(); ++e) {
      const auto& r = history_[e];
      history[e] = torch::tensor({static_cast<double>(r.epoch), r.train_loss, r.validation_loss,
                                  r.learning_rate, r.seconds},
                                 torch::kFloat64);
    }
    archive.write("history", history);
    archive.write("schedule", torch::tensor(trainer_.schedule_->state(), torch::kFloat64));
    archive.write("best", torch::tensor({static_cast<double>(best_epoch_), best_,
                                         static_cast<double>(bad_epochs_)},
                                        torch::kFloat64));
  }

  void load(torch::serialize::InputArchive& archive, const std::string& source) override {
    try {
      torch::serialize::InputArchive best_archive;
      archive.read("best_model", best_archive);
      torch::Tensor epoch, history, schedule, best;
      archive.read("epoch", epoch);
      archive.read("history", history);
      archive.read("schedule", schedule);
      archive.read("best", best);
      epoch_ = epoch.item<long>();
      for (long e = 0; e < history.size(0); ++e) {
        auto row = history[e];
        history_.push_back({row[0].item<long>(), row[1].item<double>(), row[2].item<double>(),
                            row[3].item<double>(), row[4].item<double>()});
      }
      trainer_.schedule_->restore(std::vector<double>(
          schedule.data_ptr<double>(), schedule.data_ptr<double>() + schedule.numel()));
      best_epoch_ = best[0].item<long>();
      best_ = best[1].item<double>();
      bad_epochs_ = best[2].item<long>();
      const std::size_t count = model_.parameters().size();
      for (std::size_t i = 0; i < count; ++i) {
        torch::Tensor p;
        best_archive.read("p" + std::to_string(i), p);
        best_parameters_.push_back(p);
      }
    } catch (const c10::Error& e) {
      throw InputError("--resume " + source + ": not a checkpoint of this model and config (" +
                       e.what_without_backtrace() + ")");
    }
  }

  // After the loop: the progress line's end and, unless paused, the best weights.
  void finish(bool paused) {
    progress_.finish(fmt::format("best validation {:.4e} at epoch {}", best_, best_epoch_));
    if (trainer_.restore_best_ && !paused && !best_parameters_.empty())
      load_parameters(model_, best_parameters_);
  }

  TrainResult result() const {
    TrainResult r;
    r.history = history_;
    r.best_epoch = best_epoch_;
    r.best_validation_loss = best_;
    r.stopped_early = stop() && epoch_ < trainer_.epochs_;
    return r;
  }

 private:
  Trainer& trainer_;
  surrogates::Network& model_;
  const TensorSet& train_;
  const TensorSet& validation_;
  std::filesystem::path output_dir_;
  bool root_;
  double base_rate_;
  Progress progress_;
  long epoch_ = 0, best_epoch_ = 0, bad_epochs_ = 0, rows_trained_ = 0;
  double best_ = INFINITY, rate_ = 0;
  std::vector<EpochRecord> history_;
  std::vector<torch::Tensor> best_parameters_;
};

namespace {}  // namespace

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
  if (parallel_->rank() == 0) std::filesystem::create_directories(output_dir);
  TrainingLoopOptions options;
  options.optimizer = configured_optimizer(optimizer_section_);
  options.step = {clip_norm_, shard_, overlap_, bucket_bytes_, false};
  options.checkpoint_interval = checkpoint_interval_;
  options.checkpoint = output_dir / "checkpoint.pt";
  options.resume = resume;
  options.stop_after = stop_after;
  SupervisedTask task(*this, model, train, validation, output_dir);
  Stopwatch clock;
  const std::clock_t cpu_start = std::clock();
  const TrainingLoopResult loop = run_training(model, task, *parallel_, options);
  task.finish(loop.paused);
  TrainResult result = task.result();
  result.optimizer_state_bytes = loop.optimizer_state_bytes;
  result.gradient_sync_seconds = loop.gradient_sync_seconds;
  result.cpu_seconds =
      parallel_->sum(static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
  result.samples_per_second =
      static_cast<double>(parallel_->sum(static_cast<double>(task.rows_trained()))) /
      std::max(clock.seconds(), 1e-9);
  return result;
}

}  // namespace surrox::training

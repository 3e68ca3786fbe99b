#include "training/training_loop.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::training {
namespace {

torch::serialize::InputArchive open_checkpoint(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path))
    throw InputError("--resume " + path.string() + ": no such checkpoint file");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path.string());
  } catch (const c10::Error&) {
    throw InputError("--resume " + path.string() + ": not a surrox training checkpoint");
  }
  return archive;
}

// The model's weights from a checkpoint. torch's load replaces a parameter whatever its shape:
// the shapes are compared here, so that a checkpoint of another config says so.
void load_model(torch::nn::Module& model, torch::serialize::InputArchive& archive,
                const std::string& source) {
  const auto parameters = model.parameters();
  std::vector<std::vector<long>> shapes;
  for (const auto& p : parameters) shapes.push_back(p.sizes().vec());
  try {
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    model.load(model_archive);
  } catch (const c10::Error& e) {
    throw InputError("--resume " + source + ": not a checkpoint of this model and config (" +
                     e.what_without_backtrace() + ")");
  }
  for (std::size_t i = 0; i < parameters.size(); ++i)
    if (parameters[i].sizes().vec() != shapes[i])
      throw InputError("--resume " + source +
                       ": its network has other layer sizes than this config's");
}

void check_finite(const TrainingTask& task, long unit, const std::filesystem::path& checkpoint) {
  if (std::isfinite(task.last_loss())) return;
  throw Error(fmt::format(
      "training diverged in {} {}: the training loss is {}; lower the learning rate (now {:.3g})"
      "{}{}",
      task.unit_name(), unit, task.last_loss(), task.last_learning_rate(), task.divergence_hint(),
      !checkpoint.empty() && std::filesystem::exists(checkpoint)
          ? "; the last good checkpoint is " + checkpoint.string()
          : ""));
}

}  // namespace

TrainingLoopResult run_training(torch::nn::Module& model, TrainingTask& task,
                                DataParallel& parallel, const TrainingLoopOptions& options) {
  std::optional<torch::serialize::InputArchive> archive;
  const std::string source = options.resume ? options.resume->string() : std::string();
  if (options.resume) {
    archive = open_checkpoint(*options.resume);
    task.load(*archive, source);  // first: it may refuse a checkpoint of another config
    load_model(model, *archive, source);
  }
  // Over the weights as resumed: the sharded optimizer holds this rank's part of them.
  OptimizerStep step(model.parameters(), options.optimizer, parallel, options.step);
  if (archive) {
    step.load(*archive, source);
    spdlog::info("resumed training from {} after {} {}", source, task.unit_name(),
                 task.units_done());
  }
  auto save_checkpoint = [&] {
    torch::serialize::OutputArchive out;
    step.save(out);  // collective when sharded
    if (parallel.rank() != 0) return;
    torch::serialize::OutputArchive model_archive;
    model.save(model_archive);
    out.write("model", model_archive);
    task.save(out);
    std::filesystem::create_directories(options.checkpoint.parent_path());
    AtomicFile file(options.checkpoint);
    out.save_to(file.temporary().string());
    file.commit();
  };

  TrainingLoopResult result;
  const long first = task.units_done();
  long unit = first;
  auto paused = [&] { return options.stop_after > 0 && unit - first >= options.stop_after; };
  while (unit < task.units() && !task.stop() && !paused()) {
    task.train_unit(unit, step);
    ++unit;
    check_finite(task, unit, options.checkpoint);
    if (!options.checkpoint.empty() && (unit % options.checkpoint_interval == 0 ||
                                        unit == task.units() || task.stop() || paused()))
      save_checkpoint();
  }
  result.units_trained = unit - first;
  // A resumed run with nothing left to train still leaves its checkpoint in its own folder.
  if (result.units_trained == 0 && options.resume && !options.checkpoint.empty() &&
      !std::filesystem::exists(options.checkpoint))
    save_checkpoint();
  result.paused = paused();
  result.optimizer_state_bytes = step.state_bytes();
  result.gradient_sync_seconds = step.sync_seconds();
  return result;
}

void run_units(TrainingTask& task, OptimizerStep& step) {
  for (long unit = 0; unit < task.units(); ++unit) {
    task.train_unit(unit, step);
    check_finite(task, unit + 1, {});
  }
}

}  // namespace surrox::training

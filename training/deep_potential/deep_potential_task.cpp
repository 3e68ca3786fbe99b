#include "training/deep_potential/deep_potential_task.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace surrox::training {
namespace {

namespace dp = surrogates::deep_potential;

struct DpPrefactors {
  double e, f, v;
};

// This rank's share [begin, end) of n items.
std::pair<long, long> dp_share(long n, int rank, int size) {
  return {n * rank / size, n * (rank + 1) / size};
}

// This rank's part of one global batch's loss: its frames' squared errors divided by the global
// counts, so that the parts summed over ranks are DeePMD's loss of the whole batch.
torch::Tensor dp_loss_part(const dp::Prediction& p, const dp::Labels& l, double atoms,
                           long global_frames, const DpPrefactors& pref) {
  const double frames = static_cast<double>(global_frames);
  torch::Tensor loss = pref.e * (p.energy - l.energy).pow(2).sum() / (frames * atoms) +
                       pref.f * (p.force - l.force).pow(2).sum() / (frames * atoms * 3);
  if (pref.v > 0 && l.virial.defined())
    loss = loss + pref.v * (p.virial - l.virial).pow(2).sum() / (frames * 9 * atoms);
  return loss;
}

std::vector<double> frame_weights(const std::vector<dp::SystemData>& systems) {
  // Systems drawn in proportion to their frames (DeePMD's default auto_prob "prob_sys_size").
  std::vector<double> weights;
  for (const auto& s : systems) weights.push_back(static_cast<double>(s.frames.frames));
  return weights;
}

}  // namespace

dp::ErrorSums dp_measure(dp::SeE2aModel& model, const std::vector<dp::SystemData>& systems,
                         long frames, DataParallel& parallel) {
  dp::ErrorSums mine;
  for (const auto& s : systems) {
    const long n = frames < 0 ? s.frames.frames : std::min(frames, s.frames.frames);
    const auto [begin, end] = dp_share(n, parallel.rank(), parallel.size());
    if (end > begin) mine.add(dp::evaluate_system(model, s, 8, begin, end));
  }
  dp::ErrorSums all;
  all.energy2 = parallel.sum(mine.energy2);
  all.force2 = parallel.sum(mine.force2);
  all.virial2 = parallel.sum(mine.virial2);
  all.frames = std::lround(parallel.sum(static_cast<double>(mine.frames)));
  all.force_values = std::lround(parallel.sum(static_cast<double>(mine.force_values)));
  all.virial_values = std::lround(parallel.sum(static_cast<double>(mine.virial_values)));
  all.atoms = std::lround(parallel.sum(static_cast<double>(mine.atoms)));
  return all;
}

DeepPotentialTask::DeepPotentialTask(dp::SeE2aModel& model,
                                     const std::vector<dp::SystemData>& train,
                                     const std::vector<dp::SystemData>& validation,
                                     const CaseNode& root, DataParallel& parallel)
    : model_(model),
      train_(train),
      validation_(validation),
      parallel_(parallel),
      loss_(root.section("training").section("loss")),
      identity_(dp_checkpoint_identity(root)) {
  const CaseNode t = root.section("training");
  lr0_ = t.section("optimizer").real("lr");
  total_steps_ = t.integer("steps");
  decay_steps_ = t.integer("decay_steps");
  batch_size_ = t.integer("batch_size");
  disp_ = t.integer("disp_freq");
  validation_frames_ = t.integer("validation_frames");
  // r such that lr₀·r^(steps/decay_steps) = stop_lr (DeePMD-kit LearningRateExp).
  decay_rate_ = std::exp(std::log(t.real("stop_lr") / lr0_) /
                         (static_cast<double>(total_steps_) / decay_steps_));
  rng_.seed(static_cast<std::uint64_t>(t.integer("seed")));
  const std::vector<double> weights = frame_weights(train_);
  pick_system_ = std::discrete_distribution<int>(weights.begin(), weights.end());
  state_.csv =
      "epoch,train_loss,validation_loss,learning_rate,pref_e,pref_f,train_energy_rmse_per_atom,"
      "train_force_rmse,validation_energy_rmse_per_atom,validation_force_rmse,seconds\n";
}

double DeepPotentialTask::elapsed() const {
  return state_.seconds +
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void DeepPotentialTask::train_unit(long step, OptimizerStep& optimizer) {
  lr_ = lr0_ * std::pow(decay_rate_, static_cast<double>(step / decay_steps_));
  optimizer.set_learning_rate(lr_);
  const double coef = lr_ / lr0_;
  const CaseNode& lp = loss_;
  const DpPrefactors pref{
      lp.real("limit_pref_e") + (lp.real("start_pref_e") - lp.real("limit_pref_e")) * coef,
      lp.real("limit_pref_f") + (lp.real("start_pref_f") - lp.real("limit_pref_f")) * coef,
      lp.real("limit_pref_v") + (lp.real("start_pref_v") - lp.real("limit_pref_v")) * coef};
  const auto& s = train_[pick_system_(rng_)];
  std::vector<long> frames(std::min(batch_size_, s.frames.frames));
  std::uniform_int_distribution<long> pick_frame(0, s.frames.frames - 1);
  for (auto& f : frames) f = pick_frame(rng_);
  const auto [begin, end] =
      dp_share(static_cast<long>(frames.size()), parallel_.rank(), parallel_.size());
  double loss_part = 0;
  optimizer.step([&, begin = begin, end = end] {
    if (end <= begin) return;
    const std::vector<long> mine(frames.begin() + begin, frames.begin() + end);
    const dp::EnvBatch batch = dp::batch_frames(s, mine, model_->config().ntypes());
    const dp::Prediction p = dp::predict(model_, batch, true);
    const torch::Tensor loss =
        dp_loss_part(p, dp::labels_of(s, mine), static_cast<double>(s.atoms()),
                     static_cast<long>(frames.size()), pref);
    loss.backward();
    loss_part = loss.item<double>();
  });
  last_loss_ = parallel_.sum(loss_part);
  state_.running_loss += last_loss_;
  ++state_.running;
  state_.step = step + 1;
  if (state_.step % disp_ == 0 || state_.step == total_steps_) write_row(lr_, pref.e, pref.f);
}

void DeepPotentialTask::write_row(double lr, double pref_e, double pref_f) {
  const dp::ErrorSums tr = dp_measure(model_, train_, validation_frames_, parallel_);
  const dp::ErrorSums va = dp_measure(model_, validation_, validation_frames_, parallel_);
  const auto trm = tr.metrics(), vam = va.metrics();
  const double seconds = elapsed();
  const bool none = validation_.empty();
  const double va_loss = none ? NAN
                              : pref_e * va.energy2 / std::max<long>(va.frames, 1) *
                                        (va.atoms / std::max<double>(va.frames, 1)) +
                                    pref_f * va.force2 / std::max<long>(va.force_values, 1);
  const double running_loss = state_.running_loss / state_.running;
  state_.csv +=
      fmt::format("{},{:.10g},{:.10g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{},{},{:.3f}\n",
                  state_.step, running_loss, va_loss, lr, pref_e, pref_f,
                  trm["energy_rmse_per_atom"].get<double>(), trm["force_rmse"].get<double>(),
                  none ? "nan" : fmt::format("{:.6g}", vam["energy_rmse_per_atom"].get<double>()),
                  none ? "nan" : fmt::format("{:.6g}", vam["force_rmse"].get<double>()), seconds);
  const double eta = (seconds - state_.seconds) / (state_.step - first_step_) *
                     static_cast<double>(total_steps_ - state_.step);
  spdlog::info(
      "step {}/{}: loss {:.4g}, lr {:.3g}, train E {:.3g} eV/atom F {:.3g} eV/Å{}, ETA {:.0f} s",
      state_.step, total_steps_, running_loss, lr, trm["energy_rmse_per_atom"].get<double>(),
      trm["force_rmse"].get<double>(),
      none
          ? std::string()
          : fmt::format(", validation E {:.3g} F {:.3g}", vam["energy_rmse_per_atom"].get<double>(),
                        vam["force_rmse"].get<double>()),
      eta);
  state_.running_loss = 0;
  state_.running = 0;
}

void DeepPotentialTask::save(torch::serialize::OutputArchive& archive) const {
  std::ostringstream out;
  out << rng_;
  DpTrainingState s = state_;
  s.rng = out.str();
  s.seconds = elapsed();
  write_dp_checkpoint_state(archive, identity_, s);
}

void DeepPotentialTask::load(torch::serialize::InputArchive& archive, const std::string& source) {
  state_ = read_dp_checkpoint_state(archive, source, identity_);
  std::istringstream in(state_.rng);
  in >> rng_;
  if (!in) throw InputError("--resume " + source + ": corrupt generator state");
  first_step_ = state_.step;
  start_ = std::chrono::steady_clock::now();
}

}  // namespace surrox::training

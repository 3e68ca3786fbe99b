#include "training/super_resolution/super_resolution_training.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/atomic_file.hpp"
#include "core/case_path.hpp"
#include "core/error.hpp"
#include "surrogates/network.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/loss_plot.hpp"
#include "training/super_resolution/super_resolution_model.hpp"
#include "training/surrogate_family.hpp"
#include "training/trainer.hpp"

namespace surrox::training::super_resolution {
namespace {

namespace srm = surrogates::super_resolution;

// The Trainer's view of MeshfreeFlowNet: row = [low-res crop (4·nt·nz·nx), points (3·P)] →
// [4·P + 4·K]: the prediction at the P points (channels first), then γ·P/K × the residual
// (continuity, x-, z-momentum, buoyancy) at the first K of them. Against targets whose residual
// part is 0, the l1 loss is P/(P + K) · (L1 of the prediction + γ · L1 of the residual). The
// residual takes ten autograd passes through the decoder, so it is evaluated on a subset.
// Derivatives need autograd even where the trainer evaluates without gradients.
class SrTrainingNetwork final : public surrogates::Network {
 public:
  SrTrainingNetwork(srm::MeshfreeFlowNet net, srm::BoussinesqScales scales, double gamma,
                    long points, long residual_points)
      : net_(register_module("net", std::move(net))),
        scales_(scales),
        gamma_(gamma),
        points_(points),
        residual_points_(gamma > 0 ? std::min(residual_points, points) : 0) {}

  torch::Tensor forward(const torch::Tensor& packed) override {
    const auto& g = net_->options().grid;
    const long rows = packed.size(0), crop = 4 * g[0] * g[1] * g[2];
    const torch::Tensor lowres = packed.slice(1, 0, crop).view({rows, 4, g[0], g[1], g[2]});
    const torch::Tensor points = packed.slice(1, crop).reshape({rows, points_, 3});
    const bool graph = torch::GradMode::is_enabled();
    torch::AutoGradMode enable(true);
    const torch::Tensor latent = net_->encode(lowres);
    // With the residual at every point, one decode serves both terms (as the reference's PDE
    // layer does); on a subset, decoding it separately keeps the ten autograd passes at K rows.
    const bool shared = residual_points_ == points_;
    const torch::Tensor query = shared ? points.detach().requires_grad_(true) : points;
    const torch::Tensor out = net_->decode(latent, query);  // [N, P, 4]
    std::vector<torch::Tensor> parts = {out.transpose(1, 2).reshape({rows, -1})};
    if (residual_points_ > 0) {
      const torch::Tensor subset =
          shared ? query : points.slice(1, 0, residual_points_).detach().requires_grad_(true);
      const torch::Tensor residual = srm::boussinesq_residual(
          shared ? out : net_->decode(latent, subset), subset, scales_, graph);
      parts.push_back(residual.transpose(1, 2).reshape({rows, -1}) *
                      (gamma_ * double(points_) / double(residual_points_)));
    }
    torch::Tensor result = torch::cat(parts, 1);
    return graph ? result : result.detach();
  }

  long points() const { return points_; }
  long residual_points() const { return residual_points_; }
  double residual_scale() const {
    return residual_points_ > 0 ? gamma_ * double(points_) / double(residual_points_) : 0;
  }

 private:
  srm::MeshfreeFlowNet net_;
  srm::BoussinesqScales scales_;
  double gamma_;
  long points_, residual_points_;
};

std::vector<std::filesystem::path> sr_resolve_runs(const CaseNode& data, const std::string& key) {
  std::vector<std::filesystem::path> paths;
  for (const auto& text : data.strings(key)) {
    const std::filesystem::path p = resolve_case_path(data, text);
    if (!std::filesystem::is_regular_file(p)) data.fail(key, "no such dataset: " + p.string());
    paths.push_back(p);
  }
  return paths;
}

// Samples of every run packed for the trainer (normalised).
TensorSet sr_pack(const SuperResolutionModel& m, const std::vector<RbRun>& runs, long crops,
                  long points, long residual_points, std::mt19937_64& engine) {
  std::vector<torch::Tensor> inputs, targets;
  for (const auto& run : runs) {
    const LowResGrid grid = downsample(run, m.downsampling);
    const CropSamples s = sample_crops(run, grid, m.crop(), crops, points, engine);
    const torch::Tensor lowres = m.normalise(s.lowres).reshape({crops, -1});
    inputs.push_back(torch::cat({lowres, s.points.reshape({crops, -1})}, 1));
    const torch::Tensor values = m.normalise(s.values.permute({0, 2, 1}));  // [N, 4, P]
    targets.push_back(
        torch::cat({values.reshape({crops, -1}), torch::zeros({crops, 4 * residual_points})}, 1));
  }
  return {torch::cat(inputs), torch::cat(targets), torch::Tensor()};
}

// Mean |prediction − truth| (normalised) and mean |residual| (physical) over a set, unweighted.
std::pair<double, double> sr_loss_terms(SrTrainingNetwork& net, const TensorSet& set) {
  double prediction = 0, residual = 0;
  const long values = 4 * net.points();
  for (long b = 0; b < set.rows(); b += 16) {
    const TensorSet batch = set.slice(b, std::min(set.rows(), b + 16));
    torch::NoGradGuard no_grad;
    const torch::Tensor out = net.forward(batch.inputs);
    prediction += (out.slice(1, 0, values) - batch.targets.slice(1, 0, values))
                      .abs()
                      .mean(1)
                      .sum()
                      .item<double>();
    if (net.residual_points() > 0)
      residual += out.slice(1, values).abs().mean(1).sum().item<double>() / net.residual_scale();
  }
  const double rows = double(std::max(set.rows(), 1L));
  return {prediction / rows, residual / rows};
}

}  // namespace

Schema super_resolution_schema() {
  Schema root(
      "A super-resolution training config (family: super_resolution): MeshfreeFlowNet on "
      "Rayleigh–Bénard runs (docs/validation/super_resolution.md).");
  root.section("runtime", runtime_config_schema(), "threads and logging");

  Schema data(
      "Rayleigh–Bénard runs (fields.h5 of `surrox run`, uniform grid) and how they are cut.");
  data.strings("train",
               "training runs (different initial-noise seeds from the validation runs); "
               "relative paths from the config's folder");
  data.strings("validation", "held-out runs for the validation loss").fallback("[]");
  Schema down("Low-resolution input: every t-th frame; every z-th/x-th cell or block means.");
  down.integer("t", "frames per low-res frame").at_least(1).fallback("4");
  down.integer("z", "cells per low-res node in z").at_least(1).fallback("8");
  down.integer("x", "cells per low-res node in x").at_least(1).fallback("8");
  down.boolean("average", "space: the mean of each z × x block instead of every z-th/x-th cell")
      .fallback("false");
  data.section("downsampling", down, "downsampling factors (the paper: 4 in t, 8 in z and x)");
  data.integers("crop",
                "low-res nodes per crop along t, z, x (powers of two; the paper: 4, 16, 16)")
      .sized(3)
      .fallback("[4, 8, 8]");
  data.integer("crops_per_run", "training crops drawn per training run (a fixed pool)")
      .at_least(1)
      .fallback("256");
  data.integer("validation_crops_per_run", "crops drawn per validation run")
      .at_least(1)
      .fallback("64");
  data.integer("points_per_crop", "high-res query points per crop (the paper: 1024)")
      .at_least(1)
      .fallback("256");
  root.section("data", data, "the runs, downsampling and crops");

  Schema network(
      "MeshfreeFlowNet's widths (the paper: latent 32, unet_filters 16, imnet_filters 32).");
  network.integer("latent", "latent channels of the U-Net's output grid")
      .at_least(1)
      .fallback("16");
  network.integer("unet_filters", "U-Net width of the first level (doubles per level)")
      .at_least(1)
      .fallback("8");
  network.integer("unet_max_filters", "U-Net width cap").at_least(1).fallback("256");
  network.integer("imnet_filters", "ImNet's narrowest width nf (layers 16nf, 8nf, 4nf, 2nf, nf)")
      .at_least(1)
      .fallback("8");
  network
      .choice("activation", {"softplus", "leaky_relu", "tanh"},
              "ImNet's activation (smooth for the PDE loss's second derivatives)")
      .fallback("softplus");
  root.section("network", network, "the network");

  Schema physics("The PDE loss.");
  physics.real("gamma", "weight of the L1 norm of the Boussinesq residual (the paper: 0.0125)")
      .at_least(0)
      .fallback("0.0125");
  physics
      .integer("residual_points",
               "query points per crop where the residual is taken (the first K of "
               "points_per_crop; the paper: all)")
      .at_least(1)
      .fallback("32");
  root.section("physics", physics, "the PDE residual term");

  Schema evaluation("What `surrox evaluate` covers on a held-out run.");
  evaluation.integer("time_tiles", "the last N crop-sized time windows of the run; 0: all")
      .at_least(0)
      .fallback("2");
  evaluation.integer("residual_points", "points per tile where the PDE residual is evaluated")
      .at_least(1)
      .fallback("1024");
  root.section("evaluation", evaluation, "evaluation defaults stored with the model");
  root.section("training", Trainer::schema(),
               "optimizer, schedule, loss (l1), epochs, checkpoints");
  return root;
}

namespace {

// The model's downsampling, crop, network options, physics and evaluation defaults from the
// config; fails on a crop size that is not a power of two.
void configure_sr_model(const CaseNode& root, const CaseNode& data, const CaseNode& network,
                        SuperResolutionModel& m) {
  const CaseNode down = data.section("downsampling");
  m.downsampling = {down.integer("t"), down.integer("z"), down.integer("x"),
                    down.boolean("average")};
  const auto crop = data.integers("crop");
  m.options.grid = {crop[0], crop[1], crop[2]};
  for (int d = 0; d < 3; ++d)
    if (crop[d] < 2 || (crop[d] & (crop[d] - 1)) != 0)
      data.fail("crop", fmt::format("every crop size must be a power of two ≥ 2, got {}", crop[d]));
  m.options.latent = network.integer("latent");
  m.options.unet_filters = network.integer("unet_filters");
  m.options.unet_max_filters = network.integer("unet_max_filters");
  m.options.imnet_filters = network.integer("imnet_filters");
  m.options.activation = network.string("activation");
  m.gamma = root.section("physics").real("gamma");
  m.evaluation_time_tiles = root.section("evaluation").integer("time_tiles");
  m.residual_points = root.section("evaluation").integer("residual_points");
}

// The training and validation runs; the model takes the first training run's spacing and
// Rayleigh and Prandtl numbers, which every run must share.
void read_sr_runs(const CaseNode& data, SuperResolutionModel& m, std::vector<RbRun>& train_runs,
                  std::vector<RbRun>& validation_runs) {
  for (const auto& p : sr_resolve_runs(data, "train")) train_runs.push_back(read_rb_run(p));
  for (const auto& p : sr_resolve_runs(data, "validation"))
    validation_runs.push_back(read_rb_run(p));
  if (train_runs.empty()) data.fail("train", "needs at least one run");
  const RbRun& first = train_runs.front();
  m.spacing = {first.frame_interval, first.dz, first.dx};
  m.rayleigh = first.rayleigh;
  m.prandtl = first.prandtl;
  for (const auto* list : {&train_runs, &validation_runs})
    for (const auto& run : *list) {
      m.check_compatible(run);
      if (run.rayleigh != m.rayleigh || run.prandtl != m.prandtl)
        throw InputError(
            fmt::format("{}: Ra = {:g}, Pr = {:g}, but {} has Ra = {:g}, Pr = {:g}: "
                        "train on one Rayleigh number",
                        run.path.string(), run.rayleigh, run.prandtl, first.path.string(),
                        m.rayleigh, m.prandtl));
    }
}

// The runs' seeds; InputError when a validation run shares a training run's seed.
void sr_run_seeds(const std::vector<RbRun>& train_runs, const std::vector<RbRun>& validation_runs,
                  std::vector<long>& train_seeds, std::vector<long>& validation_seeds) {
  for (const auto& r : train_runs) train_seeds.push_back(r.seed);
  for (const auto& r : validation_runs) {
    validation_seeds.push_back(r.seed);
    if (r.seed >= 0 && std::count(train_seeds.begin(), train_seeds.end(), r.seed))
      throw InputError(
          fmt::format("{}: seed {} is also a training run's: validation runs must be "
                      "held-out seeds",
                      r.path.string(), r.seed));
  }
}

// The trained network's loss terms on (at most 64 rows of) the training set and on the
// validation set.
nlohmann::json sr_loss_terms_json(SrTrainingNetwork& wrapper, const TensorSet& train,
                                  const TensorSet& validation) {
  const auto [train_l1, train_residual] =
      sr_loss_terms(wrapper, train.slice(0, std::min(train.rows(), 64L)));
  nlohmann::json terms = {{"train_l1", train_l1}, {"train_pde_residual_l1", train_residual}};
  if (validation.rows() > 0) {
    const auto [l1, residual] = sr_loss_terms(wrapper, validation);
    terms["validation_l1"] = l1;
    terms["validation_pde_residual_l1"] = residual;
  }
  return terms;
}

// What the model file records about its training: the config, the fit and the runs.
nlohmann::json sr_training_record(const std::string& config_path, const TrainResult& fit,
                                  const std::vector<RbRun>& train_runs,
                                  const std::vector<RbRun>& validation_runs,
                                  const std::vector<long>& train_seeds,
                                  const std::vector<long>& validation_seeds) {
  std::vector<std::string> train_paths, validation_paths;
  for (const auto& r : train_runs) train_paths.push_back(r.path.string());
  for (const auto& r : validation_runs) validation_paths.push_back(r.path.string());
  return {{"config", config_path},
          {"epochs", fit.history.size()},
          {"best_epoch", fit.best_epoch},
          {"best_validation_loss", fit.best_validation_loss},
          {"train_runs", train_paths},
          {"train_seeds", train_seeds},
          {"validation_runs", validation_paths},
          {"validation_seeds", validation_seeds}};
}

// model.pt and loss.png in output_dir, listed in results["outputs"] (rank 0).
void save_sr_model_outputs(const SuperResolutionModel& m, const std::filesystem::path& output_dir,
                           nlohmann::json& results) {
  m.save(output_dir / "model.pt");
  record_training_outputs(output_dir, results);
}

}  // namespace

void train_super_resolution(const CaseNode& root, Runtime& runtime,
                            const std::filesystem::path& output_dir,
                            const std::optional<std::filesystem::path>& resume, long max_epochs,
                            const std::string& config_path, nlohmann::json& results) {
  const CaseNode data = root.section("data"), network = root.section("network"),
                 training = root.section("training");
  if (training.section("loss").type() != "l1")
    training.section("loss").fail("type",
                                  "super_resolution trains with the l1 loss (the paper's): "
                                  "the PDE term is an L1 norm carried in the same rows");
  SuperResolutionModel m;
  configure_sr_model(root, data, network, m);
  const auto& crop = m.options.grid;

  std::vector<RbRun> train_runs, validation_runs;
  read_sr_runs(data, m, train_runs, validation_runs);
  const RbRun& first = train_runs.front();
  std::vector<long> train_seeds, validation_seeds;
  sr_run_seeds(train_runs, validation_runs, train_seeds, validation_seeds);
  const auto [mean, stdev] = channel_statistics(train_runs);  // training runs only
  for (int c = 0; c < 4; ++c) {
    m.mean[c] = mean[c].item<double>();
    m.std[c] = stdev[c].item<double>();
  }

  const long seed = training.integer("seed");
  std::mt19937_64 engine(static_cast<std::uint64_t>(seed) * 7919 + 17);
  const long points = data.integer("points_per_crop");
  const long residual_points =
      m.gamma > 0 ? std::min<long>(points, root.section("physics").integer("residual_points")) : 0;
  const TensorSet train =
      sr_pack(m, train_runs, data.integer("crops_per_run"), points, residual_points, engine);
  const TensorSet validation =
      validation_runs.empty()
          ? TensorSet{}
          : sr_pack(m, validation_runs, data.integer("validation_crops_per_run"), points,
                    residual_points, engine);
  spdlog::info(
      "super_resolution: {} training crops ({} runs), {} validation crops ({} runs), {} "
      "points each; low-res crop {} × {} × {}",
      train.rows(), train_runs.size(), validation.rows(), validation_runs.size(), points, crop[0],
      crop[1], crop[2]);

  torch::manual_seed(static_cast<std::uint64_t>(seed));
  srm::MeshfreeFlowNet net(m.options);
  const LowResGrid grid = downsample(first, m.downsampling);
  SrTrainingNetwork wrapper(net, m.scales(first, grid), m.gamma, points, residual_points);
  if (runtime.root()) std::filesystem::create_directories(output_dir);
  Trainer trainer(training, collective_data_parallel(runtime.comm()));
  const TrainResult fit = trainer.fit(wrapper, train, validation, output_dir, resume, max_epochs);
  m.network = net;
  m.network->eval();

  const nlohmann::json terms = sr_loss_terms_json(wrapper, train, validation);
  long parameters = 0;
  for (const auto& p : net->parameters()) parameters += p.numel();
  m.training = sr_training_record(config_path, fit, train_runs, validation_runs, train_seeds,
                                  validation_seeds);
  results["family"] = kFamilyName;
  results["parameters"] = parameters;
  results["crops"] = {{"train", train.rows()}, {"validation", validation.rows()}};
  results["epochs_trained"] = fit.history.size();
  results["best_epoch"] = fit.best_epoch;
  results["best_validation_loss"] = fit.best_validation_loss;
  results["final_train_loss"] = fit.history.empty() ? NAN : fit.history.back().train_loss;
  results["loss_terms"] = terms;
  results["samples_per_second"] = fit.samples_per_second;
  results["query_points_per_second"] = fit.samples_per_second * double(points);
  results["data_parallel_ranks"] = runtime.size();
  results["optimizer_state_bytes"] = fit.optimizer_state_bytes;  // rank 0's (a part if sharded)
  results["gradient_sync_seconds"] = fit.gradient_sync_seconds;  // rank 0's
  results["training_cpu_seconds"] = fit.cpu_seconds;             // all ranks
  results["channel_mean"] = m.mean;
  results["channel_std"] = m.std;
  results["finished"] =
      static_cast<long>(fit.history.size()) >= training.integer("epochs") || fit.stopped_early;
  if (runtime.root()) save_sr_model_outputs(m, output_dir, results);
}

}  // namespace surrox::training::super_resolution

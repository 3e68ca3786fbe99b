#include "surrogates/deep_potential/se_e2_a.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/error.hpp"

namespace surrox::surrogates::deep_potential {

long SeE2aConfig::slots() const {
  long n = 0;
  for (int s : sel) n += s;
  return n;
}

torch::Dtype SeE2aConfig::network_dtype() const {
  if (precision == "float64") return torch::kFloat64;
  if (precision == "float32") return torch::kFloat32;
  throw InputError("precision must be float64 or float32; got " + precision);
}

nlohmann::json SeE2aConfig::to_json() const {
  nlohmann::json j = {
      {"type_map", type_map}, {"rcut", rcut},           {"rcut_smth", rcut_smth},
      {"sel", sel},           {"embedding", embedding}, {"axis_neuron", axis_neuron},
      {"fitting", fitting},   {"resnet_dt", resnet_dt}, {"seed", seed}};
  // Written only when used, so models without them keep their metadata as before.
  if (angular_order != 1) j["angular_order"] = angular_order;
  if (three_body.enabled()) j["three_body"] = three_body.to_json();
  if (radial()) j["radial_embedding"] = radial_embedding;
  if (precision != "float64") j["precision"] = precision;
  return j;
}

SeE2aConfig SeE2aConfig::from_json(const nlohmann::json& j) {
  SeE2aConfig c;
  c.type_map = j.at("type_map").get<std::vector<std::string>>();
  c.rcut = j.at("rcut");
  c.rcut_smth = j.at("rcut_smth");
  c.sel = j.at("sel").get<std::vector<int>>();
  c.embedding = j.at("embedding").get<std::vector<long>>();
  c.axis_neuron = j.at("axis_neuron");
  c.fitting = j.at("fitting").get<std::vector<long>>();
  c.resnet_dt = j.at("resnet_dt");
  c.seed = j.at("seed");
  c.angular_order = j.value("angular_order", 1L);
  if (j.contains("three_body")) c.three_body = SeE3Config::from_json(j.at("three_body"));
  if (j.contains("radial_embedding"))
    c.radial_embedding = j.at("radial_embedding").get<std::vector<long>>();
  c.precision = j.value("precision", "float64");
  return c;
}

DpLayerImpl::DpLayerImpl(long in, long out, bool activation, bool resnet, bool timestep,
                         at::Generator& generator)
    : activation_(activation), resnet_(resnet) {
  // DeePMD-kit's initialisation: w ~ N(0, 1/√(in + out)), b ~ N(0, 1), idt ~ N(0.1, 0.001).
  const auto f64 = torch::kFloat64;
  w_ = register_parameter("w",
                          torch::randn({in, out}, generator, f64) / std::sqrt(double(in + out)));
  b_ = register_parameter("b", torch::randn({out}, generator, f64));
  if (timestep) idt_ = register_parameter("idt", 0.1 + 0.001 * torch::randn({out}, generator, f64));
}

torch::Tensor DpLayerImpl::forward(const torch::Tensor& x) {
  torch::Tensor y = torch::matmul(x, w_) + b_;
  if (activation_) y = torch::tanh(y);
  if (idt_.defined()) y = y * idt_;
  const long in = w_.size(0), out = w_.size(1);
  if (resnet_ && out == in) y = y + x;
  if (resnet_ && out == 2 * in) y = y + torch::cat({x, x}, -1);
  return y;
}

EnvBatch make_batch(const std::vector<FrameEnvironment>& frames, const std::vector<int>& types,
                    int ntypes) {
  EnvBatch b;
  b.frames = static_cast<long>(frames.size());
  b.atoms = static_cast<long>(types.size());
  if (b.frames == 0) throw Error("make_batch: no frames");
  const long slots = frames[0].slots, a = b.frames * b.atoms;
  auto rij = torch::empty({a, slots, 3}, torch::kFloat64);
  auto neighbor = torch::empty({a, slots}, torch::kInt64);
  double* pr = rij.data_ptr<double>();
  long* pn = neighbor.data_ptr<long>();
  for (long f = 0; f < b.frames; ++f) {
    const FrameEnvironment& e = frames[f];
    if (e.atoms != b.atoms || e.slots != slots) throw Error("make_batch: frames differ in shape");
    std::copy(e.rij.begin(), e.rij.end(), pr + f * b.atoms * slots * 3);
    for (long k = 0; k < b.atoms * slots; ++k)
      pn[f * b.atoms * slots + k] = e.neighbor[k] < 0 ? -1 : e.neighbor[k] + f * b.atoms;
  }
  b.rij = rij;
  b.neighbor = neighbor;
  for (int t = 0; t < ntypes; ++t) {
    std::vector<long> rows;
    for (long f = 0; f < b.frames; ++f)
      for (long i = 0; i < b.atoms; ++i)
        if (types[i] == t) rows.push_back(f * b.atoms + i);
    b.of_type.push_back(torch::tensor(rows, torch::kInt64));
  }
  return b;
}

SeE2aModelImpl::SeE2aModelImpl(SeE2aConfig config) : config_(std::move(config)) {
  const int nt = config_.ntypes();
  if (static_cast<int>(config_.sel.size()) != nt)
    throw InputError(
        fmt::format("sel has {} entries but type_map names {} types", config_.sel.size(), nt));
  if (!(config_.rcut_smth < config_.rcut)) throw InputError("rcut_smth must be smaller than rcut");
  if (config_.axis_neuron > config_.embedding.back())
    throw InputError("axis_neuron must not exceed the last embedding width");
  config_.network_dtype();  // an unknown precision is an InputError here
  if (config_.angular_order != 1 && config_.angular_order != 2)
    throw InputError(fmt::format("angular_order must be 1 or 2; got {}", config_.angular_order));
  const SeE3Config& e3 = config_.three_body;
  if (e3.enabled()) {
    if (static_cast<int>(e3.sel.size()) != nt)
      throw InputError(fmt::format("three_body.sel has {} entries but type_map names {} types",
                                   e3.sel.size(), nt));
    for (int t = 0; t < nt; ++t)
      if (e3.sel[t] < 1 || e3.sel[t] > config_.sel[t])
        throw InputError(fmt::format(
            "three_body.sel[{}] = {} must lie in [1, sel[{}] = {}]: the three-body slots are "
            "the nearest of se_e2_a's",
            t, e3.sel[t], t, config_.sel[t]));
    if (!(e3.rcut_smth < e3.rcut) || e3.rcut > config_.rcut)
      throw InputError(
          fmt::format("three_body needs rcut_smth < rcut <= se_e2_a's rcut ({}); got {} and {}",
                      config_.rcut, e3.rcut_smth, e3.rcut));
  }
  // A generator of its own: building a model leaves torch's global random state alone.
  at::Generator generator =
      at::make_generator<at::CPUGeneratorImpl>(static_cast<std::uint64_t>(config_.seed));
  offset_.assign(nt + 1, 0);
  for (int t = 0; t < nt; ++t) offset_[t + 1] = offset_[t] + config_.sel[t];
  for (int ti = 0; ti < nt; ++ti)
    for (int tj = 0; tj < nt; ++tj) {
      torch::nn::Sequential net;
      long in = 1;
      for (long width : config_.embedding) {
        net->push_back(DpLayer(in, width, true, true, false, generator));
        in = width;
      }
      embedding_.push_back(register_module(fmt::format("embedding_{}_{}", ti, tj), net));
    }
  const long descriptor = config_.angular_order * config_.embedding.back() * config_.axis_neuron +
                          (e3.enabled() ? e3.embedding.back() : 0) +
                          (config_.radial() ? config_.radial_embedding.back() : 0);
  for (int t = 0; t < nt; ++t) {
    torch::nn::Sequential net;
    long in = descriptor;
    for (long width : config_.fitting) {
      net->push_back(DpLayer(in, width, true, true, config_.resnet_dt, generator));
      in = width;
    }
    net->push_back(DpLayer(in, 1, false, false, false, generator));
    fitting_.push_back(register_module(fmt::format("fitting_{}", t), net));
  }
  const long columns = config_.environment_columns();
  davg = register_buffer("davg", torch::zeros({nt, columns}, torch::kFloat64));
  dstd = register_buffer("dstd", torch::ones({nt, columns}, torch::kFloat64));
  bias = register_buffer("bias", torch::zeros({nt}, torch::kFloat64));
  // The optional parts last, each drawing its weights after the ones before it existed: a model
  // without them draws the same weights as before they were added.
  auto embedding_net = [&](const std::vector<long>& widths) {
    torch::nn::Sequential net;
    long in = 1;
    for (long width : widths) {
      net->push_back(DpLayer(in, width, true, true, false, generator));
      in = width;
    }
    return net;
  };
  if (e3.enabled()) {
    for (int tj = 0; tj < nt; ++tj)
      for (int tk = 0; tk < nt; ++tk)
        three_body_embedding_.push_back(
            tk < tj ? torch::nn::Sequential(nullptr)
                    : register_module(fmt::format("three_body_embedding_{}_{}", tj, tk),
                                      embedding_net(e3.embedding)));
    davg3 = register_buffer("davg3", torch::zeros({nt, 4}, torch::kFloat64));
    dstd3 = register_buffer("dstd3", torch::ones({nt, 4}, torch::kFloat64));
    three_body_slots_ = three_body_slot_index(config_.sel, e3.sel);
  }
  if (config_.radial())
    for (int ti = 0; ti < nt; ++ti)
      for (int tj = 0; tj < nt; ++tj)
        radial_embedding_.push_back(register_module(fmt::format("radial_embedding_{}_{}", ti, tj),
                                                    embedding_net(config_.radial_embedding)));
  // Drawn in float64 as above (the same draws for every precision), then rounded.
  if (config_.network_dtype() != torch::kFloat64)
    for_each_net([&](torch::nn::Sequential& net) { net->to(config_.network_dtype()); });
}

void SeE2aModelImpl::for_each_net(const std::function<void(torch::nn::Sequential&)>& visit) {
  for (auto* nets : {&embedding_, &fitting_, &three_body_embedding_, &radial_embedding_})
    for (auto& net : *nets)
      if (!net.is_empty()) visit(net);
}

torch::Tensor environment_matrix(const torch::Tensor& rij, double rcut_smth, double rcut,
                                 long angular_order) {
  const double rs = rcut_smth, rc = rcut;
  const torch::Tensor r2 = (rij * rij).sum(-1, true);  // (A, slots, 1)
  const torch::Tensor filled = r2 > 0;
  // Empty slots: r = 1 keeps every derivative finite; the row is then zeroed.
  const torch::Tensor r = torch::sqrt(torch::where(filled, r2, torch::ones_like(r2)));
  const torch::Tensor u = ((r - rs) / (rc - rs)).clamp(0.0, 1.0);
  const torch::Tensor w = u * u * u * (-6.0 * u * u + 15.0 * u - 10.0) + 1.0;
  const torch::Tensor s = w / r * filled;
  const torch::Tensor n = rij / r;
  if (angular_order < 2) return torch::cat({s, s * n}, -1);
  // The l = 2 block: s times the traceless n ⊗ n as six components whose dot product is
  // n_j n_j : n_k n_k − 1/3 = (n_j · n_k)² − 1/3.
  const torch::Tensor x = n.narrow(-1, 0, 1), y = n.narrow(-1, 1, 1), z = n.narrow(-1, 2, 1);
  const double root2 = std::sqrt(2.0);
  return torch::cat({s, s * n, s * (x * x - 1.0 / 3), s * (y * y - 1.0 / 3), s * (z * z - 1.0 / 3),
                     s * root2 * x * y, s * root2 * x * z, s * root2 * y * z},
                    -1);
}

std::pair<torch::Tensor, torch::Tensor> environment_with_derivative(const torch::Tensor& rij_in,
                                                                    double rcut_smth, double rcut,
                                                                    long angular_order) {
  torch::Tensor rij = rij_in.detach().requires_grad_(true);
  torch::Tensor env;
  std::vector<torch::Tensor> columns;
  {
    torch::AutoGradMode enable(true);
    env = environment_matrix(rij, rcut_smth, rcut, angular_order);
    // Row k of R depends only on r_k, so the gradient of a column's sum is that column's
    // derivative slot by slot.
    const long width = env.size(-1);
    for (long c = 0; c < width; ++c)
      columns.push_back(torch::autograd::grad({env.select(-1, c).sum()}, {rij}, {},
                                              /*retain_graph=*/c < width - 1)[0]);
  }
  return {env.detach(), torch::stack(columns, -2).detach()};  // (…, C), (…, C, 3)
}

void precompute_environment(EnvBatch& batch, double rcut_smth, double rcut) {
  std::tie(batch.env, batch.env_deriv) = environment_with_derivative(batch.rij, rcut_smth, rcut);
}

void precompute_environment(EnvBatch& batch, const SeE2aConfig& config) {
  std::tie(batch.env, batch.env_deriv) =
      environment_with_derivative(batch.rij, config.rcut_smth, config.rcut, config.angular_order);
  const SeE3Config& e3 = config.three_body;
  if (!e3.enabled()) return;
  std::tie(batch.env3, batch.env3_deriv) = environment_with_derivative(
      batch.rij.index_select(1, three_body_slot_index(config.sel, e3.sel)), e3.rcut_smth, e3.rcut);
}

torch::Tensor SeE2aModelImpl::three_body_environment(const torch::Tensor& rij) const {
  return deep_potential::environment_matrix(rij.index_select(1, three_body_slots_),
                                            config_.three_body.rcut_smth, config_.three_body.rcut);
}

torch::Tensor SeE2aModelImpl::environment_matrix(const torch::Tensor& rij) const {
  return deep_potential::environment_matrix(rij, config_.rcut_smth, config_.rcut,
                                            config_.angular_order);
}

torch::Tensor SeE2aModelImpl::atomic_energy(const torch::Tensor& rij, const EnvBatch& batch) {
  return atomic_energy_of_env(
      environment_matrix(rij),
      config_.three_body.enabled() ? three_body_environment(rij) : torch::Tensor(), batch);
}

torch::Tensor SeE2aModelImpl::atomic_energy_of_env(const torch::Tensor& env,
                                                   const torch::Tensor& env3,
                                                   const EnvBatch& batch) {
  const int nt = config_.ntypes();
  const long slots = config_.slots(), m2 = config_.axis_neuron;
  torch::Tensor energy = torch::zeros({env.size(0)}, env.options());
  for (int ti = 0; ti < nt; ++ti) {
    const torch::Tensor& rows = batch.of_type[ti];
    if (rows.numel() == 0) continue;
    const torch::Tensor r = ((env.index_select(0, rows) - davg[ti]) / dstd[ti])
                                .to(config_.network_dtype());  // (n, slots, C)
    torch::Tensor gr, radial;
    for (int tj = 0; tj < nt; ++tj) {
      const torch::Tensor rr = r.narrow(1, offset_[tj], config_.sel[tj]);
      if (config_.radial()) {
        const torch::Tensor part = embed_radial(ti, tj, rr.narrow(2, 0, 1)).sum(1);
        radial = radial.defined() ? radial + part : part;
      }
      // Compressed: DeePMD-kit's fused table product, G never formed.
      const torch::Tensor part =
          compressed() && rr.size(2) == 4
              ? fused_table_product(rr.to(torch::kFloat64), tables_[ti * nt + tj], table_params_,
                                    *overflow_)
                    .to(rr.scalar_type())
              : torch::matmul(rr.transpose(1, 2), embed(ti, tj, rr.narrow(2, 0, 1)));
      gr = gr.defined() ? gr + part : part;
    }
    gr = gr / static_cast<double>(slots);
    // (n, M1, M2) per angular block: l ≤ 1 (DeePMD-kit's), and with angular_order 2 the l = 2
    // block alone, so the fitting net sees Σ G G cos θ and Σ G G (cos² θ − 1/3) apart.
    const torch::Tensor g1 = gr.narrow(1, 0, 4);
    torch::Tensor d = torch::matmul(g1.transpose(1, 2), g1.narrow(2, 0, m2)).flatten(1);
    if (gr.size(1) > 4) {
      const torch::Tensor g2 = gr.narrow(1, 4, gr.size(1) - 4);
      d = torch::cat({d, torch::matmul(g2.transpose(1, 2), g2.narrow(2, 0, m2)).flatten(1)}, 1);
    }
    if (config_.three_body.enabled()) {
      const torch::Tensor raw3 = env3.index_select(0, rows);
      const torch::Tensor r3 = ((raw3 - davg3[ti]) / dstd3[ti]).to(config_.network_dtype());
      const std::vector<int>& sel3 = config_.three_body.sel;
      d = torch::cat({d, three_body_descriptor(r3, sel3, three_body_slots_in_use(raw3, sel3),
                                               [&](int tj, int tk, const torch::Tensor& x) {
                                                 return embed_three_body(tj, tk, x);
                                               })},
                     1);
    }
    // se_e2_r: the mean over all slots (DeePMD-kit's per-type means weighted by sel/Σsel)
    // times its res_rescale 1/5.
    if (config_.radial()) d = torch::cat({d, radial / (5.0 * static_cast<double>(slots))}, 1);
    const torch::Tensor e = fitting_[ti]->forward(d).squeeze(-1).to(torch::kFloat64) + bias[ti];
    energy = energy.index_add(0, rows, e);
  }
  return energy;
}

namespace {

// A table (float64 always) at x of the nets' precision, in that precision.
torch::Tensor table_at(const torch::Tensor& x, const torch::Tensor& table,
                       const TableParams& params, TableOverflow& overflow) {
  return evaluate_table(x.to(torch::kFloat64), table, params, overflow).to(x.scalar_type());
}

// An embedding net tabulated in float64 from its exact weights (a float32 net is widened for
// the tabulation and rounded back, which restores its weights exactly).
torch::Tensor tabulate_net(torch::nn::Sequential& net, const TableParams& params) {
  const auto dtype = net->parameters().at(0).scalar_type();
  net->to(torch::kFloat64);
  torch::Tensor table =
      tabulate_embedding([&](const torch::Tensor& x) { return net->forward(x); }, params);
  net->to(dtype);
  return table;
}

// s(r_min) = w(r_min)/r_min, the largest s a table must cover (environment_matrix's switch at
// one distance); InputError unless 0 < r_min < rcut. `what` names the cutoff in the message.
double largest_s(double r_min, double rcut_smth, double rcut, const char* what) {
  if (!(r_min > 0) || !(r_min < rcut))
    throw InputError(fmt::format(
        "the smallest neighbour distance must lie in (0, {} = {}) Å; got {}", what, rcut, r_min));
  const double u = std::clamp((r_min - rcut_smth) / (rcut - rcut_smth), 0.0, 1.0);
  return (u * u * u * (-6 * u * u + 15 * u - 10) + 1) / r_min;
}

}  // namespace

torch::Tensor SeE2aModelImpl::embed(int ti, int tj, const torch::Tensor& x) {
  const int k = ti * config_.ntypes() + tj;
  if (compressed()) return table_at(x, tables_[k], table_params_, *overflow_);
  return embedding_[k]->forward(x);
}

torch::Tensor SeE2aModelImpl::embed_radial(int ti, int tj, const torch::Tensor& x) {
  const int k = ti * config_.ntypes() + tj;
  if (compressed()) return table_at(x, radial_tables_[k], table_params_, *overflow_);
  return radial_embedding_[k]->forward(x);
}

torch::Tensor SeE2aModelImpl::embed_three_body(int tj, int tk, const torch::Tensor& x) {
  const int k = tj * config_.ntypes() + tk;
  if (three_body_compressed())
    return table_at(x, three_body_tables_[k], three_body_table_params_, *overflow_);
  return three_body_embedding_[k]->forward(x);
}

void SeE2aModelImpl::compress_three_body(const TableParams& params, bool tabulate) {
  torch::NoGradGuard no_grad;
  if (!config_.three_body.enabled()) throw InputError("the model has no three-body part");
  if (three_body_compressed()) throw InputError("the three-body part is compressed already");
  const int nt = config_.ntypes();
  three_body_table_params_ = params;
  for (int tj = 0; tj < nt; ++tj)
    for (int tk = 0; tk < nt; ++tk) {
      if (tk < tj) {
        three_body_tables_.push_back(torch::Tensor());
        continue;
      }
      auto& net = three_body_embedding_[tj * nt + tk];
      torch::Tensor table =
          tabulate ? tabulate_net(net, params)
                   : torch::zeros({params.intervals(), 6, config_.three_body.embedding.back()},
                                  torch::kFloat64);
      three_body_tables_.push_back(
          register_buffer(fmt::format("three_body_table_{}_{}", tj, tk), table));
    }
}

TableParams SeE2aModelImpl::three_body_table_range(double r_min, double stride,
                                                   double extrapolate) const {
  const SeE3Config& e3 = config_.three_body;
  const double s_max = largest_s(r_min, e3.rcut_smth, e3.rcut, "three_body.rcut");
  double bound = 0;
  for (int t = 0; t < config_.ntypes(); ++t) {
    const double sd = dstd3[t][1].item<double>();
    bound = std::max(bound, (s_max / sd) * (s_max / sd));
  }
  TableParams p;
  p.stride = stride;
  p.extrapolate = extrapolate;
  p.lower = -bound;
  p.upper = bound;
  return p;
}

void SeE2aModelImpl::compress(const TableParams& params, bool tabulate) {
  torch::NoGradGuard no_grad;
  if (compressed()) throw InputError("the model is compressed already");
  const int nt = config_.ntypes();
  table_params_ = params;
  // The se_e2_r nets take the same normalised s, so they share the range.
  auto table_of = [&](torch::nn::Sequential& net, long width) {
    return tabulate ? tabulate_net(net, params)
                    : torch::zeros({params.intervals(), 6, width}, torch::kFloat64);
  };
  for (int ti = 0; ti < nt; ++ti)
    for (int tj = 0; tj < nt; ++tj) {
      const int k = ti * nt + tj;
      tables_.push_back(register_buffer(fmt::format("table_{}_{}", ti, tj),
                                        table_of(embedding_[k], config_.embedding.back())));
      if (config_.radial())
        radial_tables_.push_back(
            register_buffer(fmt::format("radial_table_{}_{}", ti, tj),
                            table_of(radial_embedding_[k], config_.radial_embedding.back())));
    }
  overflow_ = std::make_shared<TableOverflow>();
}

TableParams SeE2aModelImpl::table_range(double r_min, double stride, double extrapolate) const {
  const double s_max = largest_s(r_min, config_.rcut_smth, config_.rcut, "rcut");
  TableParams p;
  p.stride = stride;
  p.extrapolate = extrapolate;
  p.lower = std::numeric_limits<double>::max();
  p.upper = -std::numeric_limits<double>::max();
  for (int t = 0; t < config_.ntypes(); ++t) {
    const double avg = davg[t][0].item<double>(), sd = dstd[t][0].item<double>();
    p.lower = std::min(p.lower, (0.0 - avg) / sd);
    p.upper = std::max(p.upper, (s_max - avg) / sd);
  }
  if (!(p.upper > 0))
    throw InputError(fmt::format(
        "compression: the table's upper bound (normalised s = {:.4g}) is not positive, so "
        "extrapolate × upper would not extend it; are the model's statistics set?",
        p.upper));
  return p;
}

namespace {

// DeePMD-kit's statistics of raw environment matrices (one per batch) per centre type.
std::pair<torch::Tensor, torch::Tensor> environment_statistics(
    const std::vector<torch::Tensor>& envs, const std::vector<EnvBatch>& batches, int nt) {
  std::vector<double> sum_r(nt, 0), sum_r2(nt, 0), sum_a(nt, 0), sum_a2(nt, 0), rows(nt, 0);
  std::vector<double> sum_q(nt, 0), sum_q2(nt, 0);  // the l = 2 columns, if any
  const long columns = envs.empty() ? 4 : envs[0].size(-1);
  for (std::size_t k = 0; k < batches.size(); ++k) {
    const EnvBatch& b = batches[k];
    const torch::Tensor& env = envs[k];
    for (int t = 0; t < nt; ++t) {
      if (b.of_type[t].numel() == 0) continue;
      const torch::Tensor e = env.index_select(0, b.of_type[t]).reshape({-1, columns});
      const torch::Tensor r = e.narrow(1, 0, 1), a = e.narrow(1, 1, 3);
      sum_r[t] += r.sum().item<double>();
      sum_r2[t] += (r * r).sum().item<double>();
      sum_a[t] += a.sum().item<double>();
      sum_a2[t] += (a * a).sum().item<double>();
      if (columns > 4) {
        const torch::Tensor q = e.narrow(1, 4, columns - 4);
        sum_q[t] += q.sum().item<double>();
        sum_q2[t] += (q * q).sum().item<double>();
      }
      rows[t] += static_cast<double>(e.size(0));
    }
  }
  auto stddev = [](double s, double s2, double n) {
    if (n == 0) return 0.1;
    const double v = std::sqrt(std::max(0.0, s2 / n - (s / n) * (s / n)));
    return v < 1e-2 ? 1e-2 : v;
  };
  auto avg = torch::zeros({nt, columns}, torch::kFloat64);
  auto std = torch::ones({nt, columns}, torch::kFloat64);
  for (int t = 0; t < nt; ++t) {
    avg[t][0] = rows[t] > 0 ? sum_r[t] / rows[t] : 0.0;
    std[t][0] = stddev(sum_r[t], sum_r2[t], rows[t]);
    const double sa = stddev(sum_a[t], sum_a2[t], 3 * rows[t]);
    for (int c = 1; c < 4; ++c) std[t][c] = sa;
    // The l = 2 columns like the l = 1 ones: mean 0, one σ for the block.
    const double sq = stddev(sum_q[t], sum_q2[t], (columns - 4) * rows[t]);
    for (long c = 4; c < columns; ++c) std[t][c] = sq;
  }
  return {avg, std};
}

}  // namespace

void SeE2aModelImpl::compute_statistics(const std::vector<EnvBatch>& batches) {
  torch::NoGradGuard no_grad;
  const int nt = config_.ntypes();
  std::vector<torch::Tensor> envs, envs3;
  for (const EnvBatch& b : batches) {
    envs.push_back(environment_matrix(b.rij));
    if (config_.three_body.enabled()) envs3.push_back(three_body_environment(b.rij));
  }
  auto [avg, std] = environment_statistics(envs, batches, nt);
  davg.copy_(avg);
  dstd.copy_(std);
  if (!config_.three_body.enabled()) return;
  auto [avg3, std3] = environment_statistics(envs3, batches, nt);
  davg3.copy_(avg3);
  dstd3.copy_(std3);
}

void SeE2aModelImpl::fit_energy_bias(const std::vector<std::vector<long>>& type_counts,
                                     const std::vector<double>& energies) {
  torch::NoGradGuard no_grad;
  const long frames = static_cast<long>(energies.size()), nt = config_.ntypes();
  auto a = torch::zeros({frames, nt}, torch::kFloat64);
  for (long f = 0; f < frames; ++f)
    for (long t = 0; t < nt; ++t) a[f][t] = static_cast<double>(type_counts[f][t]);
  const auto e = torch::tensor(energies, torch::kFloat64).unsqueeze(1);
  // Minimum-norm least squares (a type absent from the data gets bias 0).
  const auto solution = torch::matmul(torch::linalg::pinv(a), e).squeeze(1);
  bias.copy_(solution);
}

Prediction predict(SeE2aModel& model, const EnvBatch& batch, bool create_graph) {
  Prediction p;
  torch::Tensor g;  // ∂E/∂r_ij (A, slots, 3)
  const bool three_body = model->config().three_body.enabled();
  if (batch.env.defined()) {
    if (three_body && !batch.env3.defined())
      throw Error("predict: the batch's precomputed environment lacks the three-body part");
    // ∂E/∂r_ij = Σ_c ∂E/∂R_c · ∂R_c/∂r_ij with the precomputed ∂R/∂r_ij (and the three-body
    // part's likewise, added to the slots it uses).
    torch::Tensor env = batch.env.detach().requires_grad_(true);
    torch::Tensor env3 = three_body ? batch.env3.detach().requires_grad_(true) : torch::Tensor();
    p.energy =
        model->atomic_energy_of_env(env, env3, batch).view({batch.frames, batch.atoms}).sum(1);
    std::vector<torch::Tensor> inputs{env};
    if (three_body) inputs.push_back(env3);
    const auto ge = torch::autograd::grad({p.energy.sum()}, inputs, {}, create_graph, create_graph);
    g = torch::matmul(ge[0].unsqueeze(-2), batch.env_deriv).squeeze(-2);
    if (three_body)
      g = g.index_add(1, model->three_body_slots(),
                      torch::matmul(ge[1].unsqueeze(-2), batch.env3_deriv).squeeze(-2));
  } else {
    torch::Tensor rij = batch.rij.detach().requires_grad_(true);
    p.energy = model->atomic_energy(rij, batch).view({batch.frames, batch.atoms}).sum(1);
    g = torch::autograd::grad({p.energy.sum()}, {rij}, {}, create_graph, create_graph)[0];
  }
  // −∂E/∂x_i: +Σ_k g_ik as the centre (r_ij = x_j − x_i), −g_ki as the neighbour of k.
  const torch::Tensor filled = (batch.neighbor >= 0).unsqueeze(-1);
  const torch::Tensor gm = g * filled;
  const long a = batch.rij.size(0), slots = batch.rij.size(1);
  const torch::Tensor self =
      torch::arange(a, batch.neighbor.options()).unsqueeze(1).expand({a, slots});
  const torch::Tensor j = torch::where(batch.neighbor >= 0, batch.neighbor, self).reshape({-1});
  const torch::Tensor force = gm.sum(1).index_add(0, j, -gm.reshape({-1, 3}));
  p.force = force.view({batch.frames, batch.atoms, 3});
  const torch::Tensor w = -(batch.rij.unsqueeze(-1) * gm.unsqueeze(-2)).sum(1);  // (A,3,3)
  p.virial = w.view({batch.frames, batch.atoms, 9}).sum(1);
  return p;
}

}  // namespace surrox::surrogates::deep_potential

#include "surrogates/deep_potential/training_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"

namespace surrox::surrogates::deep_potential {

std::vector<long> SystemData::type_counts(int ntypes) const {
  std::vector<long> counts(ntypes, 0);
  for (int t : types) ++counts[t];
  return counts;
}

std::vector<SystemData> load_systems(const std::vector<std::filesystem::path>& paths,
                                     const SeE2aConfig& config, bool labelled) {
  std::vector<SystemData> out;
  for (const auto& root : paths)
    for (const auto& dir : io::find_deepmd_systems(root)) {
      SystemData s;
      s.path = dir.string();
      s.frames = io::read_deepmd_system(dir);
      for (int t : s.frames.types) {
        const std::string& element = s.frames.type_map[t];
        const auto it = std::find(config.type_map.begin(), config.type_map.end(), element);
        if (it == config.type_map.end())
          throw InputError(fmt::format("{}: element {} is not in the model's type_map ({})", s.path,
                                       element, fmt::join(config.type_map, " ")));
        s.types.push_back(static_cast<int>(it - config.type_map.begin()));
      }
      if (labelled && (s.frames.energy.empty() || s.frames.force.empty()))
        throw InputError(fmt::format("{}: frames without energy.npy or force.npy labels", s.path));
      const SeE3Config& e3 = config.three_body;
      std::vector<int> most(config.ntypes(), 0), most3(config.ntypes(), 0);
      for (long f = 0; f < s.frames.frames; ++f) {
        s.env.push_back(build_environment(&s.frames.coord[f * 3 * s.atoms()], &s.frames.box[9 * f],
                                          s.types, config.rcut, config.sel));
        const std::vector<int> within =
            e3.enabled() ? most_within(s.env.back(), config.sel, e3.rcut) : most3;
        for (int t = 0; t < config.ntypes(); ++t) {
          most[t] = std::max(most[t], s.env.back().most_found[t]);
          most3[t] = std::max(most3[t], within[t]);
        }
      }
      warn_if_sel_overflows(most, config.sel, config.type_map, s.path);
      if (e3.enabled())
        warn_if_sel_overflows(most3, e3.sel, config.type_map,
                              s.path + " (three_body: its rcut and sel)");
      out.push_back(std::move(s));
    }
  return out;
}

void precompute_environments(SystemData& s, const SeE2aConfig& config) {
  torch::NoGradGuard no_grad;  // precompute_environment enables the graph it needs itself
  EnvBatch all = make_batch(s.env, s.types, config.ntypes());
  precompute_environment(all, config);
  const long nf = s.frames.frames, slots = config.slots();
  const long columns = config.environment_columns();
  s.env_matrix = all.env.view({nf, s.atoms(), slots, columns});
  s.env_deriv = all.env_deriv.view({nf, s.atoms(), slots, columns, 3});
  if (!config.three_body.enabled()) return;
  const long slots3 = config.three_body.slots();
  s.env3_matrix = all.env3.view({nf, s.atoms(), slots3, 4});
  s.env3_deriv = all.env3_deriv.view({nf, s.atoms(), slots3, 4, 3});
}

EnvBatch batch_frames(const SystemData& s, const std::vector<long>& frames, int ntypes) {
  std::vector<FrameEnvironment> envs;
  for (long f : frames) envs.push_back(s.env[f]);
  EnvBatch b = make_batch(envs, s.types, ntypes);
  if (s.env_matrix.defined()) {
    const torch::Tensor index = torch::tensor(frames, torch::kInt64);
    const long rows = b.frames * b.atoms, slots = b.rij.size(1);
    const long columns = s.env_matrix.size(3);
    b.env = s.env_matrix.index_select(0, index).view({rows, slots, columns});
    b.env_deriv = s.env_deriv.index_select(0, index).view({rows, slots, columns, 3});
    if (s.env3_matrix.defined()) {
      const long slots3 = s.env3_matrix.size(2);
      b.env3 = s.env3_matrix.index_select(0, index).view({rows, slots3, 4});
      b.env3_deriv = s.env3_deriv.index_select(0, index).view({rows, slots3, 4, 3});
    }
  }
  return b;
}

Labels labels_of(const SystemData& s, const std::vector<long>& frames) {
  const long n = s.atoms(), nf = static_cast<long>(frames.size());
  const auto& d = s.frames;
  Labels l;
  l.energy = torch::empty({nf}, torch::kFloat64);
  l.force = torch::empty({nf, n, 3}, torch::kFloat64);
  for (long k = 0; k < nf; ++k) {
    l.energy[k] = d.energy[frames[k]];
    std::copy_n(&d.force[frames[k] * 3 * n], 3 * n, l.force[k].data_ptr<double>());
  }
  if (!d.virial.empty()) {
    l.virial = torch::empty({nf, 9}, torch::kFloat64);
    for (long k = 0; k < nf; ++k)
      std::copy_n(&d.virial[frames[k] * 9], 9, l.virial[k].data_ptr<double>());
  }
  return l;
}

void ErrorSums::add(const ErrorSums& o) {
  energy2 += o.energy2;
  force2 += o.force2;
  virial2 += o.virial2;
  frames += o.frames;
  force_values += o.force_values;
  virial_values += o.virial_values;
  atoms += o.atoms;
}

nlohmann::json ErrorSums::metrics() const {
  nlohmann::json j = {{"frames", frames},
                      {"atoms", atoms},
                      {"energy_rmse_per_atom", frames ? std::sqrt(energy2 / frames) : NAN},
                      {"force_rmse", force_values ? std::sqrt(force2 / force_values) : NAN}};
  j["virial_rmse_per_atom"] =
      virial_values ? nlohmann::json(std::sqrt(virial2 / virial_values)) : nlohmann::json();
  return j;
}

std::vector<std::vector<long>> frame_chunks(long first, long end, long chunk) {
  std::vector<std::vector<long>> chunks;
  for (long from = first; from < end; from += chunk) {
    chunks.emplace_back(std::min(chunk, end - from));
    std::iota(chunks.back().begin(), chunks.back().end(), from);
  }
  return chunks;
}

ErrorSums evaluate_system(SeE2aModel& model, const SystemData& s, long chunk, long first, long last,
                          ParityRows* parity) {
  ErrorSums sums;
  const double n = static_cast<double>(s.atoms());
  const long end = last < 0 ? s.frames.frames : std::min(last, s.frames.frames);
  for (const std::vector<long>& frames : frame_chunks(first, end, chunk)) {
    const EnvBatch batch = batch_frames(s, frames, model->config().ntypes());
    const Prediction p = predict(model, batch, false);
    const Labels l = labels_of(s, frames);
    sums.energy2 += ((p.energy.detach() - l.energy) / n).pow(2).sum().item<double>();
    sums.force2 += (p.force.detach() - l.force).pow(2).sum().item<double>();
    sums.force_values += l.force.numel();
    if (l.virial.defined()) {
      sums.virial2 += ((p.virial.detach() - l.virial) / n).pow(2).sum().item<double>();
      sums.virial_values += l.virial.numel();
    }
    sums.frames += static_cast<long>(frames.size());
    sums.atoms += static_cast<long>(frames.size()) * s.atoms();
    if (parity) {
      auto append = [](std::vector<double>& to, const torch::Tensor& t) {
        const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat64).contiguous();
        to.insert(to.end(), c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
      };
      append(parity->energy_label, l.energy / n);
      append(parity->energy_model, p.energy / n);
      append(parity->force_label, l.force);
      append(parity->force_model, p.force);
    }
  }
  return sums;
}

}  // namespace surrox::surrogates::deep_potential

#include "surrogates/deep_potential/se_e3.hpp"

namespace surrox::surrogates::deep_potential {

long SeE3Config::slots() const {
  long n = 0;
  for (int s : sel) n += s;
  return n;
}

nlohmann::json SeE3Config::to_json() const {
  return {{"rcut", rcut}, {"rcut_smth", rcut_smth}, {"sel", sel}, {"embedding", embedding}};
}

SeE3Config SeE3Config::from_json(const nlohmann::json& j) {
  SeE3Config c;
  c.rcut = j.at("rcut");
  c.rcut_smth = j.at("rcut_smth");
  c.sel = j.at("sel").get<std::vector<int>>();
  c.embedding = j.at("embedding").get<std::vector<long>>();
  return c;
}

torch::Tensor three_body_slot_index(const std::vector<int>& sel,
                                    const std::vector<int>& three_body_sel) {
  std::vector<long> index;
  long offset = 0;
  for (std::size_t t = 0; t < sel.size(); ++t) {
    for (int k = 0; k < three_body_sel[t]; ++k) index.push_back(offset + k);
    offset += sel[t];
  }
  return torch::tensor(index, torch::kInt64);
}

std::vector<int> three_body_slots_in_use(const torch::Tensor& raw, const std::vector<int>& sel) {
  std::vector<int> used;
  long offset = 0;
  for (int n : sel) {
    // A slot's raw s is > 0 exactly inside the three-body rcut (the switch is 0 at and beyond it).
    // The last such slot of any centre + 1 (the nearest-first order makes it the count; taking
    // the position keeps the result exact whatever the order).
    const torch::Tensor inside = raw.narrow(1, offset, n).select(2, 0) > 0;  // (centres, n)
    const torch::Tensor position = torch::arange(1, n + 1, torch::kInt64);
    used.push_back(
        inside.numel() == 0
            ? 0
            : static_cast<int>((inside.to(torch::kInt64) * position).max().item<long>()));
    offset += n;
  }
  return used;
}

}  // namespace surrox::surrogates::deep_potential

#include "solvers/md/pair_sw.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace surrox::solvers::md {

Schema PairSw::schema() {
  Schema s("Stillinger–Weber three-body potential, LAMMPS pair_style sw.");
  s.input_path("file", "LAMMPS .sw parameter file (e.g. Si.sw)");
  s.string("elements", "element of each atom type, in type order, space-separated").fallback("Si");
  return s;
}

PairSw::PairSw(const CaseNode& c, const std::string& units)
    : PairSw(c.string("file"), c.string("elements")) {
  if (units != "metal")
    c.fail("file", "Stillinger–Weber parameter files are in metal units; set solver.units: metal");
}

PairSw::PairSw(const std::string& file, const std::string& elements) {
  std::istringstream in_elements(elements);
  for (std::string e; in_elements >> e;) elements_.push_back(e);
  if (elements_.empty()) throw InputError("pair sw: no elements given");
  std::ifstream in(file);
  if (!in) throw InputError("cannot open the Stillinger–Weber file " + file);
  // Entries of 14 words, possibly over several lines; '#' starts a comment.
  std::vector<std::pair<std::string, int>> words;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    std::istringstream ls(line.substr(0, line.find('#')));
    for (std::string w; ls >> w;) words.emplace_back(w, line_no);
  }
  if (words.size() % 14 != 0)
    throw InputError(fmt::format("{} entries have 14 words each; the file has {} words",
                                 "Stillinger–Weber", words.size()),
                     {file, words.empty() ? 0 : words.back().second, 0, {}});
  const int ne = static_cast<int>(elements_.size());
  auto element_index = [&](const std::string& name) {
    for (int e = 0; e < ne; ++e)
      if (elements_[e] == name) return e;
    return -1;
  };
  std::vector<SwParam> params;
  std::vector<int> index(ne * ne * ne, -1);
  for (std::size_t w = 0; w < words.size(); w += 14) {
    const int e1 = element_index(words[w].first), e2 = element_index(words[w + 1].first),
              e3 = element_index(words[w + 2].first);
    if (e1 < 0 || e2 < 0 || e3 < 0) continue;
    double v[11];
    for (int k = 0; k < 11; ++k) {
      try {
        v[k] = std::stod(words[w + 3 + k].first);
      } catch (const std::logic_error&) {
        throw InputError("'" + words[w + 3 + k].first + "' is not a number",
                         {file, words[w + 3 + k].second, 0, {}});
      }
    }
    SwParam p{};
    p.epsilon = v[0], p.sigma = v[1], p.littlea = v[2], p.lambda = v[3], p.gamma = v[4],
    p.costheta = v[5];
    p.biga = v[6], p.bigb = v[7], p.powerp = v[8], p.powerq = v[9], p.tol = v[10];
    if (p.epsilon < 0 || p.sigma < 0 || p.littlea < 0 || p.lambda < 0 || p.gamma < 0 ||
        p.biga < 0 || p.bigb < 0 || p.powerp < 0 || p.powerq < 0 || p.tol < 0)
      throw InputError("illegal (negative) Stillinger–Weber parameter",
                       {file, words[w].second, 0, {}});
    p.cut = p.sigma * p.littlea;
    p.cutsq = p.cut * p.cut;
    p.sigma_gamma = p.sigma * p.gamma;
    p.lambda_epsilon = p.lambda * p.epsilon;
    p.lambda_epsilon2 = 2.0 * p.lambda * p.epsilon;
    p.c1 = p.biga * p.epsilon * p.powerp * p.bigb * std::pow(p.sigma, p.powerp);
    p.c2 = p.biga * p.epsilon * p.powerq * std::pow(p.sigma, p.powerq);
    p.c3 = p.biga * p.epsilon * p.bigb * std::pow(p.sigma, p.powerp + 1.0);
    p.c4 = p.biga * p.epsilon * std::pow(p.sigma, p.powerq + 1.0);
    p.c5 = p.biga * p.epsilon * p.bigb * std::pow(p.sigma, p.powerp);
    p.c6 = p.biga * p.epsilon * std::pow(p.sigma, p.powerq);
    auto whole = [](double power) {
      return power == std::floor(power) && power >= 0 && power <= 12 ? static_cast<int>(power) : -1;
    };
    p.whole_p = whole(p.powerp);
    p.whole_q = whole(p.powerq);
    index[(e1 * ne + e2) * ne + e3] = static_cast<int>(params.size());
    params.push_back(p);
    cutmax_ = std::max(cutmax_, p.cut);
  }
  for (int a = 0; a < ne; ++a)
    for (int b = 0; b < ne; ++b)
      for (int c = 0; c < ne; ++c)
        if (index[(a * ne + b) * ne + c] < 0)
          throw InputError(fmt::format("the Stillinger–Weber file has no entry for {} {} {}",
                                       elements_[a], elements_[b], elements_[c]),
                           {file, 0, 0, {}});
  style_.params = Kokkos::View<SwParam*>("PairSw::params", params.size());
  auto hp = Kokkos::create_mirror_view(style_.params);
  for (std::size_t k = 0; k < params.size(); ++k) hp(k) = params[k];
  Kokkos::deep_copy(style_.params, hp);
  style_.elem3 = Kokkos::View<int***>("PairSw::elem3param", ne + 1, ne + 1, ne + 1);
  auto he = Kokkos::create_mirror_view(style_.elem3);
  for (int a = 0; a < ne; ++a)
    for (int b = 0; b < ne; ++b)
      for (int c = 0; c < ne; ++c) he(a + 1, b + 1, c + 1) = index[(a * ne + b) * ne + c];
  Kokkos::deep_copy(style_.elem3, he);
}

void PairSw::check(const System& s) const {
  if (s.ntypes != static_cast<int>(elements_.size()))
    throw InputError(
        fmt::format("pair sw maps {} element(s) to atom types, but the system has {} atom type(s)",
                    elements_.size(), s.ntypes));
}

}  // namespace surrox::solvers::md

#include "solvers/md/pair_sw.hpp"

#include <fmt/format.h>

#include <Kokkos_ScatterView.hpp>
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
  params_ = Kokkos::View<SwParam*>("PairSw::params", params.size());
  auto hp = Kokkos::create_mirror_view(params_);
  for (std::size_t k = 0; k < params.size(); ++k) hp(k) = params[k];
  Kokkos::deep_copy(params_, hp);
  elem3param_ = Kokkos::View<int***>("PairSw::elem3param", ne + 1, ne + 1, ne + 1);
  auto he = Kokkos::create_mirror_view(elem3param_);
  for (int a = 0; a < ne; ++a)
    for (int b = 0; b < ne; ++b)
      for (int c = 0; c < ne; ++c) he(a + 1, b + 1, c + 1) = index[(a * ne + b) * ne + c];
  Kokkos::deep_copy(elem3param_, he);
}

void PairSw::check(const System& s) const {
  if (s.ntypes != static_cast<int>(elements_.size()))
    throw InputError(
        fmt::format("pair sw maps {} element(s) to atom types, but the system has {} atom type(s)",
                    elements_.size(), s.ntypes));
}

double PairSw::compute(System& s, const NeighborList& list, bool energy) {
  return energy ? kernel<true>(s, list) : kernel<false>(s, list);
}

template <bool kEnergy>
double PairSw::kernel(System& s, const NeighborList& list) const {
  constexpr int kMaxShort = 64;
  auto x = s.x;
  auto type = s.type;
  auto tag = s.tag;
  auto neigh = list.neighbors_;
  auto count = list.count_;
  auto params = params_;
  auto elem3 = elem3param_;
  Kokkos::Experimental::ScatterView<double* [3], Kokkos::LayoutRight> scatter(s.f);
  double total = 0;
  Kokkos::View<int> overflow("PairSw::overflow");
  Kokkos::parallel_reduce(
      "PairSw::compute", s.nlocal,
      KOKKOS_LAMBDA(long i, double& eng) {
        auto f = scatter.access();
        int jshort[kMaxShort];
        SwLeg legs[kMaxShort];
        int nshort = 0;
        const long itag = tag(i);
        const int itype = type(i);
        const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
        double fxi = 0, fyi = 0, fzi = 0;
        const int n = count(i);
        for (int k = 0; k < n; ++k) {
          const int j = neigh(i, k);
          const double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
          const double rsq = dx * dx + dy * dy + dz * dz;
          const SwParam& p = params(elem3(itype, type(j), type(j)));
          if (rsq < p.cutsq) {  // a leg of the three-body terms (cutmax for one element)
            if (nshort < kMaxShort) {
              const double delr[3] = {-dx, -dy, -dz};
              sw_leg(p, delr, rsq, legs[nshort]);
              jshort[nshort++] = j;
            } else {
              overflow() = 1;
            }
          }
          // Each pair once: LAMMPS's rule on the parity of the id sum, positions for equal ids.
          const long jtag = tag(j);
          if (itag > jtag) {
            if ((itag + jtag) % 2 == 0) continue;
          } else if (itag < jtag) {
            if ((itag + jtag) % 2 == 1) continue;
          } else {
            if (x(j, 2) < zi) continue;
            if (x(j, 2) == zi && x(j, 1) < yi) continue;
            if (x(j, 2) == zi && x(j, 1) == yi && x(j, 0) < xi) continue;
          }
          if (rsq >= p.cutsq) continue;
          double e;
          const double fpair = sw_twobody(p, rsq, e);
          fxi += dx * fpair;
          fyi += dy * fpair;
          fzi += dz * fpair;
          f(j, 0) -= dx * fpair;
          f(j, 1) -= dy * fpair;
          f(j, 2) -= dz * fpair;
          if (kEnergy) eng += e;
        }
        for (int a = 0; a < nshort - 1; ++a) {
          const int j = jshort[a];
          const int tj = type(j);
          double fjx = 0, fjy = 0, fjz = 0;
          for (int b = a + 1; b < nshort; ++b) {
            const int k = jshort[b];
            double fj[3], fk[3];
            const double e =
                sw_threebody_legs(params(elem3(itype, tj, type(k))), legs[a], legs[b], fj, fk);
            fxi -= fj[0] + fk[0];
            fyi -= fj[1] + fk[1];
            fzi -= fj[2] + fk[2];
            fjx += fj[0];
            fjy += fj[1];
            fjz += fj[2];
            f(k, 0) += fk[0];
            f(k, 1) += fk[1];
            f(k, 2) += fk[2];
            if (kEnergy) eng += e;
          }
          f(j, 0) += fjx;
          f(j, 1) += fjy;
          f(j, 2) += fjz;
        }
        f(i, 0) += fxi;
        f(i, 1) += fyi;
        f(i, 2) += fzi;
      },
      total);
  Kokkos::Experimental::contribute(s.f, scatter);
  int overflowed = 0;
  Kokkos::deep_copy(overflowed, overflow);
  if (overflowed)
    throw Error(fmt::format(
        "pair sw: an atom has more than {} neighbours inside the cutoff (atoms overlap?)",
        kMaxShort));
  return total;
}

}  // namespace surrox::solvers::md

#pragma once
// The one neighbour loop of every pair style (LAMMPS KOKKOS PairComputeFunctor): a style
// supplies its physics as small inline functions and the driver does the loop, Newton's third
// law, three-body triplets and the energy and virial tallies, global and per atom.
//
// A style is a copyable struct (its coefficients in Views or by value) with
//   using List = HalfList | FullList;
//   static constexpr const char* kName;              // the registered name, for errors
//   static constexpr const char* kLabel;             // kernel label, "Class::method"
//   static constexpr bool kThreeBody;
//   bool pair(int itype, int jtype, double rsq, double& fpair, double& energy) const;
//     // false: no pair term; else F_i = fpair · (x_i − x_j) and the pair's energy
// and, when kThreeBody, legs i–j shared by the triplets (j, k) of atom i:
//   using Leg = ...;  (with a member double delr[3] = x_j − x_i)
//   static constexpr int kMaxLegs;
//   bool is_leg(int itype, int jtype, double rsq) const;
//   void make_leg(int itype, int jtype, const double* delr, double rsq, Leg& leg) const;
//   double triplet(int itype, int jtype, int ktype, const Leg& ij, const Leg& ik,
//                  double* fj, double* fk) const;  // forces on j, k (i gets −fj − fk); energy
// Half lists hold each pair once. Full lists hold every neighbour of i: pair terms are then
// taken once per pair by LAMMPS's id-parity rule, still with Newton's third law, so a pair
// term costs the same with either list. Per-atom tallies are LAMMPS's ev_tally (half of a
// pair's energy and virial to each atom) and ev_tally3 (a third to each atom of a triplet).
#include <fmt/format.h>

#include <Kokkos_ScatterView.hpp>
#include <type_traits>

#include "core/error.hpp"
#include "solvers/md/force_tally.hpp"
#include "solvers/md/neighbor_list.hpp"

namespace surrox::solvers::md {

struct HalfList {};
struct FullList {};

namespace detail {

// Whether atom i takes the pair term of (i, j) from a full list: LAMMPS's rule on the parity
// of the id sum, positions for an atom and its own periodic image.
KOKKOS_INLINE_FUNCTION bool first_of_pair(long itag, long jtag, const double* xi,
                                          const double* xj) {
  if (itag > jtag) return (itag + jtag) % 2 != 0;
  if (itag < jtag) return (itag + jtag) % 2 != 1;
  if (xj[2] < xi[2]) return false;
  if (xj[2] == xi[2] && xj[1] < xi[1]) return false;
  if (xj[2] == xi[2] && xj[1] == xi[1] && xj[0] < xi[0]) return false;
  return true;
}

// The legs of atom i's triplets (none for two-body styles).
template <class Style, bool = Style::kThreeBody>
struct Legs {
  int n = 0;
};
template <class Style>
struct Legs<Style, true> {
  typename Style::Leg leg[Style::kMaxLegs];
  int atom[Style::kMaxLegs];
  int n = 0;
};

template <class Style, bool kEnergy, bool kPerAtom>
struct PairKernel {
  static constexpr bool kFull = std::is_same_v<typename Style::List, FullList>;
  using Scatter3 = Kokkos::Experimental::ScatterView<double* [3], Kokkos::LayoutRight>;
  using Scatter1 = Kokkos::Experimental::ScatterView<double*>;
  using Scatter6 = Kokkos::Experimental::ScatterView<double* [6], Kokkos::LayoutRight>;

  Style style;
  Vec3View x;
  IntView type;
  TagView tag;
  NeighborView list;
  Scatter3 f;
  Scatter1 eatom;
  Scatter6 vatom;
  Kokkos::View<int> overflow;

  KOKKOS_INLINE_FUNCTION void operator()(long i, double& eng) const {
    auto fs = f.access();
    Legs<Style> legs;
    const int itype = type(i);
    [[maybe_unused]] const long itag = tag(i);
    const double xi[3] = {x(i, 0), x(i, 1), x(i, 2)};
    double fxi = 0, fyi = 0, fzi = 0;
    const int n = list.count(i);
    for (int k = 0; k < n; ++k) {
      const int j = list(i, k);
      const double dx = xi[0] - x(j, 0), dy = xi[1] - x(j, 1), dz = xi[2] - x(j, 2);
      const double rsq = dx * dx + dy * dy + dz * dz;
      const int jtype = type(j);
      if constexpr (Style::kThreeBody) {
        if (style.is_leg(itype, jtype, rsq)) {
          if (legs.n < Style::kMaxLegs) {
            const double delr[3] = {-dx, -dy, -dz};
            style.make_leg(itype, jtype, delr, rsq, legs.leg[legs.n]);
            legs.atom[legs.n++] = j;
          } else {
            overflow() = 1;
          }
        }
      }
      if constexpr (kFull) {
        const double xj[3] = {x(j, 0), x(j, 1), x(j, 2)};
        if (!first_of_pair(itag, tag(j), xi, xj)) continue;
      }
      double fpair, e;
      if (!style.pair(itype, jtype, rsq, fpair, e)) continue;
      fxi += dx * fpair;
      fyi += dy * fpair;
      fzi += dz * fpair;
      fs(j, 0) -= dx * fpair;
      fs(j, 1) -= dy * fpair;
      fs(j, 2) -= dz * fpair;
      if (kEnergy) eng += e;
      if (kPerAtom) {
        const double v[6] = {dx * dx * fpair, dy * dy * fpair, dz * dz * fpair,
                             dx * dy * fpair, dx * dz * fpair, dy * dz * fpair};
        tally(i, j, -1, 0.5, e, v);
      }
    }
    if constexpr (Style::kThreeBody) {
      for (int a = 0; a < legs.n - 1; ++a) {
        const int j = legs.atom[a];
        const int jtype = type(j);
        double fjx = 0, fjy = 0, fjz = 0;
        for (int b = a + 1; b < legs.n; ++b) {
          const int k = legs.atom[b];
          double fj[3], fk[3];
          const double e = style.triplet(itype, jtype, type(k), legs.leg[a], legs.leg[b], fj, fk);
          fxi -= fj[0] + fk[0];
          fyi -= fj[1] + fk[1];
          fzi -= fj[2] + fk[2];
          fjx += fj[0];
          fjy += fj[1];
          fjz += fj[2];
          fs(k, 0) += fk[0];
          fs(k, 1) += fk[1];
          fs(k, 2) += fk[2];
          if (kEnergy) eng += e;
          if (kPerAtom) {
            const double* rj = legs.leg[a].delr;
            const double* rk = legs.leg[b].delr;
            const double v[6] = {rj[0] * fj[0] + rk[0] * fk[0], rj[1] * fj[1] + rk[1] * fk[1],
                                 rj[2] * fj[2] + rk[2] * fk[2], rj[0] * fj[1] + rk[0] * fk[1],
                                 rj[0] * fj[2] + rk[0] * fk[2], rj[1] * fj[2] + rk[1] * fk[2]};
            tally(i, j, k, 1.0 / 3.0, e, v);
          }
        }
        fs(j, 0) += fjx;
        fs(j, 1) += fjy;
        fs(j, 2) += fjz;
      }
    }
    fs(i, 0) += fxi;
    fs(i, 1) += fyi;
    fs(i, 2) += fzi;
  }

  // Adds share · (e, v) to atoms i, j and, when k ≥ 0, k.
  KOKKOS_INLINE_FUNCTION void tally(long i, int j, int k, double share, double e,
                                    const double* v) const {
    auto ea = eatom.access();
    auto va = vatom.access();
    const long atoms[3] = {i, j, k};
    for (int a = 0; a < (k < 0 ? 2 : 3); ++a) {
      ea(atoms[a]) += share * e;
      for (int c = 0; c < 6; ++c) va(atoms[a], c) += share * v[c];
    }
  }
};

template <class Style, bool kEnergy, bool kPerAtom>
double run_pairs(const Style& style, System& s, const NeighborList& list, ForceTally& tally) {
  using Kernel = PairKernel<Style, kEnergy, kPerAtom>;
  Kernel kernel{style, s.x, s.type, s.tag, list.view(), typename Kernel::Scatter3(s.f), {}, {}, {}};
  if (kPerAtom) {
    kernel.eatom = typename Kernel::Scatter1(tally.eatom);
    kernel.vatom = typename Kernel::Scatter6(tally.vatom);
  }
  if (Style::kThreeBody) kernel.overflow = Kokkos::View<int>("PairKernel::overflow");
  double energy = 0;
  Kokkos::parallel_reduce(Style::kLabel, s.nlocal, kernel, energy);
  Kokkos::Experimental::contribute(s.f, kernel.f);
  if (kPerAtom) {
    Kokkos::Experimental::contribute(tally.eatom, kernel.eatom);
    Kokkos::Experimental::contribute(tally.vatom, kernel.vatom);
  }
  if constexpr (Style::kThreeBody) {
    int overflowed = 0;
    Kokkos::deep_copy(overflowed, kernel.overflow);
    if (overflowed)
      throw Error(fmt::format(
          "pair {}: an atom has more than {} neighbours inside the cutoff (atoms overlap?)",
          Style::kName, Style::kMaxLegs));
  }
  return energy;
}

}  // namespace detail

// Adds the style's forces to s.f (owned and ghost rows) and fills `tally` as it asks.
template <class Style>
void compute_pairs(const Style& style, System& s, const NeighborList& list, ForceTally& tally) {
  constexpr bool kHalf = std::is_same_v<typename Style::List, HalfList>;
  if (list.half() != kHalf)
    throw Error(
        fmt::format("pair {} needs a {} neighbour list", Style::kName, kHalf ? "half" : "full"));
  if (tally.per_atom)
    tally.potential = detail::run_pairs<Style, true, true>(style, s, list, tally);
  else if (tally.energy)
    tally.potential = detail::run_pairs<Style, true, false>(style, s, list, tally);
  else
    detail::run_pairs<Style, false, false>(style, s, list, tally);
  if (tally.energy || tally.per_atom) tally.virial = virial_fdotr(s);
}

}  // namespace surrox::solvers::md

// ctest-libraries: surrox_solvers
#include "md/support/harmonic_pair.hpp"

#include "solvers/md/pair_driver.hpp"
#include "solvers/md/potential.hpp"

namespace surrox::solvers::md::test {
namespace {

struct HarmonicCutStyle {
  using List = HalfList;
  static constexpr const char* kName = "harmonic/cut";
  static constexpr const char* kLabel = "PairHarmonicCut::compute";
  static constexpr bool kThreeBody = false;
  double k, cut;
  KOKKOS_INLINE_FUNCTION bool pair(int, int, double rsq, double& fpair, double& energy) const {
    if (rsq >= cut * cut) return false;
    const double r = sqrt(rsq), d = cut - r;
    fpair = 2.0 * k * d / r;
    energy = k * d * d;
    return true;
  }
};

class PairHarmonicCut final : public Potential {
 public:
  explicit PairHarmonicCut(const CaseNode& c) : style_{c.real("k"), c.real("cutoff")} {}
  double cutoff() const override { return style_.cut; }
  bool half_list() const override { return true; }
  void compute(System& s, const NeighborList& list, ForceTally& tally) override {
    compute_pairs(style_, s, list, tally);
  }

 private:
  HarmonicCutStyle style_;
};

}  // namespace

void register_harmonic_pair() {
  if (potential_registry().contains("harmonic/cut")) return;
  Schema schema("Soft harmonic repulsion, LAMMPS pair_style harmonic/cut.");
  schema.real("k", "stiffness (energy / length²)").above(0).fallback("1.0");
  schema.real("cutoff", "interaction cutoff r_c").above(0).fallback("1.0");
  register_potential(
      "harmonic/cut",
      [](const CaseNode& c, const std::string&) { return std::make_unique<PairHarmonicCut>(c); },
      std::move(schema), "soft harmonic repulsion (LAMMPS harmonic/cut), from a test library");
}

}  // namespace surrox::solvers::md::test

// The radial distribution function and the pressure sampled with it (LAMMPS compute rdf with
// fix ave/time), from the neighbour list: rdf.csv and summary.json's `rdf`.
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/error.hpp"
#include "solvers/md/md_output.hpp"
#include "solvers/md/md_outputs.hpp"
#include "solvers/md/md_solver.hpp"

namespace surrox::solvers::md {
namespace {

class RdfOutput final : public MdOutput {
 public:
  RdfOutput(long bins, long every) : bins_(bins), every_(every) {}

  bool needs_energy(long step) const override { return step % every_ == 0; }
  void after_step(MdSolver& md, long step) override {
    if (step % every_ == 0) sample(md);
  }

  void save(io::Hdf5Checkpoint& c) const override {
    // Every rank holds the same samples (reduced).
    if (samples_.empty()) return;
    io::HostArray g("md_rdf", samples_.size(), bins_ + 1);
    for (std::size_t k = 0; k < samples_.size(); ++k) {
      for (long b = 0; b < bins_; ++b) g(k, b) = samples_[k][b];
      g(k, bins_) = press_[k];
    }
    c.arrays.push_back({"md_rdf", g});
  }
  void load(const io::Hdf5Checkpoint& c) override {
    samples_.clear();
    press_.clear();
    const io::NamedArray* g = c.find_array("md_rdf");
    if (!g) return;
    if (static_cast<long>(g->values.extent(1)) != bins_ + 1)
      throw InputError(fmt::format("the checkpoint's RDF has {} bins, this case {}",
                                   g->values.extent(1) - 1, bins_));
    for (std::size_t k = 0; k < g->values.extent(0); ++k) {
      samples_.emplace_back(&g->values(k, 0), &g->values(k, 0) + bins_);
      press_.push_back(g->values(k, bins_));
    }
  }

  void finalize(const MdSolver& md, const std::filesystem::path& output_dir,
                nlohmann::json& results) override {
    if (samples_.empty()) return;
    const double m = static_cast<double>(samples_.size());
    auto mean_and_error = [&](auto value, double& mean, double& error) {
      double sum = 0, sum2 = 0;
      for (std::size_t s = 0; s < samples_.size(); ++s) {
        sum += value(s);
        sum2 += value(s) * value(s);
      }
      mean = sum / m;
      const double variance = m > 1 ? std::max(0.0, (sum2 - m * mean * mean) / (m - 1)) : 0.0;
      error = std::sqrt(variance / m);
    };
    const double delr = md.pair_cutoff() / bins_;
    if (md.rank() == 0) {
      std::ofstream out(output_dir / "rdf.csv");
      out << "r,g,g_stderr\n";
      for (long b = 0; b < bins_; ++b) {
        double mean = 0, error = 0;
        mean_and_error([&](std::size_t s) { return samples_[s][b]; }, mean, error);
        out << fmt::format("{:.17g},{:.17g},{:.17g}\n", (b + 0.5) * delr, mean, error);
      }
    }
    double press = 0, press_error = 0;
    mean_and_error([&](std::size_t s) { return press_[s]; }, press, press_error);
    results["rdf"] = {{"samples", static_cast<long>(samples_.size())},
                      {"press_mean", press},
                      {"press_stderr", press_error},
                      {"file", "rdf.csv"}};
  }

 private:
  void sample(MdSolver& md) {
    // Pair distances from the neighbour list (it holds every pair within r_c + skin), each
    // pair counted for both atoms as LAMMPS's full-list compute rdf does.
    const int bins = static_cast<int>(bins_);
    const double cut = md.pair_cutoff(), cutsq = cut * cut, delrinv = bins / cut;
    const NeighborList& neighbors = md.neighbors();
    const double weight = neighbors.half() ? 2.0 : 1.0;
    Kokkos::View<double*> hist("MdSolver::rdf", bins);
    auto x = md.system().x;
    auto neigh = neighbors.view();
    Kokkos::parallel_for(
        "MdSolver::rdf", md.system().nlocal, KOKKOS_LAMBDA(long i) {
          for (int k = 0; k < neigh.count(i); ++k) {
            const int j = neigh(i, k);
            const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
            const double rsq = dx * dx + dy * dy + dz * dz;
            if (rsq >= cutsq) continue;
            const int bin = static_cast<int>(sqrt(rsq) * delrinv);
            if (bin < bins) Kokkos::atomic_add(&hist(bin), weight);
          }
        });
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hist);
    MPI_Allreduce(MPI_IN_PLACE, h.data(), bins, MPI_DOUBLE, MPI_SUM, md.comm());
    // LAMMPS's normalisation: g = n / (4π/3 (r_hi³ − r_lo³)/V · N (N − 1)).
    const double n = static_cast<double>(md.natoms());
    const double constant = 4.0 * M_PI / (3.0 * md.system().box.volume());
    const double delr = cut / bins;
    std::vector<double> g(bins);
    for (int b = 0; b < bins; ++b) {
      const double lo = b * delr, hi = (b + 1) * delr;
      g[b] = h(b) / (constant * (hi * hi * hi - lo * lo * lo) * (n - 1.0) * n);
    }
    samples_.push_back(std::move(g));
    press_.push_back(md.thermo().press);
  }

  long bins_, every_;
  std::vector<std::vector<double>> samples_;
  std::vector<double> press_;
};

}  // namespace

MdOutputRegistry::Entry rdf_output_entry() {
  return {[](const CaseNode& config, const MdSolver&) -> std::unique_ptr<MdOutput> {
            const CaseNode rdf = config.section("rdf");
            if (rdf.integer("bins") == 0) return nullptr;
            return std::make_unique<RdfOutput>(rdf.integer("bins"), rdf.integer("every"));
          },
          Schema("the `rdf` section of the md solver"),
          "radial distribution function and pressure averaged over samples (rdf.csv)"};
}

}  // namespace surrox::solvers::md

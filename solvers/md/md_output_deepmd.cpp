// DeePMD-kit training frames of the run (deepmd_output.hpp): the potential's own energy, forces
// and virial every `deepmd.every` steps from `deepmd.first`, written as an npy system into
// OUTDIR/deepmd at the end.
#include <fmt/format.h>

#include "solvers/md/deepmd_output.hpp"
#include "solvers/md/md_output.hpp"
#include "solvers/md/md_outputs.hpp"
#include "solvers/md/md_solver.hpp"

namespace surrox::solvers::md {
namespace {

class DeepmdOutput final : public MdOutput {
 public:
  explicit DeepmdOutput(const CaseNode& deepmd) {
    recorder_.setup(deepmd.integer("every"), deepmd.integer("first"), deepmd.integer("set_size"),
                    deepmd.strings("type_map"));
  }
  bool recomputes_forces() const override { return true; }
  void start(MdSolver& md) override { after_step(md, md.step()); }
  void after_step(MdSolver& md, long step) override {
    if (!recorder_.due(step)) return;
    md.with_potential_labels([&](const System& s, const VirialView& vatom, double energy) {
      recorder_.record(s, vatom, energy, md.comm());
    });
  }
  void save(io::Hdf5Checkpoint& c) const override { recorder_.save(c); }
  void load(const io::Hdf5Checkpoint& c) override { recorder_.load(c); }
  void finalize(const MdSolver& md, const std::filesystem::path& output_dir,
                nlohmann::json& results) override {
    recorder_.write(output_dir, md.rank());
    if (recorder_.frames() > 0)
      results["deepmd"] = {{"frames", recorder_.frames()}, {"folder", "deepmd"}};
  }

 private:
  DeepmdRecorder recorder_;
};

}  // namespace

MdOutputRegistry::Entry deepmd_output_entry() {
  return {[](const CaseNode& config, const MdSolver& md) -> std::unique_ptr<MdOutput> {
            const CaseNode deepmd = config.section("deepmd");
            if (deepmd.integer("every") == 0) return nullptr;
            if (md.system().units.name != "metal")
              deepmd.fail("every", "DeePMD frames are in eV and Å: use `units: metal`");
            if (static_cast<int>(deepmd.strings("type_map").size()) < md.system().ntypes)
              deepmd.fail("type_map",
                          fmt::format("names {} element(s) but the system has {} atom types",
                                      deepmd.strings("type_map").size(), md.system().ntypes));
            return std::make_unique<DeepmdOutput>(deepmd);
          },
          Schema("the `deepmd` section of the md solver"),
          "DeePMD-kit training frames (OUTDIR/deepmd)"};
}

}  // namespace surrox::solvers::md

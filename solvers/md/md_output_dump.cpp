// The LAMMPS text dump of the run (dump_frames.hpp): every `dump` steps and at step 0, the atoms
// gathered on rank 0; dump.lammpstrj at the end.
#include "solvers/md/dump_frames.hpp"
#include "solvers/md/md_output.hpp"
#include "solvers/md/md_outputs.hpp"
#include "solvers/md/md_solver.hpp"

namespace surrox::solvers::md {
namespace {

class DumpOutput final : public MdOutput {
 public:
  explicit DumpOutput(long every) : every_(every) {}
  void start(MdSolver& md) override { add_frame(md); }
  void after_step(MdSolver& md, long step) override {
    if (step % every_ == 0) add_frame(md);
  }
  void save(io::Hdf5Checkpoint& c) const override { frames_.save(c); }
  void load(const io::Hdf5Checkpoint& c) override { frames_.load(c); }
  void finalize(const MdSolver& md, const std::filesystem::path& output_dir,
                nlohmann::json&) override {
    if (md.rank() == 0 && !frames_.empty()) frames_.write(output_dir / "dump.lammpstrj");
  }

 private:
  void add_frame(MdSolver& md) {
    const AtomData d = md.gather();  // collective
    if (md.rank() == 0) frames_.add(md.step(), d);
  }

  long every_;
  DumpFrames frames_;
};

}  // namespace

MdOutputRegistry::Entry dump_output_entry() {
  return {[](const CaseNode& config, const MdSolver&) -> std::unique_ptr<MdOutput> {
            if (config.integer("dump") == 0) return nullptr;
            return std::make_unique<DumpOutput>(config.integer("dump"));
          },
          Schema("the md solver's `dump` key"), "LAMMPS text dump (dump.lammpstrj)"};
}

}  // namespace surrox::solvers::md

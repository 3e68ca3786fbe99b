#include "apps/reference_labels.hpp"

#include <fmt/format.h>
#include <mpi.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "apps/run_driver.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "io/case_file.hpp"
#include "solvers/md/data_file.hpp"

namespace surrox::apps {
namespace {

namespace md = solvers::md;

// Frame `f` as a LAMMPS configuration in the box [0, L): DeePMD coordinates may sit anywhere,
// the data-file reader wants every atom inside the box.
md::AtomData frame_atoms(const io::DeepmdFrames& frames, long f) {
  const long n = frames.atoms();
  md::AtomData data;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      if (a != b && frames.box[9 * f + 3 * a + b] != 0.0)
        throw InputError(fmt::format(
            "frame {}: the box is triclinic; the MD engine (and so the labelling) takes "
            "orthogonal boxes only",
            f));
  for (int d = 0; d < 3; ++d) data.box.hi[d] = frames.box[9 * f + 4 * d];
  data.ntypes = static_cast<int>(frames.type_map.size());
  // Masses do not enter the labels (zero steps, atoms at rest); the reader needs some.
  data.mass.assign(data.ntypes + 1, 1.0);
  for (long i = 0; i < n; ++i) {
    data.tag.push_back(i + 1);
    data.type.push_back(frames.types[i] + 1);
    std::array<double, 3> x{};
    for (int d = 0; d < 3; ++d) {
      const double length = data.box.hi[d];
      double v = frames.coord[3 * (f * n + i) + d];
      v -= std::floor(v / length) * length;
      if (v >= length) v -= length;  // floor's rounding can land exactly on the upper face
      x[d] = std::max(v, 0.0);
    }
    data.x.push_back(x);
    data.v.push_back({0, 0, 0});
    data.image.push_back({0, 0, 0});
  }
  return data;
}

}  // namespace

io::DeepmdFrames label_with_reference(Runtime& runtime, const std::filesystem::path& reference_case,
                                      const std::vector<std::string>& overrides,
                                      const io::DeepmdFrames& configurations,
                                      const std::filesystem::path& work_dir) {
  namespace fs = std::filesystem;
  io::DeepmdFrames labelled;
  labelled.type_map = configurations.type_map;
  labelled.types = configurations.types;
  const MPI_Comm comm = runtime.comm();
  {
    const log::RaisedLevel quiet(spdlog::level::warn);  // the per-frame runs would flood the log
    for (long f = 0; f < configurations.frames; ++f) {
      const fs::path task = work_dir / fmt::format("task.{:06d}", f);
      if (runtime.root()) {
        fs::create_directories(task);
        md::write_data_file(task / "conf.lmp", frame_atoms(configurations, f), "metal", 0);
      }
      MPI_Barrier(comm);
      std::vector<std::string> set = overrides;
      for (const std::string& o :
           {"solver.data_file=" + fs::absolute(task / "conf.lmp").string(),
            std::string("solver.steps=0"), std::string("solver.velocity.temperature=0"),
            std::string("solver.deepmd.every=1"), std::string("solver.deepmd.first=0"),
            std::string("solver.dump=0"), std::string("solver.rdf.bins=0"),
            std::string("output.vtk=false"), std::string("output.hdf5=false"),
            std::string("output.checkpoint=false")})
        set.push_back(o);
      const io::CaseFile reference = io::load_case(reference_case, run_case_schema(), set);
      const CaseNode solver = reference.root.section("solver");
      if (solver.string("type") != "md" || solver.string("units") != "metal")
        solver.fail("type", "the reference must be an MD case in metal units (DeePMD's eV and Å)");
      if (solver.has("end_time"))
        solver.fail("end_time", "the reference labels with zero steps: give `steps`, not end_time");
      RunOptions options;
      options.output_dir = task;
      options.show_progress = false;
      run_solver(runtime, reference, options);
      MPI_Barrier(comm);
      const io::DeepmdFrames one = io::read_deepmd_system(task / "deepmd");
      if (one.frames != 1 || one.types != configurations.types)
        throw Error(fmt::format("{}: the reference run did not record frame {} as given",
                                (task / "deepmd").string(), f));
      labelled.append(one);
    }
  }
  MPI_Barrier(comm);
  if (runtime.root()) fs::remove_all(work_dir);
  return labelled;
}

}  // namespace surrox::apps

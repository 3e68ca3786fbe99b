#include "apps/lammps_exploration.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "apps/lammps_forward.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/mpi_launcher_environment.hpp"
#include "io/deepmd_system.hpp"
#include "surrogates/deep_potential/model_deviation.hpp"

namespace surrox::apps {
namespace fs = std::filesystem;
namespace {

// One frame of a LAMMPS text dump of `id type x y z` in an orthogonal box.
struct DumpFrame {
  long step = 0;
  std::array<double, 3> lo{}, hi{};
  std::vector<long> ids;
  std::vector<int> types;
  std::vector<double> x;  // 3 per atom
};

std::vector<DumpFrame> read_dump(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error("the exploration wrote no dump", {file.string()});
  std::vector<DumpFrame> frames;
  std::string line;
  long line_no = 0;
  auto next = [&](const char* what) {
    if (!std::getline(in, line))
      throw Error(fmt::format("the dump ends inside a frame (expected {})", what),
                  {file.string(), static_cast<int>(line_no)});
    ++line_no;
    return line;
  };
  auto fail = [&](const std::string& why) {
    throw Error(why, {file.string(), static_cast<int>(line_no)});
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("ITEM: TIMESTEP", 0) != 0) fail("expected ITEM: TIMESTEP");
    DumpFrame f;
    f.step = std::stol(next("the step"));
    next("ITEM: NUMBER OF ATOMS");
    const long n = std::stol(next("the number of atoms"));
    if (next("ITEM: BOX BOUNDS").find("xy") != std::string::npos)
      fail("a triclinic box: explorations need an orthogonal one");
    for (int d = 0; d < 3; ++d) {
      std::istringstream bounds(next("box bounds"));
      if (!(bounds >> f.lo[d] >> f.hi[d])) fail("expected two box bounds");
    }
    if (next("ITEM: ATOMS").find("ITEM: ATOMS id type x y z") != 0)
      fail("the dump's columns must be `id type x y z`");
    for (long i = 0; i < n; ++i) {
      std::istringstream atom(next("an atom"));
      long id = 0;
      int type = 0;
      double x[3];
      if (!(atom >> id >> type >> x[0] >> x[1] >> x[2])) fail("expected id type x y z");
      f.ids.push_back(id);
      f.types.push_back(type);
      f.x.insert(f.x.end(), x, x + 3);
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

// The frames as a DeePMD system: atoms in id order, coordinates wrapped into the box and
// shifted so that it starts at 0 (as surrox's engine records them).
io::DeepmdFrames to_deepmd(const std::vector<DumpFrame>& dump,
                           const std::vector<std::string>& type_map, const fs::path& file) {
  io::DeepmdFrames out;
  out.type_map = type_map;
  for (const DumpFrame& f : dump) {
    std::vector<std::size_t> order(f.ids.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return f.ids[a] < f.ids[b]; });
    std::vector<int> types;
    for (std::size_t i : order) {
      if (f.types[i] < 1 || f.types[i] > static_cast<int>(type_map.size()))
        throw Error(fmt::format("atom {} has type {}, but the type map names {} element(s)",
                                f.ids[i], f.types[i], type_map.size()),
                    {file.string()});
      types.push_back(f.types[i] - 1);
    }
    if (out.frames == 0) out.types = types;
    if (types != out.types)
      throw Error(fmt::format("the atoms of step {} differ from the first frame's", f.step),
                  {file.string()});
    for (std::size_t i : order)
      for (int d = 0; d < 3; ++d) {
        const double length = f.hi[d] - f.lo[d];
        double x = f.x[3 * i + d];
        x -= std::floor((x - f.lo[d]) / length) * length;
        out.coord.push_back(x - f.lo[d]);
      }
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) out.box.push_back(a == b ? f.hi[a] - f.lo[a] : 0.0);
    ++out.frames;
  }
  return out;
}

std::string quoted_models(const std::vector<fs::path>& models) {
  std::string list;
  for (const fs::path& m : models) list += (list.empty() ? "" : " ") + fs::absolute(m).string();
  return list;
}

// Runs surrox-lammps in `dir` on in.explore, output into lammps.out; the exit status.
int run_driver(const fs::path& driver, const fs::path& dir) {
  const pid_t child = ::fork();
  if (child < 0) throw Error(std::string("cannot start surrox-lammps: ") + std::strerror(errno));
  if (child == 0) {
    // A fresh MPI job of one process: the parent's launcher variables would make it join the
    // parent's job.
    for (char** e = environ; *e;) {
      const std::string name(*e, std::strcspn(*e, "="));
      if (is_mpi_launcher_variable(name))
        ::unsetenv(name.c_str());
      else
        ++e;
    }
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    const int out = ::open("lammps.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) {
      ::dup2(out, 1);
      ::dup2(out, 2);
    }
    const std::string path = driver.string();
    const char* args[] = {path.c_str(), "-in",     "in.explore", "-log",
                          "log.lammps", "-screen", "none",       nullptr};
    ::execv(path.c_str(), const_cast<char* const*>(args));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The last ERROR line LAMMPS wrote, for the message of a failed run.
std::string lammps_error(const fs::path& dir) {
  std::ifstream in(dir / "lammps.out");
  std::string line, last;
  while (std::getline(in, line))
    if (line.find("ERROR") != std::string::npos) last = line;
  return last.empty() ? "see " + (dir / "lammps.out").string() : last;
}

}  // namespace

std::vector<std::string> check_lammps_template(const std::string& text) {
  std::vector<std::string> problems;
  auto has = [&](const char* what) { return text.find(what) != std::string::npos; };
  if (!has("surrox/deep") || !has("${models}"))
    problems.push_back("no `pair_style surrox/deep ${models} ...`");
  if (!has("out_file md.out") || !has("out_freq ${out_freq}"))
    problems.push_back("the pair style must write `out_freq ${out_freq} out_file md.out`");
  if (!has("traj.dump") || !has("id type x y z"))
    problems.push_back("no `dump ... custom ${out_freq} traj.dump id type x y z`");
  return problems;
}

nlohmann::json run_lammps_exploration(const LammpsExplorationRun& run) {
  std::string tried;
  const auto driver = find_lammps_driver(&tried);
  if (!driver)
    throw InputError(
        "exploration.engine lammps needs surrox-lammps (build surrox with LAMMPS: install "
        "liblammps-dev; docs/lammps.md). Tried:" +
        tried);
  std::ifstream in(run.input_template);
  if (!in) throw InputError("cannot read the LAMMPS input", {run.input_template.string()});
  const std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::create_directories(run.dir);
  {
    std::string header = fmt::format(
        "# written by surrox concurrent-learn: the variables of {}\n"
        "variable models string \"{}\"\n"
        "variable out_freq equal {}\nvariable steps equal {}\nvariable temp equal {:.17g}\n"
        "variable seed equal {}\n",
        run.input_template.string(), quoted_models(run.models), run.out_freq, run.steps,
        run.temperature, run.seed);
    if (run.pressure) header += fmt::format("variable press equal {:.17g}\n", *run.pressure);
    write_text_atomically(run.dir / "in.explore", header + body);
  }
  fs::remove(run.dir / "md.out");
  fs::remove(run.dir / "traj.dump");
  const int status = run_driver(*driver, run.dir);
  if (status != 0)
    throw Error(
        fmt::format("the LAMMPS exploration failed (exit {}): {}", status, lammps_error(run.dir)));
  const auto rows = surrogates::deep_potential::read_model_devi_out(run.dir / "md.out");
  const auto dump = read_dump(run.dir / "traj.dump");
  if (rows.size() != dump.size())
    throw Error(fmt::format("md.out has {} rows but traj.dump {} frames: both must be written "
                            "every ${{out_freq}} steps from step 0",
                            rows.size(), dump.size()),
                {(run.dir / "traj.dump").string()});
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (rows[r].step != dump[r].step)
      throw Error(fmt::format("md.out row {} is step {}, frame {} of traj.dump step {}", r,
                              rows[r].step, r, dump[r].step),
                  {(run.dir / "traj.dump").string()});
  surrogates::deep_potential::write_model_devi(run.dir, rows);
  io::write_deepmd_system(run.dir / "deepmd", to_deepmd(dump, run.type_map, run.dir / "traj.dump"));
  return {{"engine", "lammps"}, {"frames", dump.size()}, {"log", "log.lammps"}};
}

}  // namespace surrox::apps

#include "couplers/super_resolution/super_resolution_setup.hpp"

#include <fmt/format.h>
#include <torch/torch.h>

#include <cmath>

#include "core/case_path.hpp"
#include "core/error.hpp"

namespace surrox::couplers {
namespace {

namespace sr = training::super_resolution;

// The channel names a model file declares (its metadata's "channels"): load() checks the family
// and shapes, not the names the network was trained on.
std::vector<std::string> declared_channels(const std::filesystem::path& path) {
  torch::serialize::InputArchive archive;
  archive.load_from(path.string());
  c10::IValue text;
  archive.read("metadata", text);
  const auto j = nlohmann::json::parse(text.toStringRef());
  return j.value("channels", std::vector<std::string>{});
}

// n / d when d divides n exactly, else InputError at `key`.
long divided(const CaseNode& node, const std::string& key, long n, long d, const char* what) {
  if (d < 1 || n % d != 0)
    node.fail(key, fmt::format("the model's factor {} in {} does not divide the fine run's {} {}",
                               d, what, n, what[0] == 't' ? "frame intervals" : "cells"));
  return n / d;
}

}  // namespace

SrSetup load_super_resolution_model(const Runtime& runtime, const CaseNode& section) {
  if (runtime.size() > 1)
    throw InputError(
        fmt::format("the super-resolution comparison runs on one MPI rank (got {}): its wall "
                    "times compare runs on the same core",
                    runtime.size()),
        section.context());
  SrSetup setup;
  setup.run_fine = section.boolean("fine_run");
  setup.close_walls = section.boolean("wall_closure");
  if (section.string("model").empty()) {
    // No model: the trilinear baseline on the section's factors and frame interval, with the
    // smallest tiles (the model's fields keep their defaults and are not used).
    const auto factors = section.integers("factors");
    if (factors.size() != 3) section.fail("factors", "needs three factors: [t, z, x]");
    for (long long f : factors)
      if (f < 1) section.fail("factors", "factors are at least 1");
    setup.model.downsampling = {factors[0], factors[1], factors[2], true};
    setup.model.spacing = {section.real("frame_interval"), NAN, NAN};
    setup.model.options.grid = {2, 2, 2};
    return setup;
  }
  setup.has_model = true;
  setup.model_path = resolve_case_path(section, section.string("model"));
  try {
    setup.model = sr::SuperResolutionModel::load(setup.model_path);
  } catch (const InputError& e) {
    section.fail("model", e.detail());
  }
  const std::vector<std::string> expected(sr::kChannels.begin(), sr::kChannels.end());
  const std::vector<std::string> channels = declared_channels(setup.model_path);
  if (channels != expected || setup.model.options.channels != 4)
    section.fail("model", fmt::format("{}: trained on channels [{}] ({} in the network); the "
                                      "coupler feeds the solver's [p, b, u, w]",
                                      setup.model_path.string(), fmt::join(channels, ", "),
                                      setup.model.options.channels));
  return setup;
}

SrCaseGrids super_resolution_grids(const SrSetup& setup, const CoupledCase& c) {
  const CaseNode& s = c.solver;
  if (s.type() != "rayleigh_benard")
    s.fail("type",
           "the super-resolution coupler drives the 2D Rayleigh–Bénard solver "
           "(rayleigh_benard); this case's solver is '" +
               s.type() + "'");
  if (s.real("stretching") != 0)
    s.fail("stretching", "the model works on uniform grids: set solver.stretching to 0");
  if (s.real("steady_tolerance") > 0)
    s.fail("steady_tolerance",
           "a run that may stop early has no fixed frame count: set it to 0 for a comparison");
  const sr::SuperResolutionModel& m = setup.model;
  // YAML nodes are references (assigning one CaseNode to another would write into the case):
  // the coarse section is a clone made here, its cells set below.
  YAML::Node coarse = YAML::Clone(s.yaml());
  SrCaseGrids g{s, CaseNode(coarse, s.origin_ptr(), s.path())};
  const auto cells = s.integers("cells");
  g.fine_nx = cells[0];
  g.fine_nz = cells[1];
  g.lx = s.reals("length")[0];
  g.end_time = s.real("end_time");
  g.average_from = s.real("average_from");
  g.rayleigh = s.real("rayleigh");
  g.prandtl = s.real("prandtl");
  g.frame_interval = m.spacing[0];
  // The model's grid: the fine run must have the spacing it was trained on.
  const double dx = g.lx / double(g.fine_nx), dz = 1.0 / double(g.fine_nz);
  if (setup.has_model && (std::abs(dx - m.spacing[2]) > 1e-6 * m.spacing[2] ||
                          std::abs(dz - m.spacing[1]) > 1e-6 * m.spacing[1]))
    s.fail("cells", fmt::format("the fine grid's spacing (dx {:.6g}, dz {:.6g}) is not the "
                                "model's training grid (dx {:.6g}, dz {:.6g})",
                                dx, dz, m.spacing[2], m.spacing[1]));
  const double intervals = g.end_time / g.frame_interval;
  if (std::abs(intervals - std::round(intervals)) > 1e-9 * intervals)
    s.fail("end_time",
           fmt::format("is not a multiple of the model's frame interval {:.6g}", g.frame_interval));
  const long fine_intervals = std::lround(intervals);
  g.coarse_nx = divided(s, "cells", g.fine_nx, m.downsampling.x, "x");
  g.coarse_nz = divided(s, "cells", g.fine_nz, m.downsampling.z, "z");
  const long coarse_intervals = divided(s, "end_time", fine_intervals, m.downsampling.t, "t");
  g.fine_frames = fine_intervals + 1;
  g.coarse_frames = coarse_intervals + 1;
  const auto crop = m.crop();
  const std::array<long, 3> have = {g.coarse_frames, g.coarse_nz, g.coarse_nx};
  for (int d = 0; d < 3; ++d)
    if (have[d] < crop[d])
      s.fail(d == 0 ? "end_time" : "cells",
             fmt::format("the coarse run has {} nodes along {}, fewer than the model's crop of {}",
                         have[d], "tzx"[d], crop[d]));
  if (g.coarse_nz < 4 || g.coarse_nx < 4)
    s.fail("cells", fmt::format("the coarse grid {} × {} has fewer than the solver's 4 cells per "
                                "direction",
                                g.coarse_nx, g.coarse_nz));
  coarse["cells"] = std::vector<long>{g.coarse_nx, g.coarse_nz};
  return g;
}

}  // namespace surrox::couplers

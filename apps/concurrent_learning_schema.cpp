// The config of `surrox concurrent-learn` (apps/concurrent_learning.cpp runs it).
#include <string>

#include "apps/concurrent_learning.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::apps {
namespace {

Schema make_schema() {
  Schema s(
      "Concurrent learning of a deep potential (DP-GEN's loop) for `surrox concurrent-learn`: "
      "train an ensemble, explore with it in MD, label the frames the models disagree on with "
      "the reference potential, retrain; one folder iter.NNN per iteration.");
  s.section("runtime", training::runtime_config_schema(), "threads and logging");
  s.input_path("reference",
               "the reference MD case (metal units): its `pair` labels the selected frames, and "
               "the explorations run it with the ensemble as the pair (relative to this file)");
  s.integer("iterations", "train–explore–label rounds; the last one stops after exploring")
      .at_least(1)
      .fallback("3");
  s.real("converged_accurate",
         "stop early when this fraction of the explored rows is accurate (max ε_F < lo)")
      .above(0)
      .at_most(1)
      .fallback("1.0");
  Schema data("Labelled frames (DeePMD npy systems or folders of them, relative to this file).");
  data.strings("initial", "frames to start from (DP-GEN's init_data)");
  data.strings("validation", "held-out frames: model 0's errors on them are reported per iteration")
      .fallback("[]");
  s.section("data", data, "initial and held-out frames");
  Schema training("How each model of the ensemble is trained (`surrox train`).");
  training.input_path("config",
                      "a `surrox train` config of family deep_potential (its data.* are replaced)");
  training
      .integer("models",
               "ensemble size (DP-GEN: 4); model i is trained with model.seed "
               "1 + i + models × iteration")
      .at_least(2)
      .fallback("4");
  training.strings("set", "overrides applied to every training, as --set KEY=VALUE").fallback("[]");
  training
      .boolean("init_from_previous",
               "DP-GEN's training_init_model: from the second iteration on, model i starts from "
               "the previous iteration's model i (training.init_model) instead of fresh weights")
      .fallback("false");
  training
      .strings("reuse_set",
               "overrides applied after `set` to the trainings that start from the previous "
               "model, e.g. fewer steps and a smaller lr (DP-GEN's training_reuse_*)")
      .fallback("[]");
  s.section("training", training, "the ensemble's training");
  Schema exploration(
      "MD with the ensemble (model 0 drives, all give the model deviation), one run per "
      "temperature (and pressure), new seeds every iteration.");
  exploration.reals("temperatures", "thermostat (and initial-velocity) temperatures, K");
  exploration
      .reals("pressures",
             "constant-pressure explorations (DP-GEN's ensemble: npt) at each of these "
             "pressures (bar) for every temperature, with the reference case's barostat "
             "settings (solver.barostat: compressibility, damping, couple); []: constant volume")
      .fallback("[]");
  exploration
      .integer("start_with",
               "iteration k explores the first start_with + k temperatures (DP-GEN's growing "
               "model_devi_jobs); 0: all of them from the start")
      .at_least(0)
      .fallback("0");
  exploration
      .choice("engine", {"surrox", "lammps"},
              "`surrox`: the reference case in surrox's engine; `lammps`: `lammps_input` in "
              "LAMMPS (surrox-lammps, pair_style surrox/deep), DP-GEN's way")
      .fallback("surrox");
  exploration
      .input_path("lammps_input",
                  "LAMMPS input template for engine lammps: after a header defining ${models} "
                  "${out_freq} ${steps} ${temp} ${seed} (and ${press} with pressures) it must "
                  "use `pair_style surrox/deep ${models} out_freq ${out_freq} out_file md.out` "
                  "and `dump ... custom ${out_freq} traj.dump id type x y z` (docs/lammps.md)")
      .optional();
  exploration.integer("steps", "MD steps per run").at_least(1).fallback("2000");
  exploration.integer("out_freq", "steps between model-deviation rows and recorded frames")
      .at_least(1)
      .fallback("10");
  exploration.integer("first_step", "rows before this step are equilibration, not counted")
      .at_least(0)
      .fallback("100");
  exploration.strings("set", "overrides of the reference case for the explorations").fallback("[]");
  s.section("exploration", exploration, "the explorations");
  Schema selection("Which explored frames are labelled (DP-GEN's trust levels).");
  selection.real("lo", "max ε_F below this: accurate, not labelled (eV/Å)")
      .at_least(0)
      .fallback("0.05");
  selection.real("hi", "max ε_F at or above this: failed, not labelled (eV/Å)")
      .above(0)
      .fallback("0.15");
  selection.integer("max_candidates", "frames labelled per iteration at most (fp_task_max)")
      .at_least(1)
      .fallback("50");
  selection.integer("seed", "seed of the draw among candidates").at_least(0).fallback("1");
  s.section("selection", selection, "frame selection");
  return s;
}

// Paths of a `strings` key relative to the config's folder; each must exist.

}  // namespace

const Schema& concurrent_learning_schema() {
  static const Schema schema = make_schema();
  return schema;
}

}  // namespace surrox::apps

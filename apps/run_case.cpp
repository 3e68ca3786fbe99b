#include "apps/run_case.hpp"

#include "solvers/solver.hpp"

namespace surrox::apps {

const Schema& run_case_schema() {
  static const Schema schema = [] {
    Schema root("A case for `surrox run`: one solver and what to write.");
    Schema runtime("Threads and logging for this run.");
    runtime.integer("threads", "LibTorch threads per rank; 0: cores on the node / ranks on it")
        .at_least(0)
        .fallback("0");
    runtime
        .choice("log_level", {"trace", "debug", "info", "warn", "error", "off"},
                "log level (the command line's --log-level wins when given)")
        .fallback("info");
    root.section("runtime", runtime, "threads and logging");
    root.component("solver", solvers::registry(), "the solver and its parameters");
    Schema output("What the run writes into the output folder.");
    output
        .real("interval",
              "simulated time between field outputs; 0: only the initial and final state")
        .at_least(0)
        .units("s")
        .fallback("0");
    output
        .real("start_time",
              "simulated time before which no fields are written (a spin-up): the initial state "
              "is skipped when it is earlier, outputs are the multiples of interval from here on")
        .at_least(0)
        .units("s")
        .fallback("0");
    output.boolean("vtk", "write a .vti/.vts/.vtu series with a .pvd collection for ParaView")
        .fallback("true");
    output.boolean("hdf5", "write the fields as an HDF5 dataset with an .xdmf sidecar")
        .fallback("true");
    output
        .integer("monitor_interval",
                 "steps between rows of monitor.csv (the solver's monitor figures); 0: none")
        .at_least(0)
        .fallback("10");
    output
        .boolean("checkpoint",
                 "write checkpoint.h5 at the end (and every checkpoint_interval steps) "
                 "when the solver supports restarts")
        .fallback("true");
    output.integer("checkpoint_interval", "steps between checkpoints; 0: only at the end")
        .at_least(0)
        .fallback("0");
    root.section("output", output, "field output");
    Schema sweep(
        "A family of cases: this case with some keys set to each listed value. Each case runs on one MPI "
        "rank into OUTDIR/cases/case_NNNN/; a rerun skips the cases already finished; the final "
        "states are merged into one sweep dataset (docs/formats.md).");
    sweep
        .value_lists(
            "values",
            "key path → list of values, e.g. {solver.alpha_deg: [0, 2, 4], solver.mach: [0.3, 0.5]}")
        .optional();
    sweep
        .choice(
            "combine", {"product", "zip"},
            "product: every combination (the last key varies fastest); zip: the i-th value of every list")
        .fallback("product");
    sweep.string("dataset", "file name of the merged sweep dataset in the output folder")
        .fallback("sweep.h5");
    root.section("sweep", sweep, "optional parameter sweep; without `values` the case runs once");
    return root;
  }();
  return schema;
}

}  // namespace surrox::apps

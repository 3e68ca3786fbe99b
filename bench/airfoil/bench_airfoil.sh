#!/bin/bash
# Throughput of the airfoil solver (solvers/airfoil) on the inviscid NACA 0012 default case on
# 1 and 2 ranks, and the fraction of the STREAM triad bandwidth its flux and LU-SGS kernels reach.
#
# Usage: bench/airfoil/bench_airfoil.sh [SURROX] [REPETITIONS]
#   SURROX       default build/release/apps/surrox
#   REPETITIONS  default 3 (medians are reported)
# Environment: CYCLES (multigrid cycles per run, default 300), STREAM (the STREAM triad
#   benchmark, default build/release/bench/bench_stream_triad), WORK (scratch folder, default
#   /tmp/surrox-bench-airfoil; its earlier runs are removed first), MPIRUN (default
#   "mpirun --allow-run-as-root --oversubscribe").
#
# What it measures (cases/airfoil/naca0012_euler.yaml, 256 x 128 cells, M 0.5, alpha 2 deg,
# a fixed number of cycles, no field output):
#   1 rank:  one case; cell-iterations per second = cells x cycles / timings_s.advance.
#   2 ranks, one case: the same case under mpirun -n 2, the grid split into two slabs of rows
#            (solvers/airfoil: domain decomposition in j); the same rate, from rank 0's
#            timings_s.advance (the ranks wait for each other every residual), and the ratio
#            to 1 rank: the parallel speed-up of one case. Also the share of its halo exchanges
#            and global reductions (fine grid).
#   2 ranks, 2-case sweep: the same case at alpha 2 and 4 deg under mpirun -n 2, one case per
#            rank at the same time (apps/sweep_runner.cpp). Aggregate rate = 2 x cells x cycles
#            / the slower case's advance: throughput, not the speed-up of one case.
#   STREAM triad bandwidth (same script, just before), and from the solver's phase_times (fine
#   grid phases; multigrid_coarse holds all the work on the coarser levels) the bandwidth of
#     fluxes: the Roe/MUSCL face kernels flux_i + flux_j, run twice per cycle on the fine grid
#             (once for the residual, once before the restriction). Traffic model, minimum
#             array traffic per cell and evaluation: flux_i reads w (4 doubles) and the face
#             vector (2), writes fi (4), lam_i and lv_i (2); flux_j the same on j-faces:
#             24 doubles = 192 B. Neighbour rows of w are assumed to come from cache.
#     lusgs:  the LU-SGS diagonal (read 4 spectral radii, write diag: 5 doubles), forward sweep
#             (read res, diag, u, du, 4 face components, 4 radii; write du: 25), backward sweep
#             (read du, u, diag, 4 face components, 4 radii; write du: 21), update u += du
#             (12): 63 doubles = 504 B per cell and cycle.
#   Bytes are counted once per read or write (the STREAM convention: triad = 24 B/element).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SURROX=${1:-$ROOT/build/release/apps/surrox}
REPS=${2:-3}
CYCLES=${CYCLES:-300}
STREAM=${STREAM:-$ROOT/build/release/bench/bench_stream_triad}
WORK=${WORK:-/tmp/surrox-bench-airfoil}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}
CASE=$ROOT/cases/airfoil/naca0012_euler.yaml

rm -rf "$WORK"/one_* "$WORK"/split_* "$WORK"/two_* "$WORK"/stream.json
mkdir -p "$WORK"
# The cycle alone: the Anderson acceleration (on in the case file) is not a cycle's cost and,
# run past round-off to a fixed cycle count, would only mix noise. One sweep per cycle and
# factors every 10 cycles (the smoother's defaults; the case file takes 2 and 20 since
# 2026-11-26), so the rates compare with those recorded in docs/performance.md.
SETS=(--set solver.max_iterations=$CYCLES --set solver.residual_drop=1e-15
      --set solver.acceleration.depth=0 --set 'solver.smoother={type: line_implicit}'
      --set output.vtk=false --set output.monitor_interval=100 --log-level warn)

echo "STREAM triad ($STREAM)"
"$STREAM" --benchmark_repetitions=$REPS --benchmark_report_aggregates_only=true \
  --benchmark_format=json > "$WORK/stream.json"

for r in $(seq 1 "$REPS"); do
  echo "1 rank, run $r"
  "$SURROX" run "$CASE" -o "$WORK/one_$r" "${SETS[@]}" > "$WORK/one_$r.log" 2>&1
done

for r in $(seq 1 "$REPS"); do
  echo "2 ranks (one case, 2 slabs), run $r"
  $MPIRUN -n 2 "$SURROX" run "$CASE" -o "$WORK/split_$r" "${SETS[@]}" > "$WORK/split_$r.log" 2>&1
done

{ cat "$CASE"; echo "sweep: {values: {solver.alpha_deg: [2, 4]}}"; } > "$WORK/sweep.yaml"
for r in $(seq 1 "$REPS"); do
  echo "2 ranks (2-case sweep), run $r"
  $MPIRUN -n 2 "$SURROX" run "$WORK/sweep.yaml" -o "$WORK/two_$r" "${SETS[@]}" \
    > "$WORK/two_$r.log" 2>&1
done

/usr/bin/python3 - "$WORK" "$REPS" <<'PY'
import json, pathlib, statistics, sys
work, reps = pathlib.Path(sys.argv[1]), int(sys.argv[2])
stream = [b for b in json.loads((work / "stream.json").read_text())["benchmarks"]
          if b.get("aggregate_name") == "median"][0]["bytes_per_second"]
FLUX_B, LUSGS_B = 192, 504

def one(results):
    a = results["airfoil"]
    cells = 256 * 128
    cycles = int(a["iterations"])
    t = results["timings_s"]["advance"]
    ph = a["phase_times_s"]
    return dict(cells=cells, cycles=cycles, advance=t, rate=cells * cycles / t,
                flux_bw=FLUX_B * 2 * cells * cycles / ph["fluxes"],
                lusgs_bw=LUSGS_B * cells * cycles / ph["lusgs"],
                flux_share=ph["fluxes"] / t, lusgs_share=ph["lusgs"] / t,
                fine_share=sum(v for k, v in ph.items() if k != "multigrid_coarse") / t,
                coarse_share=ph.get("multigrid_coarse", 0) / t,
                halo_share=ph.get("halo", 0) / t, reduce_share=ph.get("reductions", 0) / t)

singles = [one(json.loads((work / f"one_{r}" / "summary.json").read_text())["results"])
           for r in range(1, reps + 1)]
splits = [one(json.loads((work / f"split_{r}" / "summary.json").read_text())["results"])
          for r in range(1, reps + 1)]
pairs = []
for r in range(1, reps + 1):
    cases = [json.loads(p.read_text()) for p in sorted((work / f"two_{r}" / "cases").glob("*/case.json"))]
    runs = [one(c["results"]) for c in cases]
    slow = max(x["advance"] for x in runs)
    pairs.append(dict(rate=sum(x["cells"] * x["cycles"] for x in runs) / slow,
                      advance=slow, per_case=statistics.median(x["rate"] for x in runs)))
med = lambda xs, k: statistics.median(x[k] for x in xs)
r1, rs, r2 = med(singles, "rate"), med(splits, "rate"), med(pairs, "rate")
print()
print(f"STREAM triad (median of {reps}):           {stream / 1e9:.2f} GB/s")
print(f"1 rank: advance {med(singles, 'advance'):.2f} s for {singles[0]['cycles']} cycles on "
      f"{singles[0]['cells']} cells: {r1:.3e} cell-iterations/s "
      f"({1e9 / r1:.0f} ns per cell per cycle)")
print(f"  fluxes: {100 * med(singles, 'flux_share'):.0f} % of advance, "
      f"{med(singles, 'flux_bw') / 1e9:.2f} GB/s = {100 * med(singles, 'flux_bw') / stream:.0f} % of STREAM")
print(f"  lusgs:  {100 * med(singles, 'lusgs_share'):.0f} % of advance, "
      f"{med(singles, 'lusgs_bw') / 1e9:.2f} GB/s = {100 * med(singles, 'lusgs_bw') / stream:.0f} % of STREAM")
print(f"  fine grid, all phases: {100 * med(singles, 'fine_share'):.0f} % of advance; coarse levels "
      f"{100 * med(singles, 'coarse_share'):.0f} %")
print(f"2 ranks, one case (2 slabs): advance {med(splits, 'advance'):.2f} s: {rs:.3e} cell-iterations/s "
      f"= {rs / r1:.2f}x 1 rank ({1e9 / rs:.0f} ns per cell per cycle)")
print(f"  fine grid: halo {100 * med(splits, 'halo_share'):.1f} %, reductions "
      f"{100 * med(splits, 'reduce_share'):.1f} %, fluxes {100 * med(splits, 'flux_share'):.0f} %, "
      f"lusgs {100 * med(splits, 'lusgs_share'):.0f} %; coarse levels {100 * med(splits, 'coarse_share'):.0f} % of advance")
print(f"2 ranks (2-case sweep): slower case {med(pairs, 'advance'):.2f} s: {r2:.3e} cell-iterations/s "
      f"aggregate ({r2 / r1:.2f}x 1 rank), {med(pairs, 'per_case'):.3e} per case")
print(f"1 rank vs 2 ranks on one case, cell-iterations/s (medians of {reps}): {r1:.3e}  {rs:.3e}  "
      f"ratio {rs / r1:.2f}")
json.dump(dict(stream_bytes_per_s=stream, one_rank=singles, two_ranks_one_case=splits,
               two_ranks=pairs, median_rate_1=r1, median_rate_2_one_case=rs, median_rate_2=r2,
               ratio_one_case=rs / r1), open(work / "results.json", "w"), indent=1)
PY

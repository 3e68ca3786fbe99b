#!/usr/bin/env python3
"""Which Cauchy threshold stops the airfoil cases at engineering accuracy (docs/validation/airfoil.md,
"Convergence criteria"). For each run folder (surrox run with --set output.monitor_interval=1, so
monitor.csv holds Cl and Cd after every cycle) it prints the first cycle from which |Cl - Cl_end|
<= 1e-4 and |Cd - Cd_end| <= 1e-5 hold to the end (Cl_end, Cd_end: the 8-order converged values),
and, for several thresholds, the cycle at which SU2's Cauchy test on Cl and Cd (100 cycles; the
definition of solvers/cauchy_criterion.hpp) first holds and the coefficient errors there.

  python3 scripts/figures/cauchy_threshold.py RUN_DIR [RUN_DIR ...]
"""
import csv
import sys

ELEMENTS = 100
THRESHOLDS = (1e-4, 1e-5, 1e-6, 1e-7, 1e-8)


def cauchy_cycle(cl, cd, epsilon):
    ring = {"cl": [0.0] * ELEMENTS, "cd": [0.0] * ELEMENTS}
    last = {}
    for n in range(len(cl)):
        holds = True
        for field, value in (("cl", cl[n]), ("cd", cd[n])):
            change = 0.0 if n == 0 else abs(value - last[field]) / max(abs(value), 0.1)
            ring[field][n % ELEMENTS] = change
            last[field] = value
            holds = holds and sum(ring[field]) / ELEMENTS < epsilon
        if holds and n >= ELEMENTS:
            return n + 1
    return None


def accuracy_cycle(cl, cd):
    first = None
    for n in range(len(cl) - 1, -1, -1):
        if abs(cl[n] - cl[-1]) > 1e-4 or abs(cd[n] - cd[-1]) > 1e-5:
            break
        first = n + 1
    return first


for run in sys.argv[1:]:
    with open(f"{run}/monitor.csv") as f:
        rows = list(csv.DictReader(f))
    cl = [float(r["cl"]) for r in rows]
    cd = [float(r["cd"]) for r in rows]
    print(f"{run}: {len(cl)} cycles to 8 orders, engineering accuracy from cycle {accuracy_cycle(cl, cd)}")
    for epsilon in THRESHOLDS:
        c = cauchy_cycle(cl, cd, epsilon)
        if c is None:
            print(f"  Cauchy ε {epsilon:g}: never")
        else:
            print(f"  Cauchy ε {epsilon:g}: cycle {c}, |ΔCl| {abs(cl[c - 1] - cl[-1]):.2e}, "
                  f"|ΔCd| {abs(cd[c - 1] - cd[-1]):.2e}")

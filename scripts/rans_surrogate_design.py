#!/usr/bin/python3
"""The random case design of cases/airfoil_rans_surrogate (issue 15, AirfRANS's sampling at this
machine's size): each case its own NACA airfoil (a third 5-digit: design-lift digit 1–4,
camber-position digit 1–5, standard mean line, thickness 10–18 %; the rest 4-digit: camber 0–6 %,
camber position 20–60 %, thickness 10–18 %), α uniform in [−5°, 15°] (0.1° steps), Re uniform in
[2e6, 6e6] (1e4 steps); no airfoil twice. The first TRAIN cases are sweep.yaml's, the next TEST
test.yaml's and warm_start.yaml's.

Usage: scripts/rans_surrogate_design.py [TRAIN (96)] [TEST (24)] [SEED (15)]
prints the two `sweep.values` blocks to paste into the case files.
"""
import random
import sys

train = int(sys.argv[1]) if len(sys.argv) > 1 else 96
test = int(sys.argv[2]) if len(sys.argv) > 2 else 24
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 15)
seen, cases = set(), []
while len(cases) < train + test:
    if rng.random() < 1 / 3:
        design_lift, position, thickness = rng.randint(1, 4), rng.randint(1, 5), rng.randint(10, 18)
        digits = f"{design_lift}{position}0{thickness:02d}"
    else:
        camber, thickness = rng.randint(0, 6), rng.randint(10, 18)
        position = 0 if camber == 0 else rng.randint(2, 6)
        digits = f"{camber}{position}{thickness:02d}"
    if digits in seen:
        continue
    seen.add(digits)
    alpha = round(rng.uniform(-5, 15), 1)
    reynolds = round(rng.uniform(2e6, 6e6) / 1e4) * 1e4
    cases.append((digits, alpha, reynolds))


def block(name, chosen):
    print(f"# {name}")
    print("    solver.mesh.airfoil.digits: [" + ", ".join(f'"{c[0]}"' for c in chosen) + "]")
    print("    solver.alpha_deg: [" + ", ".join(f"{c[1]}" for c in chosen) + "]")
    print("    solver.reynolds: [" + ", ".join(f"{c[2] / 1e6:.2f}e6" for c in chosen) + "]")


block("training (sweep.yaml)", cases[:train])
block("test (test.yaml, warm_start.yaml)", cases[train:])

#!/usr/bin/env python3
"""The OpenFOAM airFoil2D family's design (scripts/openfoam_airfoil.sh): angle of attack and
free-stream speed of each case, from a Halton sequence (bases 2 and 3) over α ∈ [-2°, 10°] and
|U| ∈ [15, 35] m/s (at α 11° and 20 m/s simpleFoam does not reach its residualControl in 3000
iterations: ν̃'s residual stalls at 1e-4). Points 1–20 train, points 21–24 are held out: they
fall between training cases, where a user's next case would. Writes OUT/design.csv: name, split, alpha, speed, ux, uy.

Usage: airfoil2d_design.py OUT
"""
import math
import sys


def halton(index, base):
    value, fraction = 0.0, 1.0
    while index > 0:
        fraction /= base
        value += fraction * (index % base)
        index //= base
    return value


def main():
    out = sys.argv[1]
    with open(f"{out}/design.csv", "w") as f:
        f.write("name,split,alpha,speed,ux,uy\n")
        for k in range(1, 25):
            alpha = -2.0 + 12.0 * halton(k, 2)
            speed = 15.0 + 20.0 * halton(k, 3)
            split = "train" if k <= 20 else "heldout"
            ux, uy = speed * math.cos(math.radians(alpha)), speed * math.sin(math.radians(alpha))
            f.write(f"case_{k:02d},{split},{alpha:.6f},{speed:.6f},{ux:.6f},{uy:.6f}\n")


if __name__ == "__main__":
    main()

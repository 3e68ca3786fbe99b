"""Figure of the super_resolution coupler's comparison (surrox run with coupler super_resolution):
the horizontally averaged buoyancy profile near the bottom wall and the horizontal kinetic-energy
spectra of the fine run, the coarse run, its trilinear upsampling and the super-resolved series.

Usage: /usr/bin/python3 scripts/figures/super_resolution_coupler.py RUN_DIR OUT.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def columns(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    names = rows[0]
    data = {n: [] for n in names}
    for row in rows[1:]:
        for n, v in zip(names, row):
            data[n].append(float(v) if v else None)
    return names, data


def main():
    run, out = sys.argv[1], sys.argv[2]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    names, profile = columns(f"{run}/profile.csv")
    for name in names[1:]:
        values = [v for v in profile[name] if v is not None]
        nz = len(values)
        z = [(k + 0.5) / nz for k in range(nz)]
        left.plot(values, z, "o-" if nz < 16 else "-", label=name, markersize=3)
    left.set_ylim(0, 0.25)
    left.set_xlim(-0.05, 0.5)
    left.set_xlabel("⟨b⟩ (time and x average, t ≥ average_from)")
    left.set_ylabel("z")
    left.set_title("buoyancy profile near the bottom wall")
    left.legend()
    names, spectrum = columns(f"{run}/kinetic_spectrum.csv")
    for name in names[1:]:
        pairs = [(k, v) for k, v in zip(spectrum["k"], spectrum[name]) if v is not None and k > 0]
        right.loglog([p[0] for p in pairs], [p[1] for p in pairs], label=name)
    right.set_xlabel("horizontal wavenumber index k (wavelength 4/k)")
    right.set_ylabel("E(k)")
    right.set_title("kinetic energy spectrum")
    right.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()

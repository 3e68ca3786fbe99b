#!/usr/bin/python3
"""Figures for docs/validation/qg.md, from fresh runs of the shipped cases.

Runs (skipping any run folder that already holds a summary.json):
  stommel.yaml on 32x64, 64x128, 128x256 -> qg_stommel.png (ψ against the closed form, error
                                             against h, observed order)
  rossby_basin_mode.yaml on the same grids -> qg_rossby.png (ψ at three times, the phase against
                                             σt, frequency error against h)
  double_gyre.yaml                        -> qg_double_gyre.png (time-mean ψ and ω, an
                                             instantaneous ω, energy and its budget against t)
  double_gyre.yaml to t = 30 on 64x128 and on San/Rahman's 256x512 (2 MPI ranks, about 1 h)
                                          -> qg_double_gyre_grids.png (time-mean ψ and ω over
                                             t ∈ [10, 30] side by side, energy against t) and
                                             the kinetic-energy statistics of both

Usage: scripts/figures/qg.py [--surrox build/release/apps/surrox]
                             [--only stommel|rossby|double_gyre|grids]
                             [--work /tmp/surrox-figures/qg] [--out docs/validation/figures]
Needs Debian's python3-matplotlib, python3-numpy and python3-h5py (scripts/bootstrap.sh).
"""
import argparse
import csv
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from surrox_runs import run_case  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = ROOT / "cases" / "qg"


def fields(out):
    """Times and fields (snapshot, y, x) of a run's fields.h5."""
    with h5py.File(out / "fields.h5", "r") as f:
        return np.array(f["time"]), {k: np.array(f["fields"][k])[:, 0] for k in f["fields"]}


def stommel_exact(x, y, beta=10.0, r=0.5, f0=1.0, lx=1.0, ly=2.0):
    k = 2 * math.pi / ly
    root = math.sqrt(beta * beta + 4 * r * r * k * k)
    m1, m2 = (-beta + root) / (2 * r), (-beta - root) / (2 * r)
    e1, e2 = math.exp(m1 * lx), math.exp(m2 * lx)
    a, b = (1 - e2) / (e2 - e1), (e1 - 1) / (e2 - e1)
    return -f0 / (r * k * k) * (1 + a * np.exp(m1 * x) + b * np.exp(m2 * x)) * np.sin(k * y)


def stommel(surrox, work, figures):
    hs, errors = [], []
    fig, (a0, a1, a2) = plt.subplots(1, 3, figsize=(12, 4.2))
    for n in (32, 64, 128):
        out = work / f"stommel_{n}"
        run_case(surrox, CASES / "stommel.yaml", out, [f"solver.cells=[{n}, {2 * n}]"])
        _, f = fields(out)
        psi = f["psi"][-1]
        x = np.arange(1, n) / n
        y = -1 + np.arange(1, 2 * n) * 2 / (2 * n)
        X, Y = np.meshgrid(x, y)
        exact = stommel_exact(X, Y)
        hs.append(1 / n)
        errors.append(np.abs(psi - exact).max() / np.abs(exact).max())
        if n == 64:
            levels = np.linspace(exact.min(), exact.max(), 15)
            a0.contourf(X, Y, psi, levels=levels, cmap="RdBu_r")
            a0.contour(X, Y, exact, levels=levels, colors="k", linewidths=0.6)
            a0.set_title("ψ, 64 × 128 (colour) and closed form (lines)")
            a0.set_aspect("equal")
            a1.plot(x, psi[3 * n // 2 - 1], "o", ms=3, label="surrox, y = 0.5")
            xs = np.linspace(0, 1, 400)
            a1.plot(xs, stommel_exact(xs, 0.5 + 0 * xs), "k-", lw=1, label="Stommel (1948)")
            a1.set_xlabel("x")
            a1.set_ylabel("ψ")
            a1.legend()
    orders = [math.log2(errors[i - 1] / errors[i]) for i in range(1, len(errors))]
    a2.loglog(hs, errors, "o-", label="max-norm error / max|ψ|")
    a2.loglog(hs, [errors[0] * (h / hs[0]) ** 2 for h in hs], "k--", label="h²")
    a2.set_xlabel("h = 1/nx")
    a2.set_title("orders " + ", ".join(f"{o:.2f}" for o in orders))
    a2.legend()
    fig.tight_layout()
    fig.savefig(figures / "qg_stommel.png", dpi=120)
    print("stommel errors", errors, "orders", orders)


def mode_phase(psi, n, big_k):
    """Phase θ and amplitude of ψ ≈ a φ cos(Kx) + b φ sin(Kx) = |·| φ cos(Kx + θ), least squares."""
    x = np.arange(1, n) / n
    y = np.arange(1, 2 * n) / n  # from the southern wall
    X, Y = np.meshgrid(x, y)
    envelope = np.sin(np.pi * X) * np.sin(np.pi * Y / 2)
    basis = np.stack([(envelope * np.cos(big_k * X)).ravel(), (envelope * np.sin(big_k * X)).ravel()], 1)
    (a, b), *_ = np.linalg.lstsq(basis, psi.ravel(), rcond=None)
    return math.atan2(-b, a), math.hypot(a, b)


def rossby(surrox, work, figures):
    big_k = math.pi * math.sqrt(1.25)  # mode (1, 1) of [0, 1] × [−1, 1]
    sigma = 1.0 / (2 * big_k)           # β = 1
    hs, errors = [], []
    fig, ax = plt.subplots(1, 5, figsize=(17, 4), gridspec_kw={"width_ratios": [1, 1, 1, 1.6, 1.6]})
    for n in (32, 64, 128):
        out = work / f"rossby_{n}"
        run_case(surrox, CASES / "rossby_basin_mode.yaml", out, [f"solver.cells=[{n}, {2 * n}]"])
        t, f = fields(out)
        fits = [mode_phase(p, n, big_k) for p in f["psi"]]
        phase = np.unwrap([p for p, _ in fits])
        measured = np.polyfit(t, phase, 1)[0]
        hs.append(1 / n)
        errors.append(abs(measured / sigma - 1))
        if n == 64:
            x = np.arange(1, n) / n
            y = -1 + np.arange(1, 2 * n) / n
            for a, index in zip(ax[:3], (0, 5, 10)):
                a.contourf(x, y, f["psi"][index], levels=np.linspace(-1, 1, 21), cmap="RdBu_r")
                a.set_title(f"ψ at t = {t[index]:g} (σt = {sigma * t[index]:.2f})", fontsize=9)
                a.set_aspect("equal")
            ax[3].plot(t, phase - phase[0], "o", ms=3, label="surrox, 64 × 128")
            ax[3].plot(t, sigma * t, "k-", lw=1, label="σt, σ = β/(2K)")
            ax[3].set_xlabel("t")
            ax[3].set_ylabel("phase of the mode")
            ax[3].legend(fontsize=8)
    orders = [math.log2(errors[i - 1] / errors[i]) for i in range(1, len(errors))]
    ax[4].loglog(hs, errors, "o-", label="|σ_measured/σ − 1|")
    ax[4].loglog(hs, [errors[0] * (h / hs[0]) ** 2 for h in hs], "k--", label="h²")
    ax[4].set_xlabel("h = 1/nx")
    ax[4].set_title("orders " + ", ".join(f"{o:.2f}" for o in orders), fontsize=9)
    ax[4].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(figures / "qg_rossby.png", dpi=110)
    print("rossby frequency errors", errors, "orders", orders)


def double_gyre(surrox, work, figures):
    out = work / "double_gyre"
    summary = run_case(surrox, CASES / "double_gyre.yaml", out)
    qg = summary["results"]["qg"]
    t, f = fields(out)
    start = qg["average_window"][0]
    mean_psi = f["psi"][t >= start].mean(axis=0)
    mean_omega = f["omega"][t >= start].mean(axis=0)
    ny, nx = mean_psi.shape
    x = np.arange(1, nx + 1) / (nx + 1)
    y = -1 + np.arange(1, ny + 1) * 2 / (ny + 1)
    with open(out / "monitor.csv") as fh:
        rows = list(csv.DictReader(fh))
    m = {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}
    fig, ax = plt.subplots(1, 4, figsize=(15, 5), gridspec_kw={"width_ratios": [1, 1, 1, 2.2]})
    for a, data, title in ((ax[0], -mean_psi, "time-mean −ψ (San's ψ)"),
                           (ax[1], mean_omega, "time-mean ω"),
                           (ax[2], f["omega"][-1], f"ω at t = {t[-1]:g}")):
        lim = np.abs(data).max()
        a.contourf(x, y, data, levels=np.linspace(-lim, lim, 21), cmap="RdBu_r")
        a.set_title(title, fontsize=9)
        a.set_aspect("equal")
    ax[3].plot(m["time"], m["energy"], label="energy E")
    ax[3].plot(m["time"], m["wind_input"], lw=0.6, label="wind input P")
    ax[3].plot(m["time"], m["viscous_dissipation"], lw=0.6, label="viscous dissipation D")
    ax[3].axvline(start, color="k", ls=":", lw=0.8)
    ax[3].set_xlabel("t")
    ax[3].set_title(f"mean over t ≥ {start:g}: P = {qg['mean_wind_input']:.2f}, "
                    f"D = {qg['mean_viscous_dissipation']:.2f} "
                    f"({100 * qg['budget_imbalance']:.2f} %)", fontsize=9)
    ax[3].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(figures / "qg_double_gyre.png", dpi=120)
    e = m["energy"][m["time"] >= start]
    print("double gyre:", {k: qg[k] for k in ("mean_wind_input", "mean_viscous_dissipation",
                                              "budget_imbalance", "budget_residual", "mean_energy")},
          "E min/max/std", e.min(), e.max(), e.std(), "wall", summary["results"].get("wall_time_s"))


def window_statistics(monitor, key, start, end):
    """Time-weighted mean and standard deviation, min and max of a monitor column over [start, end]."""
    t, e = monitor["time"], monitor[key]
    keep = (t >= start) & (t <= end + 1e-9)
    t, e = t[keep], e[keep]
    mean = np.trapz(e, t) / (t[-1] - t[0])
    std = math.sqrt(np.trapz((e - mean) ** 2, t) / (t[-1] - t[0]))
    return {"mean": mean, "std": std, "min": e.min(), "max": e.max()}


def grids(surrox, work, figures):
    """The double gyre on the shipped 64 × 128 grid and on the published 256 × 512 grid, both
    from rest to t = 30, time means over t ∈ [10, 30]."""
    window = (10.0, 30.0)
    common = [f"solver.end_time={window[1]:g}", f"solver.average_from={window[0]:g}",
              "output.interval=0.25"]
    runs = {}
    for label, cells, launcher in (("64 × 128", "[64, 128]", ()),
                                   ("256 × 512 (San et al.'s grid)", "[256, 512]",
                                    ("mpirun", "--allow-run-as-root", "--oversubscribe", "-n", "2"))):
        out = work / ("grids_" + cells.strip("[]").replace(", ", "x"))
        summary = run_case(surrox, CASES / "double_gyre.yaml", out,
                           common + [f"solver.cells={cells}"], launcher)
        t, f = fields(out)
        with open(out / "monitor.csv") as fh:
            rows = list(csv.DictReader(fh))
        monitor = {k: np.array([float(r[k]) for r in rows])
                   for k in ("time", "energy", "wind_input", "viscous_dissipation")}
        keep = (t >= window[0]) & (t <= window[1] + 1e-9)
        runs[label] = dict(psi=f["psi"][keep].mean(axis=0), omega=f["omega"][keep].mean(axis=0),
                           monitor=monitor, wall=summary.get("wall_time_s"))
    fig, ax = plt.subplots(1, 5, figsize=(17, 5), gridspec_kw={"width_ratios": [1, 1, 1, 1, 2]})
    for k, (label, r) in enumerate(runs.items()):
        ny, nx = r["psi"].shape
        x = np.arange(1, nx + 1) / (nx + 1)
        y = -1 + np.arange(1, ny + 1) * 2 / (ny + 1)
        for a, data, name in ((ax[2 * k], -r["psi"], "time-mean −ψ"),
                              (ax[2 * k + 1], r["omega"], "time-mean ω")):
            lim = np.abs(data).max()
            a.contourf(x, y, data, levels=np.linspace(-lim, lim, 21), cmap="RdBu_r")
            a.contour(x, y, data, levels=np.linspace(-lim, lim, 21), colors="k", linewidths=0.3)
            a.set_title(f"{name}, {label}\nrange [{data.min():.3g}, {data.max():.3g}]", fontsize=8)
            a.set_aspect("equal")
        ax[4].plot(r["monitor"]["time"], r["monitor"]["energy"], lw=0.8, label=label)
    ax[4].axvspan(*window, color="0.9")
    ax[4].set_xlabel("t")
    ax[4].set_ylabel("kinetic energy E")
    ax[4].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(figures / "qg_double_gyre_grids.png", dpi=120)
    for label, r in runs.items():
        stats = {k: window_statistics(r["monitor"], k, *window)
                 for k in ("energy", "wind_input", "viscous_dissipation")}
        p, d = stats["wind_input"]["mean"], stats["viscous_dissipation"]["mean"]
        print(label, "over", window, "energy", stats["energy"], "P", p, "D", d,
              "imbalance", (p - d) / p, "time-mean -ψ range", (-r["psi"]).min(), (-r["psi"]).max(),
              "time-mean ω range", r["omega"].min(), r["omega"].max(), "wall", r["wall"])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--surrox", default=str(ROOT / "build/release/apps/surrox"))
    p.add_argument("--work", default="/tmp/surrox-figures/qg")
    p.add_argument("--out", default=str(ROOT / "docs/validation/figures"))
    p.add_argument("--only", choices=("stommel", "rossby", "double_gyre", "grids"),
                   help="draw one figure only")
    args = p.parse_args()
    work, figures = pathlib.Path(args.work), pathlib.Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    figures.mkdir(parents=True, exist_ok=True)
    for name, draw in (("stommel", stommel), ("rossby", rossby), ("double_gyre", double_gyre),
                       ("grids", grids)):
        if args.only in (None, name):
            draw(args.surrox, work, figures)


if __name__ == "__main__":
    main()

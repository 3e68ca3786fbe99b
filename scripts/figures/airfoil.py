#!/usr/bin/python3
"""Figures and tables for docs/validation/airfoil.md, from fresh runs of the shipped cases.

Runs (skipping any run folder that already holds a summary.json), all with
build/release/apps/surrox run cases/airfoil/CASE.yaml --set ...:
  naca0012_euler.yaml    on 64x32, 128x64, 256x128      -> grid convergence of Cl, Cd
  joukowski_euler.yaml   on 64x32, 128x64, 256x128      -> Cl error against the exact lift, Cd
                         (both with the first cell 4e-3, 2e-3, 1e-3 chord, and with 1e-3 on all)
  joukowski_euler.yaml   at alpha = 2 and 6 deg (256x128) -> Cl against the exact lift
  naca0012_laminar.yaml  (256x128)                       -> Cp, Cf, separation
Figures (docs/validation/figures/):
  airfoil_joukowski_cp.png       surface Cp against the exact potential-flow Cp of the map
  airfoil_convergence.png        Joukowski Cl error and Cd, NACA 0012 Cl and Cd, against the grid;
                                 Joukowski Cl against alpha
  airfoil_naca0012_laminar.png   Cp and Cf of the laminar case, separation point marked
  airfoil_residuals.png          density residual of the three default cases against the cycle
  airfoil_naca0012_grid.png      the default O-grid near the NACA 0012 (from the run's .vts)
and the tables of the validation document on stdout.

Usage: scripts/figures/airfoil.py [--surrox build/release/apps/surrox]
                                  [--work /tmp/surrox-figures/airfoil] [--out docs/validation/figures]
Needs Debian's python3-matplotlib and python3-numpy. About 5 CPU-minutes on the 2-core
development machine for all runs.
"""
import argparse
import cmath
import csv
import json
import math
import pathlib
import re
import sys
import zlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from surrox_runs import run_case  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = ROOT / "cases" / "airfoil"
GRIDS = [(64, 32, 4e-3), (128, 64, 2e-3), (256, 128, 1e-3)]  # cells around, normal, first cell


def run(surrox, case, out, overrides=()):
    """Runs one shipped case unless its folder already has a summary; returns the summary."""
    return run_case(surrox, CASES / case, out, overrides)


def grid_set(n, m, first_cell):
    return [f"solver.mesh.cells_around={n}", f"solver.mesh.cells_normal={m}",
            f"solver.mesh.first_cell_height={first_cell:g}"]


def airfoil(summary):
    return summary["results"]["airfoil"]


def table(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


class Joukowski:
    """Exact potential flow past the Joukowski airfoil: mesh/airfoil_geometry.cpp
    (JoukowskiAirfoil) transcribed, same formulas and the same leading-edge search."""

    def __init__(self, cx, cy):
        self.mu = complex(cx, cy)
        self.radius = math.hypot(1 - cx, cy)
        self.beta = math.atan2(cy, 1 - cx)
        dist = lambda t: abs(self.z(t) - 2)
        samples = 20000
        ts = -self.beta + 2 * math.pi * np.arange(samples) / samples
        best_t = ts[np.argmax([dist(t) for t in ts])]
        lo, hi = best_t - 2 * math.pi / samples, best_t + 2 * math.pi / samples
        g = 0.5 * (math.sqrt(5) - 1)
        for _ in range(80):
            c, d = hi - g * (hi - lo), lo + g * (hi - lo)
            if dist(c) > dist(d):
                hi = d
            else:
                lo = c
        self.le = self.z(0.5 * (lo + hi))
        self.chord = abs(2 - self.le)

    def z(self, theta):
        zeta = self.mu + self.radius * cmath.exp(1j * theta)
        return zeta + 1 / zeta

    def lift_coefficient(self, alpha):
        return 8 * math.pi * self.radius / self.chord * math.sin(alpha + self.beta)

    def theta_of(self, x, y):
        z = complex(x, y) * self.chord + self.le
        root = cmath.sqrt(z * z - 4)
        a, b = 0.5 * (z + root), 0.5 * (z - root)
        zeta = a if abs(abs(a - self.mu) - self.radius) <= abs(abs(b - self.mu) - self.radius) else b
        return cmath.phase(zeta - self.mu)

    def pressure_coefficient(self, theta, alpha):
        d = math.remainder(theta + self.beta, 2 * math.pi)
        if abs(d) < 1e-7:
            speed = math.cos(alpha + self.beta) / self.radius
        else:
            zeta = self.mu + self.radius * cmath.exp(1j * theta)
            q = 2 * (math.sin(theta - alpha) + math.sin(alpha + self.beta))
            speed = abs(q) / abs(1 - 1 / (zeta * zeta))
        return 1 - speed * speed


JOUKOWSKI = Joukowski(-0.1, 0.05)  # cases/airfoil/joukowski.dat


def joukowski_exact_cl(alpha_deg, mach):
    return JOUKOWSKI.lift_coefficient(math.radians(alpha_deg)) / math.sqrt(1 - mach * mach)


def read_vts_points(path):
    """Node coordinates (nj+1, ni+1, 3) of a surrox .vts (appended raw, zlib, UInt64 headers)."""
    data = path.read_bytes()
    start = data.index(b"<AppendedData")
    head = data[:start].decode()
    extent = [int(v) for v in re.search(r'WholeExtent="([^"]+)"', head).group(1).split()]
    offset = int(re.search(r'Name="Points"[^>]*offset="\s*(\d+)', head).group(1))
    raw = data[data.index(b"_", start) + 1:]
    pos = offset
    nblocks = int(np.frombuffer(raw, np.uint64, 1, pos)[0])
    sizes = np.frombuffer(raw, np.uint64, 3 + nblocks, pos)[3:]
    pos += 8 * (3 + nblocks)
    chunks = []
    for s in sizes:
        chunks.append(zlib.decompress(raw[pos:pos + int(s)]))
        pos += int(s)
    points = np.frombuffer(b"".join(chunks), np.float64)
    ni, nj = extent[1] + 1, extent[3] + 1
    return points.reshape(nj, ni, 3)


def observed_order(f):
    """Observed order and Richardson estimate from three values on grids refined by 2."""
    f1, f2, f3 = f
    if (f1 - f2) * (f2 - f3) <= 0:
        return float("nan"), float("nan")
    p = math.log2((f1 - f2) / (f2 - f3))
    return p, f3 + (f3 - f2) / (2**p - 1)


def grid_family(surrox, work, case, name, scaled):
    """Runs on GRIDS: scaled: first-cell height ∝ grid spacing (self-similar refinement);
    else the case's 1e-3 chord on every grid. 256 x 128 with 1e-3 is the default run."""
    out = []
    for n, m, h1 in GRIDS:
        h1 = h1 if scaled else 1e-3
        folder = work / (f"{name}_{n}x{m}" if scaled or n == 256 else f"{name}_{n}x{m}_h1e-3")
        out.append(airfoil(run(surrox, case, folder, grid_set(n, m, h1))))
    return out


def convergence(surrox, work, figures):
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    exact = joukowski_exact_cl(4.0, 0.15)
    print(f"\nJoukowski M 0.15 alpha 4: exact Cl = {exact:.5f} (incompressible "
          f"{JOUKOWSKI.lift_coefficient(math.radians(4)):.5f}, beta = {math.degrees(JOUKOWSKI.beta):.4f} deg, "
          f"R/c = {JOUKOWSKI.radius / JOUKOWSKI.chord:.5f})")
    for scaled in (True, False):
        label = "first cell ∝ h (4e-3, 2e-3, 1e-3)" if scaled else "first cell 1e-3 on every grid"
        jouk = grid_family(surrox, work, "joukowski_euler.yaml", "joukowski", scaled)
        naca = grid_family(surrox, work, "naca0012_euler.yaml", "naca0012_euler", scaled)
        print(f"\n[{label}] Joukowski:")
        print("| grid | cycles | Cl | Cl error | Cd | Cm |")
        for (n, m, _), a in zip(GRIDS, jouk):
            print(f"| {n} x {m} | {a['iterations']:.0f} | {a['cl']:.5f} | {100 * (a['cl'] / exact - 1):+.3f} % | "
                  f"{a['cd']:.2e} | {a['cm']:.4f} |")
        for key in ("cl", "cd"):
            p, ext = observed_order([a[key] for a in jouk])
            print(f"Joukowski {key}: observed order {p:.2f}, Richardson estimate {ext:.5g}")
        print(f"[{label}] NACA 0012 M 0.5 alpha 2 (Euler):")
        print("| grid | cycles | Cl | Cd | Cm |")
        for (n, m, _), a in zip(GRIDS, naca):
            print(f"| {n} x {m} | {a['iterations']:.0f} | {a['cl']:.5f} | {a['cd']:.3e} | {a['cm']:.5f} |")
        for key in ("cl", "cd", "cm"):
            p, ext = observed_order([a[key] for a in naca])
            print(f"NACA {key}: observed order {p:.2f}, Richardson estimate {ext:.5g}")
        if scaled:
            jouk_s, naca_s = jouk, naca
    jouk, naca = jouk_s, naca_s

    h = np.array([1 / n for n, _, _ in GRIDS])
    ax = axes[0]
    ax.loglog(h, [abs(a["cl"] / exact - 1) for a in jouk], "o-", label="|Cl − exact| / exact")
    ax.loglog(h, [a["cd"] for a in jouk], "s-", label="Cd (exact: 0)")
    ax.loglog(h, 0.5 * jouk[0]["cd"] * (h / h[0]) ** 2, "k:", label="slope 2")
    ax.set_xlabel("1 / cells around")
    ax.set_title("Joukowski, M 0.15, α = 4° (first cell ∝ h)")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)

    ax = axes[1]
    ax.plot(h, [a["cl"] for a in naca], "o-", label="Cl")
    ax.set_xlabel("1 / cells around")
    ax.set_ylabel("Cl")
    ax.set_xlim(0, h[0] * 1.1)
    ax2 = ax.twinx()
    ax2.plot(h, [1e4 * a["cd"] for a in naca], "s-", color="C1", label="Cd (counts)")
    ax2.set_ylabel("Cd × 10⁴", color="C1")
    ax.set_title("NACA 0012 Euler, M 0.5, α = 2° (first cell ∝ h)")
    ax.legend(loc="upper left", fontsize=8)
    ax2.legend(loc="upper right", fontsize=8)
    ax.grid(True, alpha=0.3)

    ax = axes[2]
    alphas = [2.0, 4.0, 6.0]
    runs = {2.0: airfoil(run(surrox, "joukowski_euler.yaml", work / "joukowski_a2", ["solver.alpha_deg=2"])),
            4.0: jouk[-1],
            6.0: airfoil(run(surrox, "joukowski_euler.yaml", work / "joukowski_a6", ["solver.alpha_deg=6"]))}
    print("\nJoukowski M 0.15, 256 x 128, Cl against alpha:")
    print("| alpha | cycles | Cl | exact | error | Cd |")
    for al in alphas:
        a = runs[al]
        ex = joukowski_exact_cl(al, 0.15)
        print(f"| {al:.0f} | {a['iterations']:.0f} | {a['cl']:.5f} | {ex:.5f} | {100 * (a['cl'] / ex - 1):+.3f} % | "
              f"{a['cd']:.2e} |")
    fine = np.linspace(0, 8, 50)
    ax.plot(fine, [joukowski_exact_cl(a, 0.15) for a in fine], "k-", label="exact × Prandtl–Glauert")
    ax.plot(alphas, [runs[a]["cl"] for a in alphas], "o", label="surrox, 256 × 128")
    ax.set_xlabel("α (deg)")
    ax.set_ylabel("Cl")
    ax.set_title("Joukowski, M 0.15")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(figures / "airfoil_convergence.png", dpi=110)
    plt.close(fig)


def joukowski_cp(surrox, work, figures):
    out = work / "joukowski_256x128"
    run(surrox, "joukowski_euler.yaml", out, grid_set(256, 128, 1e-3))
    s = table(out / "surface.csv")
    mach, alpha = 0.15, math.radians(4.0)
    # surface.csv gives the face midpoints in the chord frame (LE at 0, x along the chord); the
    # .dat coordinates (those of JoukowskiAirfoil) have LE = (0, 0) and the TE slightly below y = 0.
    te = JOUKOWSKI.z(-JOUKOWSKI.beta)
    te = complex((te.real - JOUKOWSKI.le.real) / JOUKOWSKI.chord, (te.imag - JOUKOWSKI.le.imag) / JOUKOWSKI.chord)
    direction = te / abs(te)
    cp_inc = np.array([JOUKOWSKI.pressure_coefficient(JOUKOWSKI.theta_of(*_xy(x, y, direction)), alpha)
                       for x, y in zip(s["x_over_c"], s["y_over_c"])])
    cp_pg = cp_inc / math.sqrt(1 - mach * mach)
    interior = s["x_over_c"] < 0.98
    err_pg = np.abs(s["cp"] - cp_pg)[interior]
    err_inc = np.abs(s["cp"] - cp_inc)[interior]
    print(f"\nJoukowski Cp (256 x 128, x/c < 0.98): max |Cp − Cp_exact·PG| = {err_pg.max():.4f}, "
          f"rms {np.sqrt(np.mean(err_pg**2)):.4f}; against the incompressible Cp: max {err_inc.max():.4f}, "
          f"rms {np.sqrt(np.mean(err_inc**2)):.4f}; suction peak surrox {-s['cp'].min():.4f}, "
          f"exact·PG {-cp_pg.min():.4f}")
    middle = (s["x_over_c"] > 0.05) & (s["x_over_c"] < 0.95)
    worst = np.argmax(np.where(interior, np.abs(s["cp"] - cp_pg), 0))
    print(f"  rms over 0.05 < x/c < 0.95: {np.sqrt(np.mean((s['cp'] - cp_pg)[middle] ** 2)):.4f}; largest "
          f"difference at x/c = {s['x_over_c'][worst]:.4f}")
    theta = np.linspace(-JOUKOWSKI.beta, -JOUKOWSKI.beta - 2 * math.pi, 2001)
    xs, cps = [], []
    for t in theta:
        z = (JOUKOWSKI.z(t) - JOUKOWSKI.le) / JOUKOWSKI.chord
        xs.append((z * direction.conjugate()).real)
        cps.append(JOUKOWSKI.pressure_coefficient(t, alpha))
    xs, cps = np.array(xs), np.array(cps)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(xs, -cps, "k--", lw=0.8, label="exact, incompressible")
    ax.plot(xs, -cps / math.sqrt(1 - mach * mach), "k-", lw=1.2, label="exact × 1/√(1 − M²)")
    up = s["upper"] > 0
    ax.plot(s["x_over_c"][up][::2], -s["cp"][up][::2], "o", ms=3.5, mfc="none", color="C0",
            label="surrox, upper")
    ax.plot(s["x_over_c"][~up][::2], -s["cp"][~up][::2], "s", ms=3.5, mfc="none", color="C3",
            label="surrox, lower")
    ax.set_xlabel("x / c")
    ax.set_ylabel("−Cp")
    ax.set_title("Joukowski airfoil, M 0.15, α = 4°, 256 × 128 (every 2nd wall face)")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(figures / "airfoil_joukowski_cp.png", dpi=110)
    plt.close(fig)


def _xy(x, y, direction):
    z = complex(x, y) * direction
    return z.real, z.imag


def laminar(surrox, work, figures):
    out = work / "naca0012_laminar"
    a = airfoil(run(surrox, "naca0012_laminar.yaml", out))
    s = table(out / "surface.csv")
    sep = a.get("separation_x_over_c", float("nan"))
    print(f"\nNACA 0012 laminar M 0.5 Re 5000: {a['iterations']:.0f} cycles, Cd = {a['cd']:.4f} "
          f"(pressure {a['cd_pressure']:.4f}, friction {a['cd_friction']:.4f}), Cl = {a['cl']:.2e}, "
          f"separation x/c = {sep:.3f}")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    up = s["upper"] > 0
    for ax, key, label in ((axes[0], "cp", "−Cp"), (axes[1], "cf", "Cf")):
        sign = -1 if key == "cp" else 1
        ax.plot(s["x_over_c"][up], sign * s[key][up], "-", color="C0", label="upper")
        ax.plot(s["x_over_c"][~up], sign * s[key][~up], "--", color="C3", label="lower")
        ax.axvline(sep, color="k", lw=0.8, ls=":")
        ax.axvline(0.81, color="0.5", lw=0.8, ls="-.")
        ax.set_xlabel("x / c")
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    axes[1].axhline(0, color="k", lw=0.5)
    axes[1].set_ylim(-0.05, 0.25)
    axes[1].annotate(f"separation x/c = {sep:.3f}\n(published ≈ 0.81, dash-dot)", (sep, 0.0),
                     xytext=(0.22, 0.06), arrowprops=dict(arrowstyle="->"), fontsize=9)
    inset = axes[1].inset_axes([0.55, 0.45, 0.42, 0.4])
    inset.plot(s["x_over_c"][up], s["cf"][up], "-", color="C0")
    inset.axhline(0, color="k", lw=0.5)
    inset.axvline(sep, color="k", lw=0.8, ls=":")
    inset.axvline(0.81, color="0.5", lw=0.8, ls="-.")
    inset.set_xlim(0.6, 1.0)
    inset.set_ylim(-0.004, 0.008)
    inset.tick_params(labelsize=7)
    inset.grid(True, alpha=0.3)
    axes[0].set_title(f"NACA 0012, M 0.5, Re 5000, α = 0°: Cd = {a['cd']:.4f}")
    axes[1].set_title(f"skin friction (Cd friction {a['cd_friction']:.4f})")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(figures / "airfoil_naca0012_laminar.png", dpi=110)
    plt.close(fig)


def residuals(surrox, work, figures):
    fig, ax = plt.subplots(figsize=(7, 4.2))
    print("\nDefault cases (256 x 128): cycles to 8 orders and loop time")
    for name, case, label in (("naca0012_euler_256x128", "naca0012_euler.yaml", "NACA 0012 Euler, M 0.5, α 2°"),
                              ("joukowski_256x128", "joukowski_euler.yaml", "Joukowski Euler, M 0.15, α 4°"),
                              ("naca0012_laminar", "naca0012_laminar.yaml", "NACA 0012 laminar, M 0.5, Re 5000")):
        summary = run(surrox, case, work / name)
        a, t = airfoil(summary), summary["results"]["timings_s"]
        m = table(work / name / "monitor.csv")
        ax.semilogy(m["step"], m["res_rho"], label=f"{label}: {a['iterations']:.0f} cycles")
        print(f"| {label} | {a['iterations']:.0f} | {a['residual_orders']:.2f} orders | advance {t['advance']:.1f} s | "
              f"{1e3 * t['advance'] / a['iterations']:.1f} ms per cycle |")
    ax.axhline(1e-8, color="k", lw=0.6, ls=":")
    ax.set_xlabel("multigrid cycle")
    ax.set_ylabel("density residual / first")
    ax.set_title("Convergence, 256 × 128 cells, 4 multigrid levels")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(figures / "airfoil_residuals.png", dpi=110)
    plt.close(fig)


def grid(surrox, work, figures):
    out = work / "naca0012_euler_256x128"
    run(surrox, "naca0012_euler.yaml", out)
    vts = sorted((out / "fields").glob("*.vts"))[-1]
    p = read_vts_points(vts)
    x, y = p[..., 0], p[..., 1]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6), gridspec_kw={"width_ratios": [1.75, 1, 1]})
    for ax, (x0, x1, y0, y1), title in (
            (axes[0], (-0.15, 1.25, -0.35, 0.35), "NACA 0012 O-grid, 256 × 128 (every 2nd line)"),
            (axes[1], (-0.02, 0.06, -0.04, 0.04), "leading edge (every line)"),
            (axes[2], (0.96, 1.04, -0.04, 0.04), "trailing edge (every line)")):
        step = 2 if ax is axes[0] else 1
        nj = x.shape[0]
        for j in range(0, nj, step):
            ax.plot(x[j], y[j], "-", color="C0", lw=0.3)
        for i in range(0, x.shape[1], step):
            ax.plot(x[:, i], y[:, i], "-", color="C0", lw=0.3)
        ax.plot(x[0], y[0], "k-", lw=1.0)
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_aspect("equal")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("x / c")
    fig.tight_layout()
    fig.savefig(figures / "airfoil_naca0012_grid.png", dpi=90)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--surrox", default=str(ROOT / "build" / "release" / "apps" / "surrox"))
    parser.add_argument("--work", default="/tmp/surrox-figures/airfoil")
    parser.add_argument("--out", default=str(ROOT / "docs" / "validation" / "figures"))
    args = parser.parse_args()
    work, figures = pathlib.Path(args.work), pathlib.Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    figures.mkdir(parents=True, exist_ok=True)
    residuals(args.surrox, work, figures)
    joukowski_cp(args.surrox, work, figures)
    laminar(args.surrox, work, figures)
    convergence(args.surrox, work, figures)
    grid(args.surrox, work, figures)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Inviscid reference lift of TMR's NACA 0012 at alpha = 10 deg for docs/validation/rans.md.

A Hess-Smith panel method (constant-strength sources on each panel plus one vortex strength on
all, Kutta condition on the two trailing-edge panels) on TMR's sharp-TE section, the standard
formula run to x = 1.008930411365 and scaled to unit chord. Prints the incompressible CL and its
Prandtl-Glauert value at M 0.15, the target an Euler solution must approach, so that the RANS
solution's viscous lift decrement can be told apart from the inviscid discretisation's error.
Usage: /usr/bin/python3 scripts/naca0012_panel_lift.py [alpha_deg] [mach]
"""
import sys

import numpy as np


def section(n):
    """2n + 1 nodes, TE -> lower surface -> LE -> upper surface -> TE (clockwise)."""
    b = np.linspace(0, np.pi, n + 1)
    xs = 1.008930411365 * 0.5 * (1 - np.cos(b))
    yt = 0.6 * (0.2969 * np.sqrt(xs) - 0.1260 * xs - 0.3516 * xs**2 + 0.2843 * xs**3
                - 0.1015 * xs**4)
    x = np.concatenate([xs[::-1], xs[1:]]) / 1.008930411365
    y = np.concatenate([-yt[::-1], yt[1:]]) / 1.008930411365
    return x, y


def hess_smith(x, y, alpha):
    """Incompressible Cp per panel and the panel vectors (dx, dy)."""
    n = len(x) - 1
    xm, ym = 0.5 * (x[:-1] + x[1:]), 0.5 * (y[:-1] + y[1:])
    dx, dy = x[1:] - x[:-1], y[1:] - y[:-1]
    th = np.arctan2(dy, dx)
    x1, y1 = x[None, :-1] - xm[:, None], y[None, :-1] - ym[:, None]
    x2, y2 = x[None, 1:] - xm[:, None], y[None, 1:] - ym[:, None]
    beta = np.arctan2(x1 * y2 - y1 * x2, x1 * x2 + y1 * y2)  # angle panel j subtends at i
    np.fill_diagonal(beta, np.pi)
    lr = np.log(np.hypot(x2, y2) / np.hypot(x1, y1))
    np.fill_diagonal(lr, 0.0)
    d = th[:, None] - th[None, :]
    s, c = np.sin(d), np.cos(d)
    an_src, at_src = (s * lr + c * beta) / (2 * np.pi), (s * beta - c * lr) / (2 * np.pi)
    an_vor = ((c * lr - s * beta) / (2 * np.pi)).sum(axis=1)
    at_vor = ((s * lr + c * beta) / (2 * np.pi)).sum(axis=1)
    a = np.zeros((n + 1, n + 1))
    rhs = np.zeros(n + 1)
    a[:n, :n], a[:n, n], rhs[:n] = an_src, an_vor, np.sin(th - alpha)
    a[n, :n], a[n, n] = at_src[0] + at_src[n - 1], at_vor[0] + at_vor[n - 1]
    rhs[n] = -(np.cos(th[0] - alpha) + np.cos(th[n - 1] - alpha))
    q = np.linalg.solve(a, rhs)
    return 1 - (at_src @ q[:n] + at_vor * q[n] + np.cos(th - alpha))**2, dx, dy


def lift(cp, dx, dy, alpha):
    return -np.sum(cp * (dx * np.cos(alpha) + dy * np.sin(alpha)))


def main():
    alpha = np.radians(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
    mach = float(sys.argv[2]) if len(sys.argv) > 2 else 0.15
    beta = np.sqrt(1 - mach * mach)
    for n in (200, 400, 800, 1600):
        cp, dx, dy = hess_smith(*section(n), alpha)
        cp_kt = cp / (beta + mach * mach / (1 + beta) * cp / 2)  # Karman-Tsien, per panel
        print(f"{2 * n} panels: CL {lift(cp, dx, dy, alpha):.5f}, Cp_min {cp.min():.3f} "
              f"(incompressible); M {mach}: Prandtl-Glauert CL {lift(cp, dx, dy, alpha) / beta:.5f}, "
              f"Karman-Tsien CL {lift(cp_kt, dx, dy, alpha):.5f}, Cp_min {cp_kt.min():.3f}")


if __name__ == "__main__":
    main()

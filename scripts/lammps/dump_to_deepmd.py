#!/usr/bin/env python3
"""LAMMPS frames labelled by LAMMPS itself -> one DeePMD npy system.

The dump must hold, sorted by id: id type x y z fx fy fz c_pe c_s[1..6], where c_pe is
`compute pe/atom` and c_s `compute stress/atom NULL virial` (metal units). Per frame:
energy = sum of pe/atom (eV), force (eV/A), virial = -sum(stress/atom) / nktv2p (eV, the sign of
LAMMPS's and DeePMD-kit's virial, sum r x f), box rows from the dump's orthogonal box.

Usage: dump_to_deepmd.py DUMP OUTDIR ELEMENT [ELEMENT ...]   (the element of each LAMMPS type)
"""
import os
import sys

import numpy as np

NKTV2P_METAL = 1.6021765e6  # LAMMPS update.cpp, units metal


def frames(path):
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("ITEM: NUMBER OF ATOMS"):
            n = int(lines[i + 1])
            if not lines[i + 2].startswith("ITEM: BOX BOUNDS") or "xy" in lines[i + 2]:
                raise SystemExit(f"{path}:{i + 3}: expected an orthogonal box")
            bounds = [list(map(float, lines[i + 3 + d].split()[:2])) for d in range(3)]
            header = lines[i + 6].split()[2:]
            rows = np.array([list(map(float, l.split())) for l in lines[i + 7:i + 7 + n]])
            yield bounds, header, rows
            i += 7 + n
        else:
            i += 1


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    dump, out, elements = sys.argv[1], sys.argv[2], sys.argv[3:]
    coord, box, energy, force, virial, types = [], [], [], [], [], None
    for bounds, header, rows in frames(dump):
        col = {name: k for k, name in enumerate(header)}
        need = ["id", "type", "x", "y", "z", "fx", "fy", "fz", "c_pe"] + [f"c_s[{k}]" for k in range(1, 7)]
        missing = [c for c in need if c not in col]
        if missing:
            raise SystemExit(f"{dump}: columns {missing} missing")
        rows = rows[np.argsort(rows[:, col["id"]])]
        t = rows[:, col["type"]].astype(int) - 1
        if types is None:
            types = t
        elif not np.array_equal(types, t):
            raise SystemExit(f"{dump}: the atoms' types change between frames")
        lengths = [hi - lo for lo, hi in bounds]
        lo = np.array([b[0] for b in bounds])
        coord.append((rows[:, [col["x"], col["y"], col["z"]]] - lo).reshape(-1))
        box.append(np.diag(lengths).reshape(-1))
        energy.append(rows[:, col["c_pe"]].sum())
        force.append(rows[:, [col["fx"], col["fy"], col["fz"]]].reshape(-1))
        s = -rows[:, [col[f"c_s[{k}]"] for k in range(1, 7)]].sum(axis=0) / NKTV2P_METAL
        xx, yy, zz, xy, xz, yz = s
        virial.append(np.array([xx, xy, xz, xy, yy, yz, xz, yz, zz]))
    if types is None:
        raise SystemExit(f"{dump}: no frames")
    os.makedirs(os.path.join(out, "set.000"), exist_ok=True)
    np.savetxt(os.path.join(out, "type.raw"), types, fmt="%d")
    with open(os.path.join(out, "type_map.raw"), "w") as f:
        f.write("\n".join(elements) + "\n")
    for name, data in (("coord", coord), ("box", box), ("energy", energy), ("force", force),
                       ("virial", virial)):
        np.save(os.path.join(out, "set.000", name + ".npy"), np.array(data, dtype=np.float64))
    print(f"{out}: {len(coord)} frames of {len(types)} atoms")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
# Writes tests/io/data/deepmd_numpy/: a DeePMD npy system written by numpy itself (Debian's
# python3-numpy), read by deepmd_npy_test to check the reader against an independent writer.
# float32 in set.000 (format version 1.0), float64 in set.001 (version 2.0). Values are
# (frame, atom, component)-coded so the test can recompute them.
import os
import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "deepmd_numpy")
os.makedirs(root, exist_ok=True)
types = [0, 1, 0]
with open(os.path.join(root, "type.raw"), "w") as f:
    f.write("\n".join(str(t) for t in types) + "\n")
with open(os.path.join(root, "type_map.raw"), "w") as f:
    f.write("Si\nGe\n")


def value(frame, column, what):
    return 0.25 * frame + 0.125 * column + what


for s, (dtype, version, frames) in enumerate([(np.float32, (1, 0), [0, 1]), (np.float64, (2, 0), [2, 3, 4])]):
    d = os.path.join(root, "set.%03d" % s)
    os.makedirs(d, exist_ok=True)
    arrays = {
        "coord": np.array([[value(f, c, 1.0) for c in range(9)] for f in frames], dtype=dtype),
        "box": np.array([[10.0 if c in (0, 4, 8) else 0.0 for c in range(9)] for f in frames], dtype=dtype),
        "energy": np.array([value(f, 0, -10.0) for f in frames], dtype=dtype),
        "force": np.array([[value(f, c, -1.0) for c in range(9)] for f in frames], dtype=dtype),
        "virial": np.array([[value(f, c, 3.0) for c in range(9)] for f in frames], dtype=dtype),
    }
    for name, a in arrays.items():
        with open(os.path.join(d, name + ".npy"), "wb") as f:
            np.lib.format.write_array(f, a, version=version)

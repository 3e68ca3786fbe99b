#!/usr/bin/env python3
"""Helpers of scripts/openfoam_airfoil.sh that read and write OpenFOAM's ASCII fields.

  similarity OUT            a baseline beside `surrox evaluate`'s (which, with scale_outputs,
                            interpolates U/|U| and p/|U|² in (α, |U|)): inverse-distance
                            interpolation (1/d²) of the 3 training cases nearest in α alone, the
                            speed scaled out (U/|U|, p/|U|² interpolated, then scaled to the
                            case's speed; ν_t, ν̃ as they are), i.e. the Reynolds-number effect
                            ignored, which on this family is the stronger of the two.
                            Writes OUT/similarity_baseline.csv: case, channel, relative L2 (as
                            surrox evaluate defines it: ‖p − t‖₂/‖t‖₂ over the cells).
  start OUT NAME DEST       writes that interpolation of case NAME as the internal fields of the
                            case folder DEST (its 0/U, 0/p, 0/nut, 0/nuTilda; boundaries kept):
                            the interpolated warm start.
  compare A B               prints "dU,dp": the relative L2 differences of the converged U and p
                            of case folders A and B (the same flow from two starts).
"""
import csv
import math
import os
import re
import sys

FIELDS = {"U": 3, "p": 1, "nut": 1, "nuTilda": 1}
SPEED_POWER = {"U": 1, "p": 2, "nut": 0, "nuTilda": 0}


def latest_time(case):
    times = [d for d in os.listdir(case) if re.fullmatch(r"[0-9.eE+-]+", d) and d != "0"]
    return max(times, key=float)


def read_internal(path, width):
    text = open(path).read()
    m = re.search(r"internalField\s+nonuniform\s+List<(?:scalar|vector)>\s*(\d+)\s*\(", text)
    if not m:
        raise SystemExit(f"{path}: no nonuniform internalField")
    count, body = int(m.group(1)), text[m.end():]
    numbers = re.findall(r"[-+0-9.eE]+", body[: body.index("\n)\n") if "\n)\n" in body else None])
    values = [float(v) for v in numbers[: count * width]]
    return [values[k * width:(k + 1) * width] for k in range(count)]


def write_internal(path, rows, width):
    text = open(path).read()
    kind = "vector" if width == 3 else "scalar"
    body = "\n".join("(" + " ".join(f"{v:.8g}" for v in r) + ")" if width == 3 else f"{r[0]:.8g}"
                     for r in rows)
    field = f"internalField   nonuniform List<{kind}>\n{len(rows)}\n(\n{body}\n)\n;"
    old = re.search(r"internalField\s+uniform\s+[^;]*;", text)
    uniform = old.group(0).split(None, 2)[2].rstrip(";").strip()
    # A boundary that says $internalField keeps the uniform value it meant.
    text = text.replace("$internalField", uniform)
    with open(path + ".partial", "w") as f:
        f.write(text[: old.start()] + field + text[old.end():])
    os.replace(path + ".partial", path)


def design(out):
    with open(f"{out}/design.csv") as f:
        return list(csv.DictReader(f))


def interpolation(out, target, cases):
    train = [c for c in cases if c["split"] == "train"]
    span = {k: max(float(c[k]) for c in train) - min(float(c[k]) for c in train)
            for k in ("alpha",)}
    def distance(c):
        return math.sqrt(sum(((float(c[k]) - float(target[k])) / span[k]) ** 2 for k in span))
    nearest = sorted(train, key=distance)[:3]
    weights = [1.0 / max(distance(c), 1e-12) ** 2 for c in nearest]
    total = sum(weights)
    result = {}
    for field, width in FIELDS.items():
        acc = None
        for c, w in zip(nearest, weights):
            folder = f"{out}/cases/{c['name']}"
            rows = read_internal(f"{folder}/{latest_time(folder)}/{field}", width)
            scale = (float(target["speed"]) / float(c["speed"])) ** SPEED_POWER[field] * w / total
            if acc is None:
                acc = [[0.0] * width for _ in rows]
            for a, r in zip(acc, rows):
                for k in range(width):
                    a[k] += scale * r[k]
        result[field] = acc
    return result


def relative_l2(predicted, truth, component):
    num = sum((p[component] - t[component]) ** 2 for p, t in zip(predicted, truth))
    den = sum(t[component] ** 2 for t in truth)
    return math.sqrt(num / den) if den > 0 else float("nan")


def similarity(out):
    cases = design(out)
    with open(f"{out}/similarity_baseline.csv.partial", "w") as f:
        f.write("case,channel,relative_l2\n")
        for target in (c for c in cases if c["split"] == "heldout"):
            guess = interpolation(out, target, cases)
            folder = f"{out}/cases/{target['name']}"
            for field, width in FIELDS.items():
                truth = read_internal(f"{folder}/{latest_time(folder)}/{field}", width)
                for k in range(min(width, 2)):
                    channel = f"{field}[{k}]" if width == 3 else field
                    f.write(f"cases/{target['name']},{channel},"
                            f"{relative_l2(guess[field], truth, k):.6e}\n")
    os.replace(f"{out}/similarity_baseline.csv.partial", f"{out}/similarity_baseline.csv")


def start(out, name, dest):
    cases = design(out)
    target = next(c for c in cases if c["name"] == name)
    for field, rows in interpolation(out, target, cases).items():
        write_internal(f"{dest}/0/{field}", rows, FIELDS[field])


def compare(a, b):
    out = []
    for field in ("U", "p"):
        width = FIELDS[field]
        fa = read_internal(f"{a}/{latest_time(a)}/{field}", width)
        fb = read_internal(f"{b}/{latest_time(b)}/{field}", width)
        num = sum((x - y) ** 2 for ra, rb in zip(fa, fb) for x, y in zip(ra, rb))
        den = sum(x ** 2 for ra in fa for x in ra)
        out.append(f"{math.sqrt(num / den):.3e}")
    print(",".join(out))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "similarity":
        similarity(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "start":
        start(*sys.argv[2:])
    else:
        raise SystemExit(__doc__)

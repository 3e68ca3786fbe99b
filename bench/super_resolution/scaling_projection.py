#!/usr/bin/python3
"""Projected data-parallel efficiency of MeshfreeFlowNet training at N GPUs (weak scaling: the
same batch per GPU), from the compute time of one step, the gradient bytes and an assumed link.

  ring allreduce of S bytes:        T_ar(S) = 2(N−1)·α + 2(N−1)/N · S/B
  reduce-scatter or all-gather:     T_rs(S) = T_ag(S) = (N−1)·α + (N−1)/N · S/B
  default step (sum after backward):       T = t_c + T_ar(S)
  overlapped sum (k buckets, in flight together, during the backward pass, which takes a share
  β of t_c; the last bucket cannot be hidden):
                                           T = t_c + max(T_ar(S/k), T_ar(S) − β·t_c)
  ZeRO-1 (reduce-scatter overlapped the same way, all-gather after the optimizer step):
                                           T = t_c + max(T_rs(S/k), T_rs(S) − β·t_c) + T_ag(S)
  efficiency E = t_c / T

Usage: scaling_projection.py T_COMPUTE_S PARAMETERS [N] [label]
       scaling_projection.py --needed EFFICIENCY PARAMETERS [N]
         (the compute time per step each mode needs for that efficiency, e.g. 0.968)
"""
import math
import sys

BUCKET = 1 << 20  # training.data_parallel.bucket_kib default (1 MiB)
LINKS = [  # (name, bytes/s per GPU, latency per message step in s): assumed, not measured
    ("InfiniBand HDR, 25 GB/s, 3 µs", 25e9, 3e-6),
    ("NVLink, 200 GB/s, 1 µs", 200e9, 1e-6),
]
BACKWARD_SHARE = 2.0 / 3.0  # β: backward ≈ 2 × forward


def project(t_c, params, n, bandwidth, alpha, beta=BACKWARD_SHARE):
    s = 4.0 * params  # float32 gradients
    k = max(1, math.ceil(s / BUCKET))
    allreduce = lambda b: 2 * (n - 1) * alpha + 2 * (n - 1) / n * b / bandwidth
    half = lambda b: (n - 1) * alpha + (n - 1) / n * b / bandwidth
    t_ar = allreduce(s)
    default = t_c / (t_c + t_ar)
    overlap = t_c / (t_c + max(allreduce(s / k), t_ar - beta * t_c))
    zero1 = t_c / (t_c + max(half(s / k), half(s) - beta * t_c) + half(s))
    return s, k, t_ar, default, overlap, zero1


def needed(target, params, n, bandwidth, alpha, mode):
    """Smallest t_c with efficiency >= target (bisection; efficiency grows with t_c)."""
    low, high = 1e-6, 100.0
    for _ in range(200):
        mid = math.sqrt(low * high)
        if project(mid, params, n, bandwidth, alpha)[3 + mode] >= target:
            high = mid
        else:
            low = mid
    return high


def main():
    if sys.argv[1] == "--needed":
        target, params = float(sys.argv[2]), int(sys.argv[3])
        n = int(sys.argv[4]) if len(sys.argv) > 4 else 128
        for name, bandwidth, alpha in LINKS:
            times = [needed(target, params, n, bandwidth, alpha, m) * 1e3 for m in range(3)]
            print(f"| {params:,} | {n} | {name} | {times[0]:.3g} ms | {times[1]:.3g} ms | {times[2]:.3g} ms |")
        return
    t_c, params = float(sys.argv[1]), int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 128
    label = sys.argv[4] if len(sys.argv) > 4 else ""
    for name, bandwidth, alpha in LINKS:
        s, k, t_ar, default, overlap, zero1 = project(t_c, params, n, bandwidth, alpha)
        print(f"| {label} | {t_c * 1e3:.4g} ms | {params:,} ({s / 1e6:.2f} MB, {k} bucket{'s' if k > 1 else ''}) "
              f"| {n} | {name} | {t_ar * 1e3:.3g} ms | {100 * default:.2f} % | {100 * overlap:.2f} % "
              f"| {100 * zero1:.2f} % |")


if __name__ == "__main__":
    main()

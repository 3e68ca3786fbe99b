#!/usr/bin/python3
"""The POD-LSTM emulator figure for docs/validation/qg.md, from `surrox evaluate` output.

Reads EVAL/summary.json and EVAL/forecasts.csv (written by
`surrox evaluate MODEL DATA -o EVAL` for a pod_lstm model) and draws qg_emulator.png:
  left:   the first POD coefficient over the test period, the truth against the LSTM, linear
          and persistence forecasts at lead 1 and at the longest lead;
  middle: R² (mean over the modes) against lead time, per forecaster;
  right:  RMSE of the reconstructed ψ against lead time (and the N-mode truncation floor).

Usage: scripts/figures/qg_emulator.py EVAL [--out docs/validation/figures]
Needs Debian's python3-matplotlib and python3-numpy.
"""
import argparse
import csv
import json
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORECASTERS = ["lstm", "linear", "persistence", "climatology"]
STYLE = {"lstm": ("C3", "-"), "linear": ("C0", "--"), "persistence": ("C2", ":"),
         "climatology": ("0.5", "-.")}


def read_forecasts(path, mode):
    """{lead: {column: array over windows}} for one mode, windows in order."""
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if int(r["mode"]) != mode:
                continue
            d = rows.setdefault(int(r["lead"]), {})
            for k, v in r.items():
                d.setdefault(k, []).append(float(v))
    return {lead: {k: np.array(v) for k, v in d.items()} for lead, d in rows.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval", type=pathlib.Path, help="the output folder of surrox evaluate")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "docs/validation/figures")
    args = parser.parse_args()
    test = json.loads((args.eval / "summary.json").read_text())["results"]["test"]
    f = read_forecasts(args.eval / "forecasts.csv", 1)
    leads = sorted(f)
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.2), gridspec_kw={"width_ratios": [2.2, 1, 1]})
    first = f[leads[0]]
    ax[0].plot(first["time"], first["truth"], "k-", lw=1.6, label="truth")
    for lead, alpha in ((leads[0], 1.0), (leads[-1], 0.6)):
        d = f[lead]
        for name in ("lstm", "linear", "persistence"):
            colour, style = STYLE[name]
            ax[0].plot(d["time"], d[name], color=colour, ls=style if lead == leads[0] else "-",
                       lw=1.0, alpha=alpha, label=f"{name}, lead {lead}")
    ax[0].set_xlabel("t (forecast time)")
    ax[0].set_ylabel("first POD coefficient of ψ")
    ax[0].set_title("test period: forecasts against truth")
    ax[0].legend(fontsize=7, ncol=2)
    lead_axis = np.arange(1, len(test["lstm"]["r2_per_lead"]) + 1)
    for name in FORECASTERS:
        colour, style = STYLE[name]
        ax[1].plot(lead_axis, test[name]["r2_per_lead"], color=colour, ls=style, marker="o",
                   ms=3, label=f"{name} (mean {test[name]['mean_r2']:.3f})")
        ax[2].plot(lead_axis, test[name]["rmse_per_lead"], color=colour, ls=style, marker="o",
                   ms=3, label=name)
    ax[2].plot(lead_axis, test["projection_rmse_per_lead"], "k:", lw=1, label="N-mode floor")
    ax[1].set_ylim(max(-1.0, min(min(test[n]["r2_per_lead"]) for n in FORECASTERS) - 0.05), 1.02)
    ax[1].set_xlabel("lead (snapshots)")
    ax[1].set_ylabel("R², mean over the modes")
    ax[1].legend(fontsize=7)
    ax[2].set_xlabel("lead (snapshots)")
    ax[2].set_ylabel("RMSE of the reconstructed ψ")
    ax[2].legend(fontsize=7)
    for a in ax:
        a.grid(alpha=0.3)
    fig.suptitle(f"POD-LSTM emulator of the double gyre: {test['windows']} test windows, "
                 f"t = {test['first_time']:.1f} to {test['last_time']:.1f}")
    fig.tight_layout()
    args.out.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out / "qg_emulator.png", dpi=110)
    print(args.out / "qg_emulator.png")


if __name__ == "__main__":
    main()

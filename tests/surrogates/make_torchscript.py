#!/usr/bin/python3
"""Exports a small per-point MLP from Python PyTorch as TorchScript, the way a user would, with
the surrox metadata as the extra file "surrox.json". The metadata also carries a probe input
and Python's output for it, so the C++ test can compare predictions.

Usage: make_torchscript.py OUT.pt     (needs Debian's python3-torch)
"""
import json
import sys

import torch

torch.manual_seed(3)
model = torch.nn.Sequential(torch.nn.Linear(3, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2)).double()
scripted = torch.jit.script(model)

inputs = {"names": ["centroid_x", "centroid_y", "solver.alpha_deg"], "mean": [0.5, 0.0, 2.0], "scale": [1.0, 0.5, 4.0]}
outputs = {"names": ["pressure", "density"], "mean": [1.5, 1.0], "scale": [0.2, 0.1]}
probe = torch.tensor([[0.25, -0.1, 4.0], [1.0, 0.3, 0.0]], dtype=torch.float64)
with torch.no_grad():
    normalised = (probe - torch.tensor(inputs["mean"], dtype=torch.float64)) / torch.tensor(inputs["scale"], dtype=torch.float64)
    expected = scripted(normalised) * torch.tensor(outputs["scale"], dtype=torch.float64) + torch.tensor(outputs["mean"], dtype=torch.float64)
metadata = {
    "format": "surrox-surrogate",
    "format_version": 1,
    "network": "torchscript",
    "layout": "points",
    "grid_cells": [0, 0],
    "inputs": inputs,
    "outputs": outputs,
    "training": {"probe_input": probe.tolist(), "probe_output": expected.tolist(), "torch": torch.__version__},
}
torch.jit.save(scripted, sys.argv[1], _extra_files={"surrox.json": json.dumps(metadata)})

#!/usr/bin/python3
"""The PyTorch twin of bench_train: the same MLP (5 → 4 × 256 GELU → 4), Adam (lr 1e-3), MSE,
float32, the same rows and batch size, a fresh shuffle each epoch, trained with Debian's
python3-torch (LibTorch 1.13, as surrox). Prints one JSON line with samples/s.

Usage: train_bench.py [rows] [batch] [epochs] [threads]
"""
import json
import sys
import time

import torch

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 131072
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
epochs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 1
torch.set_num_threads(threads)
torch.manual_seed(1)
inputs = torch.rand(rows, 5)
targets = torch.rand(rows, 4)
layers, width = [], 5
for hidden in (256, 256, 256, 256):
    layers += [torch.nn.Linear(width, hidden), torch.nn.GELU()]
    width = hidden
model = torch.nn.Sequential(*layers, torch.nn.Linear(width, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
start = time.perf_counter()
for epoch in range(epochs):
    order = torch.randperm(rows)
    total = 0.0
    for b in range(0, rows, batch):
        index = order[b:b + batch]
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(inputs[index]), targets[index])
        loss.backward()
        optimizer.step()
        total += loss.item() * len(index)
elapsed = time.perf_counter() - start
print(json.dumps({"code": "pytorch", "ranks": 1, "threads": threads, "rows": rows, "batch": batch, "epochs": epochs,
                  "samples_per_second": round(rows * epochs / elapsed, 1), "final_loss": total / rows,
                  "torch": torch.__version__}))

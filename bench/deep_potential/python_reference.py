#!/usr/bin/python3
"""The se_e2_a model of surrox evaluated by Debian's python3-torch, for the side-by-side bench
(with its optional se_e3 three-body and se_e2_r radial parts when the model has them).

Reads the models and frames written by bench_deep_potential with SURROX_DP_DUMP=DIR (the same
network weights, statistics and neighbour slots), evaluates energy, forces (autograd on the
relative vectors) and virial with the same tensor operations as surrogates/deep_potential/
se_e2_a.cpp and se_e3.hpp, checks the forces against the C++ ones, and times, on one thread:
  network   the evaluation from the given neighbour slots (what bench_deep_potential times);
  step      a neighbour search in torch (all pairs, minimum image, nearest `sel` per type, as
            DeePMD-kit's PyTorch backend builds its list on every call) plus the evaluation.
Prints one JSON line per frame: atoms, CPU µs per atom-step (median of --repeats), max |ΔF|.

Usage: python_reference.py DIR [--repeats 5]
"""
import argparse
import json
import pathlib
import statistics
import time

import numpy as np
import torch


def dense_layers(params, prefix, last_linear):
    layers, k = [], 0
    while f"{prefix}.{k}.w" in params:
        layers.append([params[f"{prefix}.{k}.w"], params[f"{prefix}.{k}.b"],
                       params.get(f"{prefix}.{k}.idt"), True, True])
        k += 1
    if last_linear:
        layers[-1][3] = layers[-1][4] = False  # the fitting net's output layer
    return layers


def apply(layers, x):
    for w, b, idt, activation, resnet in layers:
        y = torch.matmul(x, w) + b
        if activation:
            y = torch.tanh(y)
        if idt is not None:
            y = y * idt
        if resnet and w.shape[1] == w.shape[0]:
            y = y + x
        elif resnet and w.shape[1] == 2 * w.shape[0]:
            y = y + torch.cat([x, x], -1)
        x = y
    return x


class SeE2a:
    def __init__(self, path):
        module = torch.jit.load(str(path))
        self.config = json.loads(module.metadata)["config"]
        if self.config.get("angular_order", 1) != 1:
            raise SystemExit("python_reference.py: angular_order 2 is not transcribed")
        params = {n: p.detach() for n, p in module.named_parameters()}
        buffers = dict(module.named_buffers())
        self.ntypes = len(self.config["type_map"])
        self.sel = self.config["sel"]
        self.offset = np.concatenate([[0], np.cumsum(self.sel)]).tolist()
        self.embedding = [[dense_layers(params, f"embedding_{ti}_{tj}", False)
                           for tj in range(self.ntypes)] for ti in range(self.ntypes)]
        self.fitting = [dense_layers(params, f"fitting_{t}", True) for t in range(self.ntypes)]
        self.davg, self.dstd, self.bias = buffers["davg"], buffers["dstd"], buffers["bias"]
        three = self.config.get("three_body")
        self.sel3 = three["sel"] if three else None
        if three:
            self.three_body = {(tj, tk): dense_layers(params, f"three_body_embedding_{tj}_{tk}", False)
                               for tj in range(self.ntypes) for tk in range(tj, self.ntypes)}
            self.davg3, self.dstd3 = buffers["davg3"], buffers["dstd3"]
            # the first sel3[t] of se_e2_a's slots of each type
            self.slots3 = torch.tensor([self.offset[t] + k for t in range(self.ntypes)
                                        for k in range(self.sel3[t])], dtype=torch.int64)
            self.offset3 = np.concatenate([[0], np.cumsum(self.sel3)]).tolist()
        self.radial = None
        if self.config.get("radial_embedding"):
            self.radial = [[dense_layers(params, f"radial_embedding_{ti}_{tj}", False)
                            for tj in range(self.ntypes)] for ti in range(self.ntypes)]

    def environment_matrix(self, rij, rs=None, rc=None):
        rs = self.config["rcut_smth"] if rs is None else rs
        rc = self.config["rcut"] if rc is None else rc
        r2 = (rij * rij).sum(-1, keepdim=True)
        filled = r2 > 0
        r = torch.sqrt(torch.where(filled, r2, torch.ones_like(r2)))
        u = ((r - rs) / (rc - rs)).clamp(0.0, 1.0)
        w = u * u * u * (-6.0 * u * u + 15.0 * u - 10.0) + 1.0
        s = w / r * filled
        return torch.cat([s, s * rij / r], -1)

    def three_body_descriptor(self, r):
        n, d = r.shape[0], None
        for tj in range(self.ntypes):
            for tk in range(tj, self.ntypes):
                rj = r.narrow(1, self.offset3[tj], self.sel3[tj]).narrow(2, 1, 3)
                rk = r.narrow(1, self.offset3[tk], self.sel3[tk]).narrow(2, 1, 3)
                x = torch.matmul(rj, rk.transpose(1, 2))
                g = apply(self.three_body[(tj, tk)], x.reshape(-1, 1))
                part = torch.matmul(x.reshape(n, 1, -1), g.view(n, x.shape[1] * x.shape[2], -1)).squeeze(1)
                part = part / (self.sel3[tj] * self.sel3[tk])
                d = part if d is None else d + part
        return d

    def atomic_energy(self, rij, of_type):
        slots, m2 = sum(self.sel), self.config["axis_neuron"]
        env = self.environment_matrix(rij)
        if self.sel3:
            three = self.config["three_body"]
            env3 = self.environment_matrix(rij.index_select(1, self.slots3), three["rcut_smth"], three["rcut"])
        energy = torch.zeros(rij.shape[0], dtype=rij.dtype)
        for ti in range(self.ntypes):
            rows = of_type[ti]
            if rows.numel() == 0:
                continue
            r = (env.index_select(0, rows) - self.davg[ti]) / self.dstd[ti]
            gr, radial = None, None
            for tj in range(self.ntypes):
                rr = r.narrow(1, self.offset[tj], self.sel[tj])
                if self.radial:
                    part = apply(self.radial[ti][tj], rr.narrow(2, 0, 1)).sum(1)
                    radial = part if radial is None else radial + part
                part = torch.matmul(rr.transpose(1, 2), apply(self.embedding[ti][tj], rr.narrow(2, 0, 1)))
                gr = part if gr is None else gr + part
            gr = gr / slots
            d = torch.matmul(gr.transpose(1, 2), gr.narrow(2, 0, m2)).flatten(1)
            if self.sel3:
                r3 = (env3.index_select(0, rows) - self.davg3[ti]) / self.dstd3[ti]
                d = torch.cat([d, self.three_body_descriptor(r3)], 1)
            if self.radial:
                d = torch.cat([d, radial / (5.0 * slots)], 1)
            e = apply(self.fitting[ti], d).squeeze(-1) + self.bias[ti]
            energy = energy.index_add(0, rows, e)
        return energy

    def predict(self, rij, neighbor, of_type):
        rij = rij.detach().requires_grad_(True)
        energy = self.atomic_energy(rij, of_type).sum()
        g = torch.autograd.grad(energy, rij)[0]
        filled = (neighbor >= 0).unsqueeze(-1)
        gm = g * filled
        a, slots = rij.shape[0], rij.shape[1]
        own = torch.arange(a).unsqueeze(1).expand(a, slots)
        j = torch.where(neighbor >= 0, neighbor, own).reshape(-1)
        force = gm.sum(1).index_add(0, j, -gm.reshape(-1, 3))
        virial = -(rij.detach().unsqueeze(-1) * gm.unsqueeze(-2)).sum(1).sum(0)
        return energy.detach(), force, virial

    def neighbours(self, coord, box, types):
        """All pairs under the minimum image (an orthorhombic box over 2 rcut wide), nearest
        `sel[t]` of each type per atom: slots as environment.cpp fills them."""
        rc = self.config["rcut"]
        lengths = torch.diagonal(box)
        d = coord.unsqueeze(0) - coord.unsqueeze(1)  # d[i, j] = x_j − x_i
        d = d - lengths * torch.round(d / lengths)
        r2 = (d * d).sum(-1)
        r2.fill_diagonal_(float("inf"))
        r2 = torch.where(r2 < rc * rc, r2, torch.full_like(r2, float("inf")))
        n = coord.shape[0]
        neighbor = torch.full((n, sum(self.sel)), -1, dtype=torch.int64)
        rij = torch.zeros(n, sum(self.sel), 3, dtype=coord.dtype)
        for t in range(self.ntypes):
            masked = torch.where(types.unsqueeze(0) == t, r2, torch.full_like(r2, float("inf")))
            dist, index = torch.topk(masked, self.sel[t], dim=1, largest=False, sorted=True)
            found = torch.isfinite(dist)
            cols = slice(self.offset[t], self.offset[t] + self.sel[t])
            neighbor[:, cols] = torch.where(found, index, torch.full_like(index, -1))
            rij[:, cols] = torch.gather(d, 1, index.unsqueeze(-1).expand(-1, -1, 3)) * found.unsqueeze(-1)
        return rij, neighbor


def cpu_median(fn, repeats):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("dir")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    torch.set_num_threads(1)
    folder = pathlib.Path(args.dir)
    for coord_file in sorted(folder.glob("frame_*_coord.bin"), key=lambda f: int(f.name.split("_")[1])):
        atoms = int(coord_file.name.split("_")[1])
        stem = folder / f"frame_{atoms}_"
        model = SeE2a(f"{stem}model.pt")
        slots = sum(model.sel)

        def raw(name, dtype):
            return torch.from_numpy(np.fromfile(f"{stem}{name}.bin", dtype=dtype))

        coord = raw("coord", np.float64).view(atoms, 3)
        box = raw("box", np.float64).view(3, 3)
        rij = raw("rij", np.float64).view(atoms, slots, 3)
        neighbor = raw("neighbor", np.int64).view(atoms, slots)
        types = torch.zeros(atoms, dtype=torch.int64)  # the bench's frames are pure Si
        of_type = [torch.nonzero(types == t).flatten() for t in range(model.ntypes)]
        energy, force, _ = model.predict(rij, neighbor, of_type)
        reference = raw("force", np.float64).view(atoms, 3)
        rij_own, neighbor_own = model.neighbours(coord, box, types)
        _, force_own, _ = model.predict(rij_own, neighbor_own, of_type)
        network = cpu_median(lambda: model.predict(rij, neighbor, of_type), args.repeats)
        step = cpu_median(lambda: model.predict(*model.neighbours(coord, box, types), of_type),
                          args.repeats)
        print(json.dumps({
            "atoms": atoms,
            "network_us_per_atom_step": network / atoms * 1e6,
            "step_us_per_atom_step": step / atoms * 1e6,
            "energy_difference": abs(energy.item() - raw("energy", np.float64).item()),
            "max_force_difference": (force - reference).abs().max().item(),
            "max_force_difference_own_neighbours": (force_own - reference).abs().max().item(),
            "torch": torch.__version__, "threads": torch.get_num_threads()}), flush=True)


if __name__ == "__main__":
    main()

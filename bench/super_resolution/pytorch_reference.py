"""MeshfreeFlowNet training and inference throughput of the public PyTorch code.

Imports the model of maxjiang93/space_time_pde (src/unet3d.py, src/implicit_net.py,
src/local_implicit_grid.py, src/pde.py, experiments/rb2d/physics.py) from a checkout outside this
repository (--src, or $STPDE_DIR: the repository root) and runs the loop of its
experiments/rb2d/train.py `train()` on a fixed pool of random crops: U-Net → latent grid, the PDE
layer's forward (values and residues from the same decode), L1 regression + gamma · L1 residue,
backward, clip_grad_value_(1), Adam. Its DataLoader (numpy crop interpolation) is left out, as
surrox's crop pool is built before training. Prints one JSON line.

Matching surrox (compare_pytorch.sh): --no-batchnorm replaces the U-Net's BatchNorm3d by the
identity (surrox's U-Net has none), --activation softplus, use_continuity=True (surrox's residual
has 4 equations).
"""
import argparse
import json
import os
import sys
import time


def main():
    a = argparse.ArgumentParser(description=__doc__)
    a.add_argument("--src", default=os.environ.get("STPDE_DIR", ""),
                   help="root of a space_time_pde checkout (or $STPDE_DIR)")
    a.add_argument("--mode", choices=["train", "infer"], default="train")
    a.add_argument("--crop", type=int, nargs=3, default=[4, 8, 8], help="low-res nodes t z x")
    a.add_argument("--latent", type=int, default=16)
    a.add_argument("--unet-filters", type=int, default=8)
    a.add_argument("--unet-max-filters", type=int, default=256)
    a.add_argument("--imnet-filters", type=int, default=8)
    a.add_argument("--activation", default="softplus")
    a.add_argument("--no-batchnorm", action="store_true")
    a.add_argument("--points", type=int, default=128, help="query points per crop")
    a.add_argument("--batch", type=int, default=8)
    a.add_argument("--crops", type=int, default=32, help="crops per epoch")
    a.add_argument("--epochs", type=int, default=2, help="the first is warm-up, not timed")
    a.add_argument("--gamma", type=float, default=0.0125)
    a.add_argument("--repeats", type=int, default=5, help="inference repeats")
    a.add_argument("--threads", type=int, default=1)
    a.add_argument("--device", default="cpu", help="torch device, e.g. cuda (GPU timings)")
    args = a.parse_args()
    if not args.src or not os.path.isdir(os.path.join(args.src, "src")):
        sys.exit("pytorch_reference.py: --src (or STPDE_DIR) must be a space_time_pde checkout")
    sys.path.insert(0, os.path.join(args.src, "src"))
    sys.path.insert(0, os.path.join(args.src, "experiments", "rb2d"))

    import numpy as np
    if not hasattr(np, "int"):  # removed in numpy 1.24; unet3d.py uses np.int
        np.int = int
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    import unet3d
    from implicit_net import ImNet
    from local_implicit_grid import query_local_implicit_grid
    from nonlinearities import NONLINEARITIES
    from physics import get_rb2_pde_layer
    if args.no_batchnorm:
        unet3d.nn.BatchNorm3d = lambda num_features: torch.nn.Identity()

    nt, nz, nx = args.crop
    unet = unet3d.UNet3d(in_features=4, out_features=args.latent, igres=(nt, nz, nx),
                         nf=args.unet_filters, mf=args.unet_max_filters)
    imnet = ImNet(dim=3, in_features=args.latent, out_features=4, nf=args.imnet_filters,
                  activation=NONLINEARITIES[args.activation])
    device = torch.device(args.device)
    unet.to(device)
    imnet.to(device)
    # Kernels run asynchronously on a GPU: wait for them before reading a clock.
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    count = lambda m: sum(p.numel() for p in m.parameters())
    result = {"parameters": count(unet) + count(imnet), "imnet_parameters": count(imnet),
              "torch": torch.__version__, "threads": torch.get_num_threads(),
              "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"}
    xmin, xmax = torch.zeros(3, device=device), torch.ones(3, device=device)

    if args.mode == "infer":
        unet.eval()
        imnet.eval()
        latent = torch.randn(args.batch, nt, nz, nx, args.latent, device=device)
        query = torch.rand(args.batch, args.points, 3, device=device)
        with torch.no_grad():
            query_local_implicit_grid(imnet, latent, query, xmin, xmax)  # warm-up
            sync()
            start = time.perf_counter()
            checksum = 0.0
            for _ in range(args.repeats):
                checksum += query_local_implicit_grid(imnet, latent, query, xmin, xmax).sum().item()
            sync()
            seconds = time.perf_counter() - start
        result["query_points_per_second"] = args.batch * args.points * args.repeats / seconds
        result["checksum"] = checksum
        print(json.dumps(result))
        return

    # Crop extents as train.py's defaults give them (only constants in the residual).
    pde_layer = get_rb2_pde_layer(mean=[0.1, 0.2, 0.3, 0.4], std=[1.1, 1.2, 1.3, 1.4],
                                  t_crop=2.0, z_crop=1.0, x_crop=1.0, prandtl=1.0, rayleigh=1e6,
                                  use_continuity=True)
    import pde  # count the PDE layer's autograd passes (its torch_diff calls pde.grad)
    grad_calls = [0]
    plain_grad = pde.grad

    def counted_grad(*a, **k):
        grad_calls[0] += 1
        return plain_grad(*a, **k)
    pde.grad = counted_grad
    lowres = torch.randn(args.crops, 4, nt, nz, nx, device=device)
    coords = torch.rand(args.crops, args.points, 3, device=device)
    values = torch.randn(args.crops, args.points, 4, device=device)
    unet.train()
    imnet.train()
    params = list(unet.parameters()) + list(imnet.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-3)
    epoch_seconds = []
    for epoch in range(args.epochs):
        order = torch.randperm(args.crops, device=device)
        sync()
        start = time.perf_counter()
        total = 0.0
        for b in range(0, args.crops - args.batch + 1, args.batch):
            index = order[b:b + args.batch]
            input_grid, point_coord, point_value = lowres[index], coords[index], values[index]
            optimizer.zero_grad()
            latent_grid = unet(input_grid).permute(0, 2, 3, 4, 1)
            pde_layer.update_forward_method(
                lambda points: query_local_implicit_grid(imnet, latent_grid, points, xmin, xmax))
            pred_value, residue_dict = pde_layer(point_coord, return_residue=True)
            reg_loss = F.l1_loss(pred_value, point_value)
            pde_tensors = torch.stack([d for d in residue_dict.values()], dim=0)
            pde_loss = F.l1_loss(pde_tensors, torch.zeros_like(pde_tensors))
            loss = reg_loss + args.gamma * pde_loss
            loss.backward()
            torch.nn.utils.clip_grad_value_(unet.parameters(), 1.0)
            torch.nn.utils.clip_grad_value_(imnet.parameters(), 1.0)
            optimizer.step()
            total += loss.item()
        sync()
        epoch_seconds.append(time.perf_counter() - start)
    trained = (args.crops // args.batch) * args.batch
    timed = epoch_seconds[1:] if len(epoch_seconds) > 1 else epoch_seconds
    result["epoch_seconds"] = epoch_seconds
    result["samples_per_second"] = trained * len(timed) / sum(timed)
    result["residual_grad_calls_per_step"] = grad_calls[0] / (args.epochs * (args.crops // args.batch))
    result["final_loss"] = total / max(1, args.crops // args.batch)
    print(json.dumps(result))


if __name__ == "__main__":
    main()

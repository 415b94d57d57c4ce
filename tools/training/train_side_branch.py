"""Teach a trained detector a better die side, keeping its peaks exactly as they were.

    python -m tools.training.train_side_branch --detector vision/models/dicedet.onnx \
        --train /path/dice-real-dev /path/synth --test /path/held_out \
        --out /tmp/dicedet_sided.onnx --steps 3000 --seed 1

The reader cuts its crops, picks its looks and spaces its dice by the detector's side map,
and the detector's own side head sees too little around a cell to judge a die's size (off by
0.8-1.4 times inside the sizes it learned, 1.4-1.6 times too large below them). Here the
shipped detector's layers are rebuilt in torch from its ONNX file (batch norm already folded
in) and frozen; only a side branch with a wider view (`SidedHeatmapNet`) is trained, on the
same patches as the detector, over a wider range of die sizes. The exported file gives the
same heatmap to the last bit (checked before writing) and the new side map.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import onnx
import onnxruntime
import torch
from onnx import numpy_helper
from torch import nn

from tools.training.data import LabelledImage, load_specs
from tools.training.nets import SidedHeatmapNet
from tools.training.train_detector import BATCH, export, make_patch

SIDE_PX_RANGE = (7.0, 60.0)  # wider than the heat learned: the looks are chosen on sides outside it


def frozen_layers(model: SidedHeatmapNet) -> list[nn.Module]:
    """The heat path's layers in the order the detector's ONNX graph runs their convolutions."""
    blocks = [*model.down4, *model.down8]
    return [*blocks, model.lateral, model.merge, model.heat]


def load_heat_path(model: SidedHeatmapNet, detector: Path) -> None:
    """Copy the detector's folded convolution weights into the heat path: each batch norm made
    the identity plus the folded bias, so exporting again folds back to the same numbers."""
    graph = onnx.load(str(detector)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [node for node in graph.node if node.op_type == "Conv"]
    layers = frozen_layers(model)
    if len(convs) != len(layers) + 1:  # the last convolution is the old side head
        raise ValueError(f"{detector}: {len(convs)} convolutions, not a DiceHeatmapNet's {len(layers) + 1}")
    for node, layer in zip(convs, layers):
        weight = torch.from_numpy(weights[node.input[1]].copy())
        bias = torch.from_numpy(weights[node.input[2]].copy())
        if isinstance(layer, nn.Sequential):
            conv, norm = layer[0], layer[1]
            conv.weight.data.copy_(weight)
            norm.weight.data.fill_(1.0)
            norm.bias.data.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0)
            norm.eps = 0.0
        else:
            layer.weight.data.copy_(weight)
            layer.bias.data.copy_(bias)
    for layer in layers:
        layer.requires_grad_(False)


def side_branch(model: SidedHeatmapNet) -> list[nn.Module]:
    return [model.side_context, model.side_merge, model.side_out]


def heat_of(path: Path, frame: np.ndarray) -> np.ndarray:
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {"frame": frame})[0][:, 0]


def check_same_heat(old: Path, new: Path, seed: int) -> float:
    """The largest heat difference between the two files on a random frame (0 when kept)."""
    frame = np.random.default_rng(seed).random((1, 3, 96, 128), dtype=np.float32)
    return float(np.abs(heat_of(old, frame) - heat_of(new, frame)).max())


def side_errors(model: SidedHeatmapNet, detector: Path, records: list[LabelledImage], images: list[np.ndarray],
                rng: np.random.Generator, patches: int) -> dict[str, tuple[float, float]]:
    """Mean and 90th percentile |log side error| on held-out patches, of the old side head
    (`detector`) and of the trained branch, at the same die centres."""
    model.eval()
    session = onnxruntime.InferenceSession(str(detector), providers=["CPUExecutionProvider"])
    errors: dict[str, list[np.ndarray]] = {"old head": [], "branch": []}
    with torch.no_grad():
        for _ in range(patches // BATCH):
            picks = rng.integers(len(records), size=BATCH)
            pairs = [make_patch(records[i], images[i], rng, SIDE_PX_RANGE) for i in picks]
            x = torch.from_numpy(np.stack([p for p, _ in pairs])).permute(0, 3, 1, 2).float() / 255.0
            target = np.stack([t for _, t in pairs])
            mask = target[:, 2] > 0
            old = np.concatenate([session.run(None, {"frame": one[None]})[0] for one in x.numpy()])  # batch of 1
            errors["old head"].append(np.abs(old[:, 1] - target[:, 1])[mask])
            errors["branch"].append(np.abs(model(x)[:, 1].numpy() - target[:, 1])[mask])
    joined = {name: np.concatenate(parts) for name, parts in errors.items()}
    return {name: (float(e.mean()), float(np.percentile(e, 90))) for name, e in joined.items() if e.size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--detector", type=Path, required=True, help="the trained detector's ONNX file")
    parser.add_argument("--train", nargs="+", required=True, help="FOLDER[:even|odd] ...")
    parser.add_argument("--test", nargs="*", default=[], help="FOLDER[:even|odd] ... (scored, never trained on)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    records = [r for r in load_specs(args.train) if r.dice]
    images = [r.load() for r in records]
    model = SidedHeatmapNet()
    load_heat_path(model, args.detector)
    trained = [p for module in side_branch(model) for p in module.parameters()]
    optimiser = torch.optim.AdamW(trained, lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 4e-3, total_steps=args.steps)
    started = time.time()
    running = 0.0
    for step in range(1, args.steps + 1):
        picks = rng.integers(len(records), size=BATCH)
        pairs = [make_patch(records[i], images[i], rng, SIDE_PX_RANGE) for i in picks]
        x = torch.from_numpy(np.stack([p for p, _ in pairs])).permute(0, 3, 1, 2).float() / 255.0
        target = torch.from_numpy(np.stack([t for _, t in pairs]))
        model.eval()  # the frozen path's batch norms stay the identity
        for module in side_branch(model):
            module.train()
        out = model(x)
        mask = target[:, 2]
        loss = (torch.abs(out[:, 1] - target[:, 1]) * mask).sum() / mask.sum().clamp(min=1.0)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        running = 0.98 * running + 0.02 * float(loss.detach())
        if step % 100 == 0:
            print(f"step {step}: |log side error| {running:.3f}, {time.time() - started:.0f} s", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out)
    difference = check_same_heat(args.detector, args.out, args.seed)
    if difference > 1e-6:
        args.out.unlink()
        raise SystemExit(f"{args.out}: the heatmap moved by {difference:g}; not written")
    print(f"wrote {args.out} (heatmap as {args.detector}: largest difference {difference:g})")
    for spec in args.test:
        test_records = [r for r in load_specs([spec]) if r.dice]
        figures = side_errors(model, args.detector, test_records, [r.load() for r in test_records],
                              np.random.default_rng(args.seed), 640)
        print(f"{spec}: |log side error| mean / 90th percentile: "
              + ", ".join(f"{name} {mean:.3f} / {p90:.3f}" for name, (mean, p90) in figures.items()))


if __name__ == "__main__":
    main()

"""Train the die heatmap detector (DiceDetector) on labelled dataset images.

    .venv/bin/python -m tools.training.train_detector \
        --train /path/dice-real-dev:even /path/synth --test /path/dice-real-dev:odd \
        --out /tmp/dicedet.onnx --steps 2500 --seed 1

Each training patch is a random square of an image shrunk so its dice are 10-48 px
wide (the detector sees frames shrunk to a fixed long side, so dice come in many
sizes); targets are a Gaussian bump per top-face centre (CenterNet-style focal loss)
and the log face side there. --test sets are scored as recall and extra detections
per image at the config's long side and threshold (a detection counts when its
centre lies within half a die side of a labelled centre).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch

from vision.learned_models import DiceDetector
from vision.learned_params import load_learned_params
from tools.training.augment import photometric, random_flip_rot90
from tools.training.data import LabelledImage, load_specs
from tools.training.nets import DiceHeatmapNet

PATCH = 128
DIE_PX_RANGE = (10.0, 48.0)
BATCH = 16


def make_patch(record: LabelledImage, image: np.ndarray, rng: np.random.Generator,
               die_px_range: tuple[float, float] = DIE_PX_RANGE) -> tuple[np.ndarray, np.ndarray]:
    """An augmented patch and its target (3 x PATCH/4 x PATCH/4: heat, log side, size mask)."""
    typical = float(np.median([d.side for d in record.dice]))
    target_px = float(np.exp(rng.uniform(*np.log(die_px_range))))
    scale = target_px / typical
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    pad_y, pad_x = max(0, PATCH - small.shape[0]), max(0, PATCH - small.shape[1])
    small = cv2.copyMakeBorder(small, 0, pad_y, 0, pad_x, cv2.BORDER_REFLECT)
    if rng.random() < 0.8:  # most patches hold a die
        die = record.dice[int(rng.integers(len(record.dice)))]
        x0 = int(np.clip(die.cx * scale - rng.uniform(0.1, 0.9) * PATCH, 0, small.shape[1] - PATCH))
        y0 = int(np.clip(die.cy * scale - rng.uniform(0.1, 0.9) * PATCH, 0, small.shape[0] - PATCH))
    else:
        x0 = int(rng.integers(small.shape[1] - PATCH + 1))
        y0 = int(rng.integers(small.shape[0] - PATCH + 1))
    patch = small[y0:y0 + PATCH, x0:x0 + PATCH]
    cells = PATCH // DiceHeatmapNet.stride
    target = np.zeros((3, cells, cells), np.float32)
    yy, xx = np.mgrid[:cells, :cells]
    for die in record.dice:
        gx = (die.cx * scale - x0) / DiceHeatmapNet.stride - 0.5
        gy = (die.cy * scale - y0) / DiceHeatmapNet.stride - 0.5
        side_cells = die.side * scale / DiceHeatmapNet.stride
        if not (-side_cells < gx < cells + side_cells and -side_cells < gy < cells + side_cells):
            continue
        sigma = max(0.5, side_cells / 6.0)
        bump = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma * sigma))
        ix, iy = int(round(gx)), int(round(gy))
        if 0 <= ix < cells and 0 <= iy < cells:
            bump[iy, ix] = 1.0
            near = (np.abs(xx - ix) <= 1) & (np.abs(yy - iy) <= 1)
            target[1][near] = np.log(die.side * scale)
            target[2][near] = 1.0
        target[0] = np.maximum(target[0], bump)
    patch, turns, flip = random_flip_rot90(patch, rng)
    target = np.rot90(target, turns, axes=(1, 2))
    if flip:
        target = target[:, :, ::-1]
    return photometric(patch, rng), np.ascontiguousarray(target)


def focal_loss(predicted: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    p = predicted.clamp(1e-4, 1 - 1e-4)
    positive = target.eq(1).float()
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * positive).sum()
    neg_loss = -(torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * (1 - positive)).sum()
    return (pos_loss + neg_loss) / positive.sum().clamp(min=1.0)


def score(detector: DiceDetector, records: list[LabelledImage], long_side: int, min_score: float) -> dict[str, float]:
    """Recall and extras per image of the detector's peaks against labelled centres."""
    params = load_learned_params()
    params = dataclasses.replace(params, detector_long_side=long_side, detector_min_score=min_score)
    found = extra = total = 0
    for record in records:
        candidates = detector.detect(record.load(), params)
        used: set[int] = set()
        for die in record.dice:
            total += 1
            best = min(((np.hypot(c.cx - die.cx, c.cy - die.cy), i) for i, c in enumerate(candidates) if i not in used),
                       default=(np.inf, -1))
            if best[0] <= 0.5 * die.side:
                found += 1
                used.add(best[1])
        extra += len(candidates) - len(used)
    return {"recall": found / max(total, 1), "extra_per_image": extra / max(len(records), 1)}


def export(model: torch.nn.Module, out: Path) -> None:
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, 96, 160), str(out), input_names=["frame"], output_names=["maps"],
                      dynamic_axes={"frame": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}},
                      opset_version=13, dynamo=False)
    out.with_suffix(".json").write_text(json.dumps(
        {"stride": DiceHeatmapNet.stride, "multiple": DiceHeatmapNet.multiple,
         "outputs": ["centre heatmap 0-1", "log top-face side in detector px"],
         "input": "BGR frame scaled to 0-1, sides padded to a multiple of 8"}, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", required=True, help="FOLDER[:even|odd] ...")
    parser.add_argument("--test", nargs="*", default=[], help="FOLDER[:even|odd] ... (scored, never trained on)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # more threads thrash on a shared machine
    rng = np.random.default_rng(args.seed)
    records = [r for r in load_specs(args.train) if r.dice]
    images = [r.load() for r in records]
    model = DiceHeatmapNet()
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 4e-3, total_steps=args.steps)
    started = time.time()
    running = 0.0
    for step in range(1, args.steps + 1):
        picks = rng.integers(len(records), size=BATCH)
        pairs = [make_patch(records[i], images[i], rng) for i in picks]
        x = torch.from_numpy(np.stack([p for p, _ in pairs])).permute(0, 3, 1, 2).float() / 255.0
        target = torch.from_numpy(np.stack([t for _, t in pairs]))
        model.train()
        out = model(x)
        mask = target[:, 2]
        size_loss = (torch.abs(out[:, 1] - target[:, 1]) * mask).sum() / mask.sum().clamp(min=1.0)
        loss = focal_loss(out[:, 0], target[:, 0]) + size_loss
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        running = 0.98 * running + 0.02 * float(loss.detach())
        if step % 100 == 0:
            print(f"step {step}: loss {running:.3f}, {time.time() - started:.0f} s", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out)
    print(f"wrote {args.out}")
    detector = DiceDetector.load(args.out)
    params = load_learned_params()
    for spec in args.test:
        figures = score(detector, load_specs([spec]), params.detector_long_side, params.detector_min_score)
        print(f"{spec}: " + ", ".join(f"{k} {v:.4f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()

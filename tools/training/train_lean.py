"""Train the leaning-die check (vision/lean.py) on outward crops of labelled dice.

    .venv/bin/python -m tools.training.train_lean \
        --train /path/dice-rendered-dev:even /tmp/lrn/synth_lean@2 --test /path/dice-rendered-dev:odd \
        --out /tmp/lean.onnx --epochs 12 --seed 1

Each die is cut as the reader cuts it: where the detector puts it (the label's centre when the
detector misses it), at the median side the detector gives the image's dice, turned outward
(from the point below the camera when a drawn scene's label gives it, else the frame's centre).
Cocked dice (JSON `value` null) are the positives, every other die a negative; `@N` after a
--train folder draws its dice N times as often (its images held once). Augmented:
shift, size, a small extra turn, mirror across the outward axis (never along it), light.
Prints, per --test set, the cocked dice caught and the flat dice taken for cocked at the
threshold, and writes the ONNX model with its JSON metadata.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.lean import outward_crops
from vision.learned_models import DiceDetector
from vision.learned_params import load_learned_params
from tools.training.augment import photometric
from tools.training.data import LabelledImage, load_specs, load_weighted_specs
from tools.training.nets import LeanClassifier
from tools.training.train_classifier import export_crop_net, predict, train_epoch

WINDOW_SIDES = 2.0  # crop width in die sides: the die, a leaning die's outward face, a little wall
SHIFT = 0.12  # die sides (default of --shift)
SIZE_JITTER = 0.15  # log-scale
EXTRA_TURN_DEG = 20.0  # a die by a tray corner leans at the wall, not straight outward
MATCH_DISTANCE = 0.7  # die sides: a detector candidate this near a labelled die is that die


@dataclass(frozen=True)
class ReaderView:
    """One image's dice as the reader sees them: each labelled die's centre (N x 2) and their side."""

    centres: np.ndarray
    side: float


def reader_views(records: list[LabelledImage], images: list[np.ndarray], detector_path: Path) -> list[ReaderView]:
    """Per image, each labelled die's centre as the detector finds it, and the median side it
    gives them (the labels' sides differ from it by up to a fifth)."""
    params = load_learned_params()
    detector = DiceDetector.load(detector_path)
    views = []
    for record, image in zip(records, images):
        candidates = detector.detect(image, params)
        found = np.array([(c.cx, c.cy) for c in candidates]).reshape(-1, 2)
        these, sides = [], []
        for die in record.dice:
            label = np.array([die.cx, die.cy])
            if len(found):
                distances = np.hypot(*(found - label).T)
                nearest = int(np.argmin(distances))
                if distances[nearest] <= MATCH_DISTANCE * die.side:
                    these.append(found[nearest])
                    sides.append(candidates[nearest].side)
                    continue
            these.append(label)
        side = float(np.median(sides)) if sides else float(np.median([d.side for d in record.dice] or [1.0]))
        views.append(ReaderView(np.array(these).reshape(-1, 2), side))
    return views


def make_epoch(records: list[LabelledImage], images: list[np.ndarray], views: list[ReaderView],
               weights: list[int], rng: np.random.Generator, positive_copies: int, crop_px: int,
               shift_sides: float) -> tuple[np.ndarray, np.ndarray]:
    """One epoch's augmented outward crops and their labels (1 = cocked): each die cut as many
    times as its image's weight, a cocked die `positive_copies` times as many."""
    crops, labels = [], []
    for record, image, view, weight in zip(records, images, views, weights):
        for die, centre in zip(record.dice, view.centres):
            cocked = die.value == 0
            for _ in range(weight * (positive_copies if cocked else 1)):
                angle, shift = rng.uniform(0, 2 * np.pi), rng.uniform(0, shift_sides) * view.side
                at = centre + shift * np.array([np.cos(angle), np.sin(angle)])
                side = view.side * float(np.exp(rng.uniform(-SIZE_JITTER, SIZE_JITTER)))
                crop = outward_crops(image, at[None], np.array([side]), crop_px, WINDOW_SIDES, record.below_camera,
                                     extra_turns_deg=np.array([rng.uniform(-EXTRA_TURN_DEG, EXTRA_TURN_DEG)]))[0]
                if rng.random() < 0.5:
                    crop = crop[::-1]  # mirrored across the outward axis: still outward
                crops.append(photometric(np.ascontiguousarray(crop), rng))
                labels.append(int(cocked))
    return np.stack(crops), np.array(labels)


def exact_crops(records: list[LabelledImage], images: list[np.ndarray], views: list[ReaderView],
                crop_px: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops as the reader cuts them (no augmentation), with labels 1 = cocked."""
    crops = [outward_crops(image, view.centres, np.full(len(record.dice), view.side), crop_px, WINDOW_SIDES,
                           record.below_camera)
             for record, image, view in zip(records, images, views) if record.dice]
    labels = [int(d.value == 0) for record in records for d in record.dice]
    return np.concatenate(crops), np.array(labels)


def report(name: str, probabilities: np.ndarray, labels: np.ndarray, threshold: float) -> None:
    cocked, flat = labels == 1, labels == 0
    caught = int((probabilities[cocked] >= threshold).sum())
    false = int((probabilities[flat] >= threshold).sum())
    highest_flat = float(probabilities[flat].max()) if flat.any() else 0.0
    lowest = ", ".join(f"{p:.2f}" for p in sorted(probabilities[cocked])[:8])
    print(f"{name}: cocked caught {caught} of {int(cocked.sum())} (lowest P {lowest}); "
          f"flat taken for cocked {false} of {int(flat.sum())}, highest flat P {highest_flat:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", required=True,
                        help="FOLDER[:even|odd][@N] ... (@N: its dice drawn N times an epoch, else once)")
    parser.add_argument("--test", nargs="*", default=[], help="FOLDER[:even|odd] ... (scored, never trained on)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--detector", type=Path, default=Path("vision/models/dicedet.onnx"),
                        help="the detector whose centres the crops are cut at")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--positive-copies", type=int, default=8, help="augmented copies of each cocked die per epoch")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--width", type=int, default=8)
    parser.add_argument("--crop-px", type=int, default=32)
    parser.add_argument("--threshold", type=float, default=0.5, help="P(cocked) the report counts as caught")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--shift", type=float, default=SHIFT,
                        help="crops are cut up to this many die sides off the detector's centre (augmentation)")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    try:
        records, weights = load_weighted_specs(args.train, 1)
    except ValueError as exc:
        parser.error(f"--train {exc}")
    images = [r.load() for r in records]
    views = reader_views(records, images, args.detector)
    print(f"{len(records)} images, {sum(d.value == 0 for r in records for d in r.dice)} cocked dice", flush=True)
    tests = {}
    for spec in args.test:
        test_records = load_specs([spec])
        test_images = [r.load() for r in test_records]
        tests[spec] = exact_crops(test_records, test_images, reader_views(test_records, test_images, args.detector),
                                  args.crop_px)
    model = LeanClassifier(args.width, args.crop_px)
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss()
    first = make_epoch(records, images, views, weights, rng, args.positive_copies, args.crop_px, args.shift)
    steps_per_epoch = len(first[0]) // args.batch
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=args.epochs * steps_per_epoch)
    for epoch in range(args.epochs):
        started = time.time()
        crops, labels = first if epoch == 0 else make_epoch(records, images, views, weights, rng,
                                                            args.positive_copies, args.crop_px, args.shift)
        order = rng.permutation(len(crops))[: steps_per_epoch * args.batch]
        loss = train_epoch(model, crops, labels, order, args.batch, loss_fn, optimiser, schedule)
        print(f"epoch {epoch + 1}: {len(crops)} crops ({int(labels.sum())} cocked), "
              f"loss {loss:.4f}, {time.time() - started:.0f} s", flush=True)
    for spec, (crops, labels) in tests.items():
        report(spec, predict(model, crops)[:, 1], labels, args.threshold)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export_crop_net(model, args.out, args.crop_px, {
        "crop_px": args.crop_px, "window_sides": WINDOW_SIDES, "classes": ["flat", "cocked"],
        "input": "BGR crops scaled to 0-1, turned so the frame's centre lies to the left"})
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

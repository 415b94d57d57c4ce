"""Train the die-face classifier (DiceNet) on crops cut from labelled dataset images.

    .venv/bin/python -m tools.training.train_classifier \
        --train /path/dice-real-dev:even /path/synth --test /path/dice-real-dev:odd \
        --out /tmp/dicenet.onnx --epochs 10 --seed 1

Positives: crops centred (with jitter) on each labelled die, any turn, size jitter.
Negatives (class 0): table, cubes, cards and walls away from dice; crops half off a
die; cocked dice; with --specks, bare table with a drawn crumb. Prints per-crop accuracy on the --test sets (exact label centres
and sides, no augmentation) and writes the ONNX model with its JSON metadata.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.learned_models import DiceDetector, crop_dice
from vision.learned_params import load_learned_params
from tools.training.augment import photometric
from tools.training.data import LabelledImage, load_specs, load_weighted_specs
from tools.training.nets import DiceClassifier, ResidualDiceClassifier

WINDOW_SIDES = 1.6  # crop width in die sides: the whole face at any turn, a little table
POSITIVE_SHIFT = 0.12  # die sides
SIZE_JITTER = 0.25  # log-scale; --size-jitter
NEGATIVE_SHIFT = (0.65, 1.1)
NEGATIVES_PER_IMAGE = 8
COCKED_BOOST = 3  # cocked dice are rare in the data; each is cut this many times more often
SPECK_RADIUS = (0.05, 0.18)  # die sides: a drawn speck's radius (a one's pip is about 0.1)
SPECK_DARK_SHARE = 0.7  # the rest are light specks (a dark table's crumbs)


def _cut(image: np.ndarray, cx: float, cy: float, window: float, angle: float, crop_px: int) -> np.ndarray:
    """A crop `window` px wide around (cx, cy), turned by `angle` degrees, area-resampled."""
    size = max(4, int(np.ceil(window)))
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    matrix[:, 2] += (size / 2.0 - cx, size / 2.0 - cy)
    patch = cv2.warpAffine(image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return cv2.resize(patch, (crop_px, crop_px), interpolation=cv2.INTER_AREA if size > crop_px else cv2.INTER_LINEAR)


def _far_from_dice(record: LabelledImage, x: float, y: float, limit: float) -> bool:
    return all(np.hypot(x - d.cx, y - d.cy) > limit * d.side for d in record.dice)


def mine_negatives(records: list[LabelledImage], images: list[np.ndarray], detector_path: Path,
                   min_score: float) -> list[list[tuple[float, float, float]]]:
    """Per image, the detector's candidates (x, y, side) that lie on no labelled die:
    the specks, holes, cubes and card corners a reader would be shown in practice."""
    params = load_learned_params()
    params = dataclasses.replace(params, detector_min_score=min_score)
    detector = DiceDetector.load(detector_path)
    mined = []
    for record, image in zip(records, images):
        mined.append([(c.cx, c.cy, c.side) for c in detector.detect(image, params)
                      if _far_from_dice(record, c.cx, c.cy, NEGATIVE_SHIFT[0])])
    return mined


def _with_specks(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crop with one or two dots drawn near its centre: a crumb, a pen mark or a hole in
    the bare table. Alone on the table such a dot looks like the pip of a one, but no die body
    with its edges surrounds it; the drawn scenes and the photos showed specks read as ones."""
    marked = crop.copy()
    side_px = crop.shape[0] / WINDOW_SIDES
    for _ in range(int(rng.integers(1, 3))):
        x, y = crop.shape[1] / 2.0 + rng.normal(0.0, 0.12 * side_px), crop.shape[0] / 2.0 + rng.normal(0.0, 0.12 * side_px)
        radius = rng.uniform(SPECK_RADIUS[0], SPECK_RADIUS[1]) * side_px
        shade = rng.uniform(10, 90) if rng.random() < SPECK_DARK_SHARE else rng.uniform(200, 255)
        colour = tuple(float(np.clip(shade + rng.normal(0.0, 15.0), 0, 255)) for _ in range(3))
        cv2.circle(marked, (round(x * 16), round(y * 16)), max(16, round(radius * 16)), colour, -1, cv2.LINE_AA, shift=4)
    return marked


def make_epoch(records: list[LabelledImage], images: list[np.ndarray], rng: np.random.Generator,
               repeats: list[int], mined: list[list[tuple[float, float, float]]], crop_px: int,
               washout: float = 0.0, specks: int = 0, size_jitter: float = SIZE_JITTER) -> tuple[np.ndarray, np.ndarray]:
    crops, labels = [], []

    def add(image: np.ndarray, cx: float, cy: float, side: float, label: int, speck: bool = False) -> None:
        window = side * WINDOW_SIDES * float(np.exp(rng.uniform(-size_jitter, size_jitter)))
        crop = _cut(image, cx, cy, window, float(rng.uniform(0, 360)), crop_px)
        if speck:
            crop = _with_specks(crop, rng)
        if rng.random() < 0.5:
            crop = crop[:, ::-1]
        if rng.random() < 0.25:  # a smaller, softer die
            small = int(rng.integers(int(crop_px * 0.45), int(crop_px * 0.8)))
            crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (crop_px, crop_px))
        crops.append(photometric(np.ascontiguousarray(crop), rng, washout))
        labels.append(label)

    for record, image, hard, times in zip(records, images, mined, repeats):
        for x, y, side in hard:
            add(image, x, y, side, 0)
        if not record.dice:
            continue
        height, width = image.shape[:2]
        typical = float(np.median([d.side for d in record.dice]))
        for die in record.dice:
            for _ in range(times if die.value else times * COCKED_BOOST):
                angle, shift = rng.uniform(0, 2 * np.pi), rng.uniform(0, POSITIVE_SHIFT) * die.side
                add(image, die.cx + shift * np.cos(angle), die.cy + shift * np.sin(angle), die.side, die.value)
            angle, shift = rng.uniform(0, 2 * np.pi), rng.uniform(*NEGATIVE_SHIFT) * die.side
            x, y = die.cx + shift * np.cos(angle), die.cy + shift * np.sin(angle)
            if _far_from_dice(record, x, y, NEGATIVE_SHIFT[0]):
                add(image, x, y, die.side, 0)
        for _ in range(NEGATIVES_PER_IMAGE):
            x, y = rng.uniform(0, width), rng.uniform(0, height)
            if _far_from_dice(record, x, y, NEGATIVE_SHIFT[0]):
                add(image, x, y, typical, 0)
        for _ in range(specks):
            x, y = rng.uniform(0, width), rng.uniform(0, height)
            if _far_from_dice(record, x, y, NEGATIVE_SHIFT[1]):
                add(image, x, y, typical, 0, speck=True)
    return np.stack(crops), np.array(labels)


def exact_crops(records: list[LabelledImage], images: list[np.ndarray], crop_px: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops at the labelled centres and sides, as the reader would cut them (no augmentation)."""
    crops, labels = [], []
    for record, image in zip(records, images):
        if not record.dice:
            continue
        centres = np.array([(d.cx, d.cy) for d in record.dice])
        sides = np.array([d.side for d in record.dice])
        crops.append(crop_dice(image, centres, sides, crop_px, WINDOW_SIDES))
        labels.extend(d.value for d in record.dice)
    return np.concatenate(crops), np.array(labels)


def to_tensor(crops: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(crops).permute(0, 3, 1, 2).float() / 255.0


def train_epoch(model: nn.Module, crops: np.ndarray, labels: np.ndarray, order: np.ndarray, batch_size: int,
                loss_fn: nn.Module, optimiser: torch.optim.Optimizer,
                schedule: torch.optim.lr_scheduler.LRScheduler) -> float:
    """One pass over `crops` in `order`, `batch_size` at a time; the mean loss (shared by the
    classifier's and the leaning check's training)."""
    model.train()
    total = 0.0
    for step in range(0, len(order), batch_size):
        batch = order[step:step + batch_size]
        loss = loss_fn(model(to_tensor(crops[batch])), torch.from_numpy(labels[batch]).long())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total += float(loss.detach()) * len(batch)
    return total / len(order)


def predict(model: nn.Module, crops: np.ndarray) -> np.ndarray:
    model.eval()
    with torch.no_grad():
        return torch.cat([torch.softmax(model(to_tensor(crops[i:i + 512])), 1)
                          for i in range(0, len(crops), 512)]).numpy()


def report(name: str, probabilities: np.ndarray, labels: np.ndarray, min_probability: float) -> dict[str, float]:
    """Per-crop accuracy on dice with a value, and how many are confident and wrong."""
    dice = labels > 0
    predicted = probabilities.argmax(1)
    confident = probabilities.max(1) >= min_probability
    result = {
        "crops": int(dice.sum()),
        "accuracy": float((predicted[dice] == labels[dice]).mean()),
        "confident_right": float(((predicted == labels) & confident)[dice].mean()),
        "confident_wrong": float(((predicted != labels) & confident)[dice].mean()),
    }
    print(f"{name}: " + ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in result.items()))
    return result


def export_crop_net(model: nn.Module, out: Path, crop_px: int, meta: dict[str, object]) -> None:
    """The net over square crops as ONNX (any batch size), `meta` as the JSON beside it."""
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, crop_px, crop_px), str(out), input_names=["crops"],
                      output_names=["logits"], dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
                      opset_version=13, dynamo=False)
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")


def export(model: nn.Module, out: Path, crop_px: int) -> None:
    export_crop_net(model, out, crop_px, {"crop_px": crop_px, "window_sides": WINDOW_SIDES,
                                          "classes": ["not a die", 1, 2, 3, 4, 5, 6],
                                          "input": "BGR crops scaled to 0-1"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", required=True,
                        help="FOLDER[:even|odd][@N] ... (@N: N augmented copies of each die, else --repeats)")
    parser.add_argument("--test", nargs="*", default=[], help="FOLDER[:even|odd] ... (scored, never trained on)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3, help="augmented copies of each die per epoch")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--negatives-from", type=Path, default=None,
                        help="a detector ONNX whose candidates off the labelled dice become negatives")
    parser.add_argument("--mine-score", type=float, default=0.15, help="detector score for mined negatives")
    parser.add_argument("--min-probability", type=float, default=0.9)
    parser.add_argument("--width", type=int, default=16, help="channels of the first layer (the net's width)")
    parser.add_argument("--crop-px", type=int, default=40, help="crop side fed to the net (a multiple of 8)")
    parser.add_argument("--residual", action="store_true",
                        help="the deeper residual net (crop a multiple of 16; always a pooled head)")
    parser.add_argument("--pooled-head", action="store_true",
                        help="head on the features' mean and maximum over the crop (not every cell in place)")
    parser.add_argument("--washout", type=float, default=0.0,
                        help="share of crops pulled towards a light tone (pale faces, faint light pips)")
    parser.add_argument("--specks", type=int, default=0,
                        help="negatives per image of bare table with a drawn speck (a crumb is not a one)")
    parser.add_argument("--label-smoothing", type=float, default=0.05)
    parser.add_argument("--size-jitter", type=float, default=SIZE_JITTER,
                        help="crop sides vary by up to this much in log scale (the reader's guessed sides err "
                             "by a quarter either way on unseen tables)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (more thrash on a shared machine)")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    try:
        records, repeats = load_weighted_specs(args.train, args.repeats)
    except ValueError as exc:
        parser.error(f"--train {exc}")
    images = [r.load() for r in records]
    tests = {spec: load_specs([spec]) for spec in args.test}
    test_sets = {spec: exact_crops(recs, [r.load() for r in recs], args.crop_px) for spec, recs in tests.items()}
    mined = [[] for _ in records]
    if args.negatives_from is not None:
        mined = mine_negatives(records, images, args.negatives_from, args.mine_score)
        print(f"mined {sum(map(len, mined))} negatives with {args.negatives_from}", flush=True)
    model = (ResidualDiceClassifier(args.width, args.crop_px) if args.residual
             else DiceClassifier(args.width, args.crop_px, args.pooled_head))
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=args.label_smoothing)
    next_epoch = functools.partial(make_epoch, records, images, rng, repeats, mined, args.crop_px,
                                   args.washout, args.specks, args.size_jitter)
    epochs_data = [next_epoch()]
    batch_size = args.batch
    steps_per_epoch = len(epochs_data[0][0]) // batch_size
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=args.epochs * steps_per_epoch)
    for epoch in range(args.epochs):
        started = time.time()
        crops, labels = epochs_data.pop() if epochs_data else next_epoch()
        order = rng.permutation(len(crops))[: steps_per_epoch * batch_size]
        loss = train_epoch(model, crops, labels, order, batch_size, loss_fn, optimiser, schedule)
        print(f"epoch {epoch + 1}: {len(crops)} crops, loss {loss:.4f}, {time.time() - started:.0f} s",
              flush=True)
    for spec, (crops, labels) in test_sets.items():
        report(spec, predict(model, crops), labels, args.min_probability)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out, args.crop_px)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

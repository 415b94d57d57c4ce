"""`python -m vision adapt`: refit what a Pi can refit in minutes on the table's own rolls.

The table's confirmed rolls (vision.table_rolls) are split: every `HELD_OUT_EVERY`-th frame is
held out, the rest teach. Refitted: the six dice's colours under this table's light (the colour
calibration, measured as the camera check measures it, but over every die of every roll instead
of one frame), and the probability a die's value needs to be stated sure in macao mode
(`macao_value_min_probability`): the one that states the most teaching dice right while those
stated wrongly stay within `max_wrong`. The networks are not retrained here (that takes a desktop:
tools/training/README.md). Both are scored on the held-out frames before and after; the refit
is written only when it reads them no worse.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.calibrate import Calibration
from vision.colour import LEARNED_MEASURE, ColourModel
from vision.evaluate import LabelledDie, Score, evaluate, iter_dataset, load_labels
from vision.frame import FrameError, check_frame, cut_with_margin
from vision.learned import find_faces
from vision.learned_models import LearnedModels
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import read_dice
from vision.types import DIE_COLOURS

# Every this many-th roll (by name, oldest first) is held out to judge the refit.
HELD_OUT_EVERY = 4
# The thresholds tried for the value's probability.
_THRESHOLDS = np.round(np.arange(0.50, 0.991, 0.01), 2)


class AdaptError(ValueError):
    """The rolls cannot be refitted on; the message says why."""


@dataclass(frozen=True)
class Refit:
    """What `fit` learnt from the teaching rolls."""

    calibration: Calibration
    value_min_probability: float
    dice: int  # labelled dice it was learnt from


@dataclass(frozen=True)
class Adaptation:
    """A refit and the held-out rolls' scores before and after it."""

    refit: Refit
    before: Score
    after: Score
    taught: int  # frames
    held_out: int

    @property
    def no_worse(self) -> bool:
        """No worse on the held-out rolls: at least as many read right, no more stated wrongly."""
        return (self.after.right >= self.before.right and self.after.wrong_confident <= self.before.wrong_confident
                and self.after.colour_value_right >= self.before.colour_value_right)


def split(folder: Path) -> tuple[list[tuple[Path, Path]], list[tuple[Path, Path]]]:
    """(teaching, held-out) image and label pairs of a dataset folder."""
    pairs = list(iter_dataset(folder))
    held = pairs[HELD_OUT_EVERY - 1::HELD_OUT_EVERY]
    return [p for p in pairs if p not in held], held


def fit(pairs: list[tuple[Path, Path]], params: VisionParams, models: LearnedModels, learned: LearnedParams,
        max_wrong: float, min_dice: int) -> Refit:
    """The colour calibration and value threshold the teaching rolls give; AdaptError when they
    hold fewer than `min_dice` dice the reader found, or a colour not at all."""
    lowest = dataclasses.replace(learned, macao_value_min_probability=float(_THRESHOLDS[0]))
    bodies: dict[str, list[tuple[float, float, float]]] = {c: [] for c in DIE_COLOURS}
    polarities: dict[str, Counter[str]] = {c: Counter() for c in DIE_COLOURS}
    stated: list[tuple[float, bool]] = []  # (P(value), value right) of each labelled die the reader stated
    found = 0
    for image_path, label_path in pairs:
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        labels = load_labels(label_path, frame.shape[1], frame.shape[0])
        try:
            view, place = cut_with_margin(check_frame(frame, params), params, None)
        except FrameError:
            continue
        x0, y0 = place.offset if place is not None else (0, 0)
        # The colours: every die seen plainly (no doubt that it is a die, flat, whole, no glare).
        for face in find_faces(view, params, "macao", models, lowest, place=place):
            label = _label_at(labels, face.box[0] + face.box[2] / 2 + x0, face.box[1] + face.box[3] / 2 + y0)
            if face.reason or label is None or label.colour not in bodies:
                continue
            bodies[label.colour].append((face.colour.lightness, face.colour.a, face.colour.b))
            if face.polarity:
                polarities[label.colour][face.polarity] += 1
        # The threshold: the whole reader, stating every value it is at least the lowest tried sure of.
        reading = read_dice(frame, params, "macao", learned=lowest)
        for die in reading.dice:
            label = _label_at(labels, die.x + die.w / 2, die.y + die.h / 2)
            if label is None or label.value is None:
                continue
            found += 1
            if not die.unsure:
                stated.append((die.confidence, die.value == label.value))  # colours are not its to fix
    if found < min_dice:
        raise AdaptError(f"only {found} dice found in {len(pairs)} teaching rolls; at least {min_dice} are needed")
    unseen = [c for c in DIE_COLOURS if not bodies[c]]
    if unseen:
        raise AdaptError(f"no roll shows the {', '.join(unseen)} die clearly")
    return Refit(Calibration(models={c: _model(c, bodies[c], polarities[c]) for c in DIE_COLOURS},
                             measure=LEARNED_MEASURE),
                 _threshold(stated, found, max_wrong, learned.macao_value_min_probability), found)


def _label_at(labels: list[LabelledDie], x: float, y: float) -> LabelledDie | None:
    return next((d for d in labels if d.box[0] <= x <= d.box[2] and d.box[1] <= y <= d.box[3]), None)


def _model(colour: str, bodies: list[tuple[float, float, float]], polarity: Counter[str]) -> ColourModel:
    """A colour's model from every clear sighting: the median lightness and colour (a, b)."""
    lightness, a, b = np.median(np.array(bodies), axis=0)
    pips = polarity.most_common(1)[0][0] if polarity else ""
    return ColourModel(colour, float(np.degrees(np.arctan2(b, a)) % 360.0), float(np.hypot(a, b)), float(lightness),
                       True, pips)


def _threshold(stated: list[tuple[float, bool]], found: int, max_wrong: float, current: float) -> float:
    """The threshold that states the most dice right while those stated wrongly stay within
    `max_wrong` of the `found` ones; of equals, the one nearest `current` (a few hundred rolls
    say little beyond what they show)."""
    confidence = np.array([p for p, _ in stated])
    right = np.array([r for _, r in stated], bool)
    best: tuple[int, float, float] | None = None
    for threshold in _THRESHOLDS:
        sure = confidence >= threshold
        if np.sum(sure & ~right) > max_wrong * found:
            continue
        rank = (int(np.sum(sure & right)), -abs(float(threshold) - current), float(threshold))
        best = rank if best is None or rank > best else best
    return best[2] if best is not None else float(_THRESHOLDS[-1])


def adapt(folder: Path, params: VisionParams, models: LearnedModels, learned: LearnedParams,
          calibration: Calibration | None, max_wrong: float, min_dice: int) -> Adaptation:
    """Refit on the teaching rolls and score the held-out ones before (`calibration`, `learned`
    as they are) and after; AdaptError when the folder holds too little."""
    teaching, held = split(folder)
    if not held:
        raise AdaptError(f"{folder}: {len(teaching)} rolls; at least {HELD_OUT_EVERY} are needed to hold one out")
    refit = fit(teaching, params, models, learned, max_wrong, min_dice)
    adapted = dataclasses.replace(learned, macao_value_min_probability=refit.value_min_probability)
    with tempfile.TemporaryDirectory(prefix="held-out-") as scratch:
        held_folder = Path(scratch)
        for part in ("images", "labels"):
            (held_folder / part).mkdir()
        for image_path, label_path in held:
            os.symlink(image_path.resolve(), held_folder / "images" / image_path.name)
            os.symlink(label_path.resolve(), held_folder / "labels" / label_path.name)
        before = evaluate(held_folder, lambda f: read_dice(f, params, "macao", calibration, learned=learned))
        after = evaluate(held_folder, lambda f: read_dice(f, params, "macao", refit.calibration, learned=adapted))
    return Adaptation(refit, before, after, len(teaching), len(held))


def adapted_settings(refit: Refit) -> str:
    """The refitted threshold as a config file to lay over config.toml (`--config`, or the
    app's own config.toml)."""
    return ("# Written by `python -m vision adapt` from the table's own rolls.\n"
            "[vision.learned]\n"
            f"macao_value_min_probability = {refit.value_min_probability:.2f}\n")

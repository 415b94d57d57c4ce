"""`python -m vision adapt`: refit what a Pi can refit in minutes on the table's own rolls.

The table's confirmed rolls (vision.table_rolls) are split: every `HELD_OUT_EVERY`-th frame is
held out, the rest teach. Refitted: the six dice's colours under this table's light (the colour
calibration, measured as the camera check measures it, but over every die of every roll instead
of one frame), and the probability a die's value needs to be stated sure in macao mode
(`macao_value_min_probability`): the one that states the most teaching dice right while those
stated wrongly stay within `max_wrong`. The networks are not retrained here (that takes a desktop:
tools/training/README.md). Both are scored on the held-out frames before and after; the refit
is written only when it reads them better, with a record of both scores and of what it was fitted
for (the model files, the colour calibration it was judged against), so that the app applies it
only while those still hold (`load_adaptation`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.calibrate import Calibration, CalibrationError, load_calibration, save_calibration
from vision.colour import LEARNED_MEASURE, ColourModel
from vision.evaluate import LabelledDie, Score, evaluate, iter_dataset, load_labels
from vision.frame import FrameError, check_frame, cut_with_margin
from vision.learned import find_faces
from vision.learned_models import LearnedModels, model_path
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import read_dice
from vision.types import DIE_COLOURS

# Every this many-th roll (by name, oldest first) is held out to judge the refit.
HELD_OUT_EVERY = 4
# The record written beside the refit; the app applies a refit only through it.
RECORD_NAME = "adaptation.json"
RECORD_VERSION = 1
CALIBRATION_NAME = "calibration.json"
SETTINGS_NAME = "adapted.toml"
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
    def better(self) -> bool:
        """Better on the held-out rolls: more dice read right (colour and value) and no more
        stated wrongly, or as many right and fewer stated wrongly."""
        return _better(self.before.colour_value_right, self.before.wrong_confident,
                       self.after.colour_value_right, self.after.wrong_confident)


def _better(right_before: int, wrong_before: int, right_after: int, wrong_after: int) -> bool:
    return wrong_after <= wrong_before and (right_after, -wrong_after) > (right_before, -wrong_before)


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


@dataclass(frozen=True)
class AdaptedReader:
    """A refit as the app applies it: the colours and the sure threshold, and the held-out
    scores that earned it its place (dice read right and stated wrongly, before and after)."""

    calibration: Calibration
    value_min_probability: float
    rolls: int  # the rolls it was taught and judged on
    held_out_dice: int
    right_before: int
    right_after: int
    wrong_before: int
    wrong_after: int

    def learned(self, learned: LearnedParams) -> LearnedParams:
        """The learned reader's thresholds with the refitted one."""
        return dataclasses.replace(learned, macao_value_min_probability=self.value_min_probability)

    def share(self, dice: int) -> float:
        return dice / max(self.held_out_dice, 1)


def models_fingerprint(learned: LearnedParams) -> str:
    """What identifies the networks a refit was judged with (detector and classifier files);
    OSError when one cannot be read."""
    digest = hashlib.sha256()
    for path in (learned.detector_path, learned.classifier_path, learned.second_classifier_path):
        if path:
            digest.update(model_path(path).read_bytes())
    return digest.hexdigest()[:16]


def calibration_fingerprint(path: Path) -> str:
    """What identifies the colour calibration a refit was judged against: its file's bytes, or
    "none" when there is no file."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except FileNotFoundError:
        return "none"


def write_adaptation(out: Path, result: Adaptation, models: str, judged_against: str) -> None:
    """Write the refit (calibration.json, adapted.toml) and, last, its record: a run cut short
    leaves no record, or one whose calibration does not match it, and the app then keeps what it
    had. OSError when the folder cannot be written."""
    out.mkdir(parents=True, exist_ok=True)
    save_calibration(result.refit.calibration, out / CALIBRATION_NAME)
    _write_atomically(out / SETTINGS_NAME, adapted_settings(result.refit))
    record = {
        "version": RECORD_VERSION,
        "value_min_probability": result.refit.value_min_probability,
        "rolls": result.taught + result.held_out,
        "held_out_dice": result.before.dice,
        "right_before": result.before.colour_value_right,
        "right_after": result.after.colour_value_right,
        "wrong_before": result.before.wrong_confident,
        "wrong_after": result.after.wrong_confident,
        "models": models,
        "judged_against": judged_against,
        "calibration": calibration_fingerprint(out / CALIBRATION_NAME),
    }
    _write_atomically(out / RECORD_NAME, json.dumps(record, indent=1) + "\n")


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def load_adaptation(folder: Path, models: str, judged_against: str) -> AdaptedReader | None:
    """The refit written in `folder`, when it was fitted for these `models` and judged against
    the calibration now in use (`judged_against`, as `calibration_fingerprint` gives it) and
    read the held-out rolls better; None when the folder holds none. AdaptError says what is
    wrong with one that cannot be applied (damaged, cut short, made for other models, outdated
    by a new calibration, or not better)."""
    record_path = folder / RECORD_NAME
    if not record_path.exists():
        return None
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AdaptError(f"{record_path}: unreadable ({exc})") from exc
    if not isinstance(record, dict) or record.get("version") != RECORD_VERSION:
        raise AdaptError(f"{record_path}: not an adaptation record of version {RECORD_VERSION}")
    counts = ("rolls", "held_out_dice", "right_before", "right_after", "wrong_before", "wrong_after")
    if not all(isinstance(record.get(key), int) and not isinstance(record.get(key), bool) and record[key] >= 0
               for key in counts):
        raise AdaptError(f"{record_path}: the held-out scores are missing or malformed")
    threshold = record.get("value_min_probability")
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not 0.5 <= threshold <= 0.99:
        raise AdaptError(f"{record_path}: value_min_probability {threshold!r} is not between 0.5 and 0.99")
    if record.get("models") != models:
        raise AdaptError(f"{record_path}: made for other dice-reading models (the models were updated since)")
    if record.get("judged_against") != judged_against:
        raise AdaptError(f"{record_path}: the dice were calibrated again since it was made")
    if not _better(record["right_before"], record["wrong_before"], record["right_after"], record["wrong_after"]):
        raise AdaptError(f"{record_path}: it read the held-out rolls no better")
    calibration_path = folder / CALIBRATION_NAME
    if calibration_fingerprint(calibration_path) != record.get("calibration"):
        raise AdaptError(f"{calibration_path}: missing or not the one the record names (a run cut short?)")
    try:
        calibration = load_calibration(calibration_path)
    except CalibrationError as exc:
        raise AdaptError(str(exc)) from exc
    return AdaptedReader(calibration, float(threshold), *(int(record[key]) for key in counts))


def forget_adaptation(folder: Path) -> None:
    """Back to the shipped models: the record goes (the refit's files with it); OSError when
    it cannot be removed."""
    for name in (RECORD_NAME, CALIBRATION_NAME, SETTINGS_NAME):
        (folder / name).unlink(missing_ok=True)

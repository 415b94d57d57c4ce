"""`python -m vision adapt`: refit what a Pi can refit in minutes on the table's own rolls.

The table's confirmed rolls (vision.table_rolls) are split: every `HELD_OUT_EVERY`-th frame is
held out, and every frame with no die labelled (it would teach nothing); the rest teach. A
folder holds the rolls of one reader mode (`table-rolls/` macao's, `table-rolls-any/` any's),
and the refit is for that mode alone; the mode is given (`expect`), as
`read` and `evaluate` take it, not guessed from the folder's name (a copied folder may be named
anything) or its labels (a roll of dice whose colours repeat may show each colour once).

Refitted in both modes first: the two classifiers' last layers (vision.head_refit), through
which the rest is then measured. Then in macao mode: the six dice's colours under this table's
light (the colour calibration, measured as the camera check measures it, but over every die of
every roll instead of one frame), and the probability a die's value needs to be stated sure
(`macao_value_min_probability`): the one that states the most teaching dice right while those
stated wrongly stay within `max_wrong` (with the layers refitted, no higher than it was). In any
mode the same for its own threshold (`value_min_probability`) and nothing else: its
colours are not refitted. A game whose dice repeat colours names them among its own colour set
(the players' colours of that game, learnt one die each by the camera check, a file per set),
which the rolls in `table-rolls-any/` do not record and which differs from game to game; the
colours in their labels are the reader's own names (a die is kept only where those agree with
the players' counts, never with a colour they corrected); and any mode is scored on values only
(as `evaluate --expect any` scores it). So any mode is taught and judged reading values alone,
with no colour calibration, and its refit holds whatever colours are calibrated later.

Beyond their last layers the networks are not retrained here (that takes a desktop:
tools/training/README.md). The refit is scored on the held-out frames before and after and
written only when it reads them better (`_better`: less for the players to put right, no die
more stated wrongly), with a record of both scores and of what it was fitted for (the reader
mode, the model files, the colour calibration it was judged against, the files it wrote), so
that the app applies it only while those still hold (`load_adaptation`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.atomic_file import write_atomically
from vision.calibrate import Calibration, CalibrationError, load_calibration, save_calibration
from vision.colour import LEARNED_MEASURE, ColourModel
from vision.evaluate import (CameraCheck, LabelledDie, Score, camera_check_of, checked_params, confirmed_of, empty_tray_of,
                             evaluate, iter_dataset, load_labels)
from vision.frame import FrameError, check_frame, cut_with_margin
from vision.head_refit import HeadsRefit, RollParams, refit_heads
from vision.heads import load_heads, save_heads
from vision.learned import find_faces
from vision.learned_models import LearnedModels, model_path
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import learned_models, read_dice
from vision.types import DIE_COLOURS, DiceReading, ExpectMode

# Every this many-th roll (by name, oldest first) is held out to judge the refit.
HELD_OUT_EVERY = 4
# The record written beside the refit; the app applies a refit only through it.
RECORD_NAME = "adaptation.json"
# Version 4 counts the values stated against those confirmed; version 3 names the refitted last
# layers' file and counts extra readings; version 2 the reader mode; version 1 records were all
# written for macao mode.
RECORD_VERSION = 4
CALIBRATION_NAME = "calibration.json"
SETTINGS_NAME = "adapted.toml"
HEADS_NAME = "heads.json"
# The thresholds tried for the value's probability.
_THRESHOLDS = np.round(np.arange(0.50, 0.991, 0.01), 2)
# Each reader mode's sure threshold for a die's value (a LearnedParams field), the one refitted.
THRESHOLD_FIELDS: dict[ExpectMode, str] = {"macao": "macao_value_min_probability", "any": "value_min_probability"}
# The dice each reader mode reads, in the words of an AdaptError.
_MODE_DICE: dict[str, str] = {"macao": "six dice of six colours", "any": "dice whose colours repeat"}
# The calibration fingerprint of no file: what a refit read without colours was judged against.
NO_CALIBRATION = "none"


class AdaptError(ValueError):
    """The rolls cannot be refitted on; the message says why."""


@dataclass(frozen=True)
class Refit:
    """What `fit` learnt from the teaching rolls."""

    expect: ExpectMode  # the reader mode it is for
    calibration: Calibration | None  # the six dice's colours (macao mode); None: colours not refitted
    value_min_probability: float  # the mode's sure threshold (THRESHOLD_FIELDS)
    dice: int  # labelled dice it was learnt from
    heads: HeadsRefit | None = None  # the classifiers' refitted last layers; None: not refitted

    def learned(self, learned: LearnedParams) -> LearnedParams:
        """`learned` with the refitted threshold of its mode (the layers are read from the file
        they are written to: `with_heads`)."""
        return with_threshold(learned, self.expect, self.value_min_probability)


def with_threshold(learned: LearnedParams, expect: ExpectMode, threshold: float) -> LearnedParams:
    """`learned` with `expect` mode's sure threshold set to `threshold`."""
    if expect == "macao":
        return dataclasses.replace(learned, macao_value_min_probability=threshold)
    return dataclasses.replace(learned, value_min_probability=threshold)


def with_heads(learned: LearnedParams, heads: Path | None) -> LearnedParams:
    """`learned` reading through the refitted last layers in `heads` (None: as shipped)."""
    return dataclasses.replace(learned, classifier_heads_path="" if heads is None else str(heads.absolute()))


def threshold_of(learned: LearnedParams, expect: ExpectMode) -> float:
    """`expect` mode's sure threshold in `learned`."""
    return learned.macao_value_min_probability if expect == "macao" else learned.value_min_probability


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
        """Better on the held-out rolls (`_better`)."""
        return _better(self.before.colour_value_right, self.before.wrong_confident,
                       self.after.colour_value_right, self.after.wrong_confident,
                       self.before.phantom, self.after.phantom,
                       self.before.against_confirmed, self.after.against_confirmed)


def _better(right_before: int, wrong_before: int, right_after: int, wrong_after: int,
            extra_before: int = 0, extra_after: int = 0, against_before: int = 0, against_after: int = 0) -> bool:
    """No die fewer read right (colour and value), none more stated wrongly, no more values
    stated that the players did not confirm (`against`: counted on every held-out roll, also
    those whose dice the reader miscounted and nothing labels), and less for the players to put
    right: dice not read right (typed in) plus readings where no die lies (`extra`, dismissed),
    or as much and fewer stated wrongly. A refit that trades dice read right for phantoms gone is
    not taken: on hard drawn tables such refits took real dice for no die. Judged on the labelled
    dice alone, a refit kept its promise on the easy rolls the reader had counted right and
    stated more dice wrongly on the others (tools/training/README.md, "The table's rolls as the
    app keeps them"). Records before version 4 counted no values against the confirmed ones,
    before version 3 no extra readings."""
    return (wrong_after <= wrong_before and right_after >= right_before and against_after <= against_before
            and (extra_after - right_after, wrong_after) < (extra_before - right_before, wrong_before))


def split(folder: Path) -> tuple[list[tuple[Path, Path]], list[tuple[Path, Path]]]:
    """(teaching, held-out) image and label pairs of a dataset folder: every `HELD_OUT_EVERY`-th
    roll is held out, and so is every roll with no die labelled (kept for the values the players
    confirmed: it would teach nothing, so it judges). A label that cannot be read is left to
    `check_labels` to name."""
    pairs = list(iter_dataset(folder))
    every = pairs[HELD_OUT_EVERY - 1::HELD_OUT_EVERY]
    held = [p for p in pairs if p in every or not _labels_a_die(p[1])]
    return [p for p in pairs if p not in held], held


def _labels_a_die(label_path: Path) -> bool:
    """Whether a kept roll's label names a die (a roll whose dice the reader miscounted is kept
    with the values confirmed and no die labelled); True for one that cannot be read."""
    try:
        return bool(load_labels(label_path, 1, 1))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, IndexError):
        return True


def check_labels(pairs: list[tuple[Path, Path]], expect: ExpectMode) -> None:
    """AdaptError naming the file when a label cannot be read, or, in macao mode, names a colour
    twice (a roll of dice whose colours repeat, which is any mode's)."""
    for _image, label_path in pairs:
        try:
            labels = load_labels(label_path, 1, 1)
            confirmed_of(label_path)
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise AdaptError(f"{label_path}: not a label file the rolls are kept in ({exc})") from exc
        named = Counter(d.colour for d in labels if d.colour is not None)
        twice = sorted(colour for colour, count in named.items() if count > 1)
        if expect == "macao" and twice:
            raise AdaptError(f"{label_path}: {len(labels)} dice, {', '.join(twice)} more than once: not a roll of "
                             "the six dice of macao mode (dice whose colours repeat are refitted with --expect any)")


def fit(pairs: list[tuple[Path, Path]], params: VisionParams, models: LearnedModels, learned: LearnedParams,
        max_wrong: float, min_dice: int, expect: ExpectMode = "macao", may_raise: bool = True) -> Refit:
    """The sure threshold (and in macao mode the colour calibration) the teaching rolls give;
    AdaptError when they hold fewer than `min_dice` dice the reader found, or (macao mode) a
    colour not at all. Without `may_raise` the threshold may only come down from `learned`'s."""
    lowest = with_threshold(learned, expect, float(_THRESHOLDS[0]))
    bodies: dict[str, list[tuple[float, float, float]]] = {c: [] for c in DIE_COLOURS}
    polarities: dict[str, Counter[str]] = {c: Counter() for c in DIE_COLOURS}
    stated: list[tuple[float, bool]] = []  # (P(value), value right) of each labelled die the reader stated
    found = 0
    read_with = kept_roll_params(params)
    for image_path, label_path in pairs:
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        labels = load_labels(label_path, frame.shape[1], frame.shape[0])
        if expect == "macao":
            _sightings(frame, labels, params, models, lowest, bodies, polarities)
        # The threshold: the whole reader, stating every value it is at least the lowest tried sure
        # of, as the roll was read: in its tray corners, beside its empty tray where one was kept.
        reading = read_dice(frame, read_with(label_path, frame), expect, learned=lowest,
                            reference=_empty_tray_beside(image_path))
        for die in reading.dice:
            label = _label_at(labels, die.x + die.w / 2, die.y + die.h / 2)
            if label is None or label.value is None:
                continue
            found += 1
            if not die.unsure:
                stated.append((die.confidence, die.value == label.value))  # colours are not its to fix
    if found < min_dice:
        raise AdaptError(f"only {found} dice found in {len(pairs)} teaching rolls with a die labelled; at least "
                         f"{min_dice} are needed")
    chosen = _threshold(stated, found, max_wrong, threshold_of(learned, expect))
    chosen = chosen if may_raise else min(chosen, threshold_of(learned, expect))
    if expect != "macao":
        return Refit(expect, None, chosen, found)
    unseen = [c for c in DIE_COLOURS if not bodies[c]]
    if unseen:
        raise AdaptError(f"no roll shows the {', '.join(unseen)} die clearly")
    return Refit(expect, Calibration(models={c: _model(c, bodies[c], polarities[c]) for c in DIE_COLOURS},
                                     measure=LEARNED_MEASURE), chosen, found)


def _sightings(frame: np.ndarray, labels: list[LabelledDie], params: VisionParams, models: LearnedModels,
               learned: LearnedParams, bodies: dict[str, list[tuple[float, float, float]]],
               polarities: dict[str, Counter[str]]) -> None:
    """Add the colour of every die of `frame` seen plainly (no doubt that it is a die, flat,
    whole, no glare) to `bodies` and its pips' polarity to `polarities`, by its label's colour."""
    try:
        view, place = cut_with_margin(check_frame(frame, params), params, None)
    except FrameError:
        return
    x0, y0 = place.offset if place is not None else (0, 0)
    for face in find_faces(view, params, "macao", models, learned, place=place):
        label = _label_at(labels, face.box[0] + face.box[2] / 2 + x0, face.box[1] + face.box[3] / 2 + y0)
        if face.reason or label is None or label.colour not in bodies:
            continue
        bodies[label.colour].append((face.colour.lightness, face.colour.a, face.colour.b))
        if face.polarity:
            polarities[label.colour][face.polarity] += 1


def kept_roll_params(params: VisionParams) -> RollParams:
    """The settings each kept roll was read with: `params` in the tray corners its label gives
    (a drawn table's; the app's own rolls were read in `params`' corners). AdaptError names a
    label whose corners are not four points in the frame."""
    def read_with(label_path: Path, frame: np.ndarray) -> VisionParams:
        height, width = frame.shape[:2]
        try:
            check = camera_check_of(label_path, width, height)
        except ValueError as exc:
            raise AdaptError(str(exc)) from exc
        return checked_params(params, check, width, height)
    return read_with


def _empty_tray_beside(image_path: Path) -> np.ndarray | None:
    """The empty tray a kept roll was read beside (references/ of its folder, under its name;
    vision.table_rolls), or None where none was kept."""
    try:
        return empty_tray_of(image_path.parent.parent, image_path)
    except FileNotFoundError:
        return None


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
          calibration: Calibration | None, max_wrong: float, min_dice: int, expect: ExpectMode = "macao",
          layers: bool = True) -> Adaptation:
    """Refit `folder`'s rolls for the reader's `expect` mode on the teaching rolls and score the
    held-out ones before (`calibration`, `learned` as they are) and after; AdaptError when the
    folder holds too little or labels that are not its mode's. With `layers`, the classifiers'
    last layers are refitted first (vision.head_refit), and the colours and threshold are fitted
    to what the reader reads through them, the threshold only downwards: read through layers
    fitted on the same rolls it states few of them wrongly, but when the threshold was raised
    to state none, ten drawn tables lost 96 held-out dice read right for 5 fewer stated wrongly
    (tests/vision/bench_table_adapt.py). Any mode reads values alone: `calibration` must be None
    there (ValueError otherwise)."""
    if expect != "macao" and calibration is not None:
        raise ValueError("any mode refits the values alone: it is judged with no colour calibration")
    teaching, held = split(folder)
    if not held:
        raise AdaptError(f"{folder}: {len(teaching)} rolls; at least {HELD_OUT_EVERY} are needed to hold one out")
    check_labels(teaching + held, expect)
    with tempfile.TemporaryDirectory(prefix="adapt-") as scratch:
        heads = refit_heads(teaching, params, expect, models, learned, kept_roll_params(params)) if layers else None
        taught_models, taught = models, learned
        if heads is not None and heads.heads:
            save_heads(Path(scratch) / HEADS_NAME, heads.heads)
            taught = with_heads(learned, Path(scratch) / HEADS_NAME)
            chosen = learned_models(taught)
            if isinstance(chosen, str):
                raise AdaptError(f"the refitted layers cannot be read with: {chosen}")
            taught_models = chosen[0]
        refitted = heads is not None and bool(heads.heads)
        refit = dataclasses.replace(fit(teaching, params, taught_models, taught, max_wrong, min_dice, expect,
                                        may_raise=not refitted), heads=heads)
        adapted = refit.learned(taught)
        held_folder = Path(scratch) / "held-out"
        beside = all(_empty_tray_beside(image_path) is not None for image_path, _label in held)
        for part in ("images", "labels") + (("references",) if beside else ()):
            (held_folder / part).mkdir(parents=True)
        for image_path, label_path in held:
            os.symlink(image_path.resolve(), held_folder / "images" / image_path.name)
            os.symlink(label_path.resolve(), held_folder / "labels" / label_path.name)
            if beside:
                os.symlink((image_path.parent.parent / "references" / image_path.name).resolve(),
                           held_folder / "references" / image_path.name)
        colours = expect == "macao"
        before, after = (evaluate(held_folder, lambda f: read_dice(f, params, expect, colours_, learned=learned_),
                                  colours, reader_beside_empty_tray(params, expect, colours_, learned_) if beside else None)
                         for colours_, learned_ in ((calibration, learned), (refit.calibration, adapted)))
    return Adaptation(refit, before, after, len(teaching), len(held))


def reader_beside_empty_tray(params: VisionParams, expect: ExpectMode, calibration: Calibration | None,
                       learned: LearnedParams) -> Callable[[np.ndarray, np.ndarray, CameraCheck | None], DiceReading]:
    """A kept roll read as the app read it: beside its empty tray, in the tray's corners (for
    `evaluate`'s `read_beside_empty_tray`)."""
    def read(frame: np.ndarray, empty: np.ndarray, check: CameraCheck | None) -> DiceReading:
        return read_dice(frame, checked_params(params, check, frame.shape[1], frame.shape[0]), expect, calibration,
                         learned=learned, reference=empty)
    return read


def adapted_settings(refit: Refit, heads: Path | None = None) -> str:
    """The refitted threshold, and the refitted layers' file when written (`heads`), as a config
    file to lay over config.toml (`--config`, or the app's own config.toml)."""
    layers = "" if heads is None else f"classifier_heads_path = {json.dumps(str(heads.absolute()))}\n"
    return (f"# Written by `python -m vision adapt --expect {refit.expect}` from the table's own rolls.\n"
            "[vision.learned]\n"
            f"{THRESHOLD_FIELDS[refit.expect]} = {refit.value_min_probability:.2f}\n" + layers)


@dataclass(frozen=True)
class AdaptedReader:
    """A refit as the app applies it: its reader mode, the colours (macao mode; None: the
    colours in use stay), the sure threshold and the refitted last layers, and the held-out
    scores that earned it its place (dice read right, stated wrongly, readings where no die lies,
    values stated that the players did not confirm, before and after)."""

    expect: ExpectMode
    calibration: Calibration | None
    value_min_probability: float
    rolls: int  # the rolls it was taught and judged on
    held_out_dice: int
    right_before: int
    right_after: int
    wrong_before: int
    wrong_after: int
    heads: Path | None = None  # the classifiers' refitted last layers; None: as shipped
    extra_before: int = 0  # held-out readings where no die lies (0 in records before version 3)
    extra_after: int = 0
    against_before: int = 0  # held-out values stated that the players did not confirm (0 before version 4)
    against_after: int = 0

    def learned(self, learned: LearnedParams) -> LearnedParams:
        """The learned reader's thresholds with the refitted one of its mode, reading through the
        refitted last layers where there are some."""
        return with_heads(with_threshold(learned, self.expect, self.value_min_probability), self.heads)

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
    """What identifies the colour calibration a refit was judged against (or any other file of
    the refit's): its file's bytes, or NO_CALIBRATION when there is no file."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except FileNotFoundError:
        return NO_CALIBRATION


def write_adaptation(out: Path, result: Adaptation, models: str, judged_against: str) -> None:
    """Write the refit (calibration.json in macao mode, heads.json where the last layers were
    refitted, adapted.toml) and, last, its record: a run cut short leaves no record, or one whose
    files do not match it, and the app then keeps what it had. `judged_against` is NO_CALIBRATION for any mode (read without colours).
    OSError when the folder cannot be written."""
    out.mkdir(parents=True, exist_ok=True)
    if result.refit.calibration is not None:
        save_calibration(result.refit.calibration, out / CALIBRATION_NAME)
    else:  # an earlier refit's colours are not this one's
        (out / CALIBRATION_NAME).unlink(missing_ok=True)
    layers = result.refit.heads.heads if result.refit.heads is not None else {}
    if layers:
        save_heads(out / HEADS_NAME, layers)
    else:
        (out / HEADS_NAME).unlink(missing_ok=True)
    write_atomically(out / SETTINGS_NAME, adapted_settings(result.refit, out / HEADS_NAME if layers else None))
    record = {
        "version": RECORD_VERSION,
        "mode": result.refit.expect,
        "value_min_probability": result.refit.value_min_probability,
        "rolls": result.taught + result.held_out,
        "held_out_dice": result.before.dice,
        "right_before": result.before.colour_value_right,
        "right_after": result.after.colour_value_right,
        "wrong_before": result.before.wrong_confident,
        "wrong_after": result.after.wrong_confident,
        "extra_before": result.before.phantom,
        "extra_after": result.after.phantom,
        "against_before": result.before.against_confirmed,
        "against_after": result.after.against_confirmed,
        "models": models,
        "judged_against": judged_against,
        "calibration": calibration_fingerprint(out / CALIBRATION_NAME),
        "heads": calibration_fingerprint(out / HEADS_NAME),
    }
    write_atomically(out / RECORD_NAME, json.dumps(record, indent=1) + "\n")



def load_adaptation(folder: Path, models: str, judged_against: str,
                    expect: ExpectMode = "macao") -> AdaptedReader | None:
    """The refit written in `folder`, when it was made for the reader's `expect` mode and these
    `models`, judged against the calibration now in use (`judged_against`, as
    `calibration_fingerprint` gives it; NO_CALIBRATION for any mode) and read the held-out rolls
    better; None when the folder holds none. AdaptError says what is wrong with one that cannot
    be applied (damaged, cut short, made for the other mode or other models, outdated by a new
    calibration, or not better)."""
    record_path = folder / RECORD_NAME
    if not record_path.exists():
        return None
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AdaptError(f"{record_path}: unreadable ({exc})") from exc
    if not isinstance(record, dict) or type(record.get("version")) is not int or not 1 <= record["version"] <= RECORD_VERSION:
        raise AdaptError(f"{record_path}: not an adaptation record of version 1 to {RECORD_VERSION}")
    made_for = "macao" if record["version"] == 1 else record.get("mode")
    if made_for not in THRESHOLD_FIELDS:
        raise AdaptError(f"{record_path}: names no reader mode (macao or any), but {made_for!r}")
    if made_for != expect:
        raise AdaptError(f"{record_path}: made for the reader's {made_for} mode, not for its {expect} mode "
                         f"(the {_MODE_DICE[made_for]}, not the {_MODE_DICE[expect]})")
    version = record["version"]
    counts = (("rolls", "held_out_dice", "right_before", "right_after", "wrong_before", "wrong_after")
              + (("extra_before", "extra_after") if version >= 3 else ())
              + (("against_before", "against_after") if version >= 4 else ()))
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
    extra = (record["extra_before"], record["extra_after"]) if version >= 3 else (0, 0)
    against = (record["against_before"], record["against_after"]) if version >= 4 else (0, 0)
    if not _better(record["right_before"], record["wrong_before"], record["right_after"], record["wrong_after"],
                   *extra, *against):
        raise AdaptError(f"{record_path}: it read the held-out rolls no better")
    calibration_path = folder / CALIBRATION_NAME
    if calibration_fingerprint(calibration_path) != record.get("calibration"):
        raise AdaptError(f"{calibration_path}: missing or not the one the record names (a run cut short?)")
    calibration = None
    if expect == "macao":  # any mode's refit has no colours
        try:
            calibration = load_calibration(calibration_path)
        except CalibrationError as exc:
            raise AdaptError(str(exc)) from exc
    rolls, held_out_dice, right_before, right_after, wrong_before, wrong_after = (int(record[key]) for key in counts[:6])
    return AdaptedReader(expect, calibration, float(threshold), rolls, held_out_dice, right_before, right_after,
                         wrong_before, wrong_after, _refitted_layers(folder, record), int(extra[0]), int(extra[1]),
                         int(against[0]), int(against[1]))


def _refitted_layers(folder: Path, record: dict[str, object]) -> Path | None:
    """The refitted last layers' file a record of version 3 or later names (None: none, or an
    older record, which had none); AdaptError when it is missing, not the one named, or damaged."""
    if not isinstance(record["version"], int) or record["version"] < 3 \
            or record.get("heads", NO_CALIBRATION) == NO_CALIBRATION:
        return None
    path = folder / HEADS_NAME
    if calibration_fingerprint(path) != record.get("heads"):
        raise AdaptError(f"{path}: missing or not the one the record names (a run cut short?)")
    try:
        load_heads(path)
    except (OSError, ValueError) as exc:
        raise AdaptError(str(exc)) from exc
    return path


def forget_adaptation(folder: Path) -> None:
    """Back to the shipped models: the record goes (the refit's files with it); OSError when
    it cannot be removed."""
    for name in (RECORD_NAME, CALIBRATION_NAME, HEADS_NAME, SETTINGS_NAME):
        (folder / name).unlink(missing_ok=True)

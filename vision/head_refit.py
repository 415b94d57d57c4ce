"""Refitting the classifiers' last layer on a table's own rolls (`vision adapt`; vision.heads).

A die is first read where the detector proposes it (vision.learned.proposed_candidates). Each
teaching roll is read that far, and each candidate is labelled from the roll's dice: one within
POSITIVE_WITHIN sides of a die's centre shows that die, one more than NEGATIVE_BEYOND sides
outside every die's box shows none (table, tray, cube, card), and the ones between (a die's
edge, a side face) teach nothing. Every crop is read by the classifier's features net at all
four quarter turns, as the reader turns a doubtful die, and the last layer is fitted to them: a
softmax regression started from the shipped layer and held near it (PENALTY), so that a few
hundred rolls move it only where they agree. The problem is convex and solved by a fixed number
of full gradient steps: the same rolls give the same layer, with no seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.candidates import crop_candidates
from vision.evaluate import LabelledDie, every_die_labelled, load_labels
from vision.frame import FrameError, check_frame
from vision.heads import Head, features_path, shipped_head
from vision.learned import proposed_candidates
from vision.learned_models import LearnedModels, crop_dice, model_path
from vision.learned_params import LearnedParams
from vision.onnx_net import NetError, OnnxNet, image_blob, load_net
from vision.params import VisionParams
from vision.reader_view import reader_view
from vision.types import ExpectMode

POSITIVE_WITHIN = 0.35  # die sides from a die's centre: the candidate shows that die
NEGATIVE_BEYOND = 0.3  # die sides outside every die's box: the candidate shows no die
PENALTY = 0.01  # weight of the squared distance from the shipped layer, per crop
STEPS = 500  # full gradient steps of the fit
NOT_A_DIE = 0

# The reader's settings a kept roll was read with (its label's path, its frame): the tray
# corners the camera check had tapped then.
RollParams = Callable[[Path, np.ndarray], VisionParams]


@dataclass(frozen=True)
class Refittable:
    """A classifier whose last layer can be refitted: its file's name (the heads file's key),
    its features net and the layer it ships with."""

    name: str
    features: OnnxNet
    shipped: Head


def refittable(learned: LearnedParams) -> tuple[list[Refittable], list[str]]:
    """The reader's classifiers (first, then the second one) that have a features net beside
    them, and why each other one cannot be refitted."""
    found, missing = [], []
    for configured in (learned.classifier_path, learned.second_classifier_path):
        if not configured:
            continue
        path = model_path(configured)
        try:
            found.append(Refittable(path.name, load_net(features_path(path), learned.runtime), shipped_head(path)))
        except (OSError, NetError, ValueError) as exc:
            missing.append(f"{path.name}: no usable features net beside it ({exc})")
    return found, missing


def candidate_classes(centres: np.ndarray, labels: Sequence[LabelledDie], every_die: bool = True) -> np.ndarray:
    """Each candidate centre's class (frame px): the value of the die whose centre lies within
    POSITIVE_WITHIN of its side, NOT_A_DIE clear of every die's box by NEGATIVE_BEYOND of its
    side where the labels hold `every_die` (else it may lie on the die left out), else -1
    (teaches nothing; so does a candidate on a die labelled without a value, a cocked one)."""
    classes = np.full(len(centres), -1, int)
    for index, (x, y) in enumerate(centres):
        near_any = False
        for die in labels:
            x0, y0, x1, y1 = die.box
            side = min(x1 - x0, y1 - y0)
            if np.hypot(x - (x0 + x1) / 2, y - (y0 + y1) / 2) <= POSITIVE_WITHIN * side:
                classes[index] = die.value if die.value is not None else -1
                near_any = True
                break
            margin = NEGATIVE_BEYOND * side
            near_any = near_any or (x0 - margin <= x <= x1 + margin and y0 - margin <= y <= y1 + margin)
        if not near_any and every_die:
            classes[index] = NOT_A_DIE
    return classes


def teaching_crops(frame: np.ndarray, labels: Sequence[LabelledDie], params: VisionParams, expect: ExpectMode,
                   models: LearnedModels, learned: LearnedParams,
                   every_die: bool = True) -> tuple[list[np.ndarray], np.ndarray]:
    """The crops of one roll's candidates that teach, as each classifier (models.classifier,
    then models.extra_classifiers) cuts them, and their classes (`candidate_classes`); none
    where the frame is not one the reader reads. The roll is seen as the reader sees it
    (vision.reader_view): in `params`' tray corners, straightened under a tilted camera. It is
    read alone, not beside its empty tray: the layers serve a reader without one too (first start,
    a tray not yet seen empty), and beside it few candidates teach "no die" (on 25 drawn tables
    no better, tools/training/README.md)."""
    nets = [models.classifier, *models.extra_classifiers]
    nothing = [np.zeros((0, net.crop_px, net.crop_px, 3), np.uint8) for net in nets], np.zeros(0, int)
    try:
        seen = reader_view(check_frame(frame, params), params, None, None, learned)
    except FrameError:
        return nothing
    proposal = proposed_candidates(seen.picture, params, expect, models, learned, place=seen.place)
    if not proposal.found:
        return nothing
    centres, sides, first = crop_candidates(seen.picture, proposal.found, proposal.typical, models.classifier, learned)
    classes = candidate_classes(seen.points_in_frame(centres), labels, every_die)
    teach = classes >= 0
    crops = [first] + [crop_dice(seen.picture, centres, sides, net.crop_px, net.window_sides) for net in nets[1:]]
    return [stack[teach] for stack in crops], classes[teach]


def turned_features(features: OnnxNet, crops: np.ndarray, batch: int = 4) -> np.ndarray:
    """The features of every crop at each quarter turn (4N x F: all crops upright, then turned
    once, ...), `batch` crops at a time, as the classifier reads them turned."""
    rows: list[list[np.ndarray]] = [[] for _ in range(4)]
    for start in range(0, len(crops), max(batch, 1)):
        part = crops[start : start + max(batch, 1)]
        turned = np.concatenate([np.rot90(part, k, axes=(1, 2)) for k in range(4)])
        out = features.run(image_blob(turned)).reshape(4, len(part), -1)
        for k in range(4):
            rows[k].append(out[k])
    if not len(crops):
        return np.zeros((0, 0), np.float32)
    return np.concatenate([np.concatenate(row) for row in rows])


def fit_head(features: np.ndarray, classes: np.ndarray, shipped: Head, penalty: float = PENALTY,
             steps: int = STEPS) -> Head:
    """The last layer that minimises the mean cross-entropy of `classes` given `features`, plus
    `penalty` times its squared distance from `shipped` (weight and bias alike)."""
    count = len(classes)
    inputs = np.hstack([features.astype(np.float64), np.ones((count, 1))])
    start = np.hstack([shipped.weight, shipped.bias[:, None]]).astype(np.float64)
    targets = np.eye(start.shape[0])[classes]
    # A step of 1/L, L bounding the curvature: cross-entropy's Hessian is at most half the
    # inputs' second moment, the penalty adds its own weight.
    step = 1.0 / (0.5 * float(np.linalg.eigvalsh(inputs.T @ inputs / count).max()) + penalty)
    layer = start.copy()
    for _ in range(steps):
        logits = inputs @ layer.T
        logits -= logits.max(axis=1, keepdims=True)
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        layer -= step * ((probabilities - targets).T @ inputs / count + penalty * (layer - start))
    return Head(layer[:, :-1].astype(np.float32), layer[:, -1].astype(np.float32))


@dataclass(frozen=True)
class HeadsRefit:
    """The refitted layers by classifier file name, the crops they were fitted on by class, and
    why a classifier was left as shipped."""

    heads: dict[str, Head]
    crops_by_class: tuple[int, ...]
    left_out: tuple[str, ...]


def refit_heads(pairs: Sequence[tuple[Path, Path]], params: VisionParams, expect: ExpectMode, models: LearnedModels,
                learned: LearnedParams, params_of: RollParams | None = None) -> HeadsRefit:
    """Refit the last layer of every classifier of the reader that has a features net on the
    teaching rolls' candidates (image and label paths), each roll seen with the settings
    `params_of` says it was read with (default: `params`); no layer where no crop teaches."""
    nets, missing = refittable(learned)
    by_net: list[list[np.ndarray]] = [[] for _ in range(1 + len(models.extra_classifiers))]
    classes: list[np.ndarray] = []
    for image_path, label_path in pairs:
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        read_with = params if params_of is None else params_of(label_path, frame)
        crops, taught = teaching_crops(frame, load_labels(label_path, frame.shape[1], frame.shape[0]), read_with,
                                       expect, models, learned, every_die_labelled(label_path))
        for stack, kept in zip(crops, by_net):
            kept.append(stack)
        classes.append(taught)
    every = np.concatenate(classes) if classes else np.zeros(0, int)
    counts = tuple(int(n) for n in np.bincount(every, minlength=7))
    if not len(every):
        return HeadsRefit({}, counts, tuple(missing) + ("no candidate of the teaching rolls teaches",))
    heads = {}
    configured = [learned.classifier_path, learned.second_classifier_path][: len(by_net)]
    for path, stacks in zip(configured, by_net):
        net = next((n for n in nets if n.name == model_path(path).name), None) if path else None
        if net is None:
            continue
        features = turned_features(net.features, np.concatenate(stacks), learned.classifier_batch)
        heads[net.name] = fit_head(features, np.tile(every, 4), net.shipped)
    return HeadsRefit(heads, counts, tuple(missing))

"""Checks of a reading against a drawn scene's labels, shared by the learned reader's tests."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from tools import synth
from tools.scene_factors import allowed_values
from tools.synth import DieLabel, SceneLabels
from vision.evaluate import LabelledDie, judge, match
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import read_dice
from vision.types import DiceReading, DieReading


def as_stored(frame: np.ndarray) -> np.ndarray:
    """The frame as `vision synth` writes it (JPEG, quality 90): a fresh set's scenes read alike."""
    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)


def at_label(die: DieReading, label: DieLabel) -> bool:
    """Whether a read die's box is centred on a labelled die (within 0.6 of its side)."""
    cx, cy = label.center
    return abs(die.x + die.w / 2 - cx) < 0.6 * die.w and abs(die.y + die.h / 2 - cy) < 0.6 * die.h


def colours_right(reading: DiceReading, labels: SceneLabels) -> int:
    """Labelled dice with a read die of their colour at their centre."""
    return sum(any(die.colour == label.colour and at_label(die, label) for die in reading.dice)
               for label in labels.dice)


def mistakes_in(reading: DiceReading, labels: SceneLabels) -> list[str]:
    """The confident readings that are wrong: a labelled die read as another colour or value (or
    a cocked one read at all), and a die read where none lies."""
    truth = [LabelledDie(box=d.box, value=d.value, colour=d.colour) for d in labels.dice]
    matches = match(truth, reading.dice)
    mistakes = []
    for i, die in enumerate(labels.dice):
        if i not in matches:
            continue
        got = reading.dice[matches[i]]
        if got.unsure or got.value is None:
            continue
        if die.cocked:
            mistakes.append(f"cocked {die.colour} die read as {got.colour} {got.value}")
        elif (got.value, got.colour) != (die.value, die.colour):
            mistakes.append(f"{die.colour} {die.value} read as {got.colour} {got.value}")
    matched = set(matches.values())
    for j, got in enumerate(reading.dice):
        if j not in matched and not got.unsure and got.value is not None:
            mistakes.append(f"no die at ({got.x}, {got.y}) but read as {got.colour} {got.value}")
    return mistakes


def read_beside_its_tray(set_seed: int, index: int, only: Mapping[str, Sequence[str]], params: VisionParams,
                         learned: LearnedParams | None = None) -> tuple[DiceReading, SceneLabels]:
    """Scene `index` of the drawn set `python -m vision synth DIR --only ... --seed set_seed
    --empty-trays` writes, read in `any` mode as the app reads after its camera check: beside its
    empty tray, inside the tray's four tapped corners, with the camera's field of view."""
    frame, labels, empty = synth.render_randomised_and_empty_tray(set_seed * 100_003 + index, allowed_values(only=only))
    frame, empty = as_stored(frame), as_stored(empty)
    height, width = frame.shape[:2]
    tapped = dataclasses.replace(params.with_tray_corners(labels.conditions["tray_corners_px"], width, height),  # type: ignore[arg-type]
                                 camera_fov_deg=float(labels.conditions["camera_fov_deg"]))  # type: ignore[arg-type]
    return read_dice(frame, tapped, expect="any", learned=learned, reference=empty), labels


def outcomes(reading: DiceReading, dice: list[LabelledDie]) -> list[str]:
    """Each labelled die's outcome as `python -m vision evaluate` judges it, values only."""
    matched = match(dice, reading.dice)
    return [judge(die, reading.dice[matched[i]] if i in matched else None, False) for i, die in enumerate(dice)]

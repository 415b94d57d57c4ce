"""Checks of a reading against a drawn scene's labels, shared by the learned reader's tests."""

from __future__ import annotations

import cv2
import numpy as np

from vision.evaluate import LabelledDie, match
from tools.synth import DieLabel, SceneLabels
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

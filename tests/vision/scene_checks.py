"""Checks of a reading against a drawn scene's labels, shared by the learned reader's tests."""

from __future__ import annotations

from vision.synth import SceneLabels
from vision.types import DiceReading


def colours_right(reading: DiceReading, labels: SceneLabels) -> int:
    """Labelled dice with a read die of their colour at their centre."""
    right = 0
    for label in labels.dice:
        cx, cy = label.center
        right += any(die.colour == label.colour and abs(die.x + die.w / 2 - cx) < 0.6 * die.w
                     and abs(die.y + die.h / 2 - cy) < 0.6 * die.h for die in reading.dice)
    return right

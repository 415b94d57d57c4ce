"""The classical fallback reader with the empty-tray reference: blobs the empty tray shows too
(a board's printed dice, hexes, ships) are dropped, patches of change no blob covers are read,
and a reference that cannot be compared is left out and said so, as on the learned path."""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.vision.test_reference import scene_and_empty_tray
from vision.evaluate import MISSED, RIGHT, WRONG, LabelledDie, judge, match
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import CLASSICAL_PATH, read_dice
from tools.synth import SceneLabels

PARAMS = load_vision_params()
CLASSICAL = dataclasses.replace(load_learned_params(), enabled=False)  # the models "absent"


def _outcomes(frame: np.ndarray, labels: SceneLabels, reference: np.ndarray | None) -> tuple[dict[str, int], int, str]:
    """Outcome counts of the flat dice, readings on none of them, and the reading's message."""
    reading = read_dice(frame, PARAMS, expect="macao", learned=CLASSICAL, reference=reference)
    assert reading.message.startswith(CLASSICAL_PATH)
    dice = [LabelledDie(d.box, d.value, d.colour) for d in labels.dice if d.value is not None]
    matched = match(dice, reading.dice)
    counts: dict[str, int] = {}
    for i, die in enumerate(dice):
        outcome = judge(die, reading.dice[matched[i]] if i in matched else None, True)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts, len(reading.dice) - len(matched), reading.message


def test_board_art_is_dropped_and_a_missed_die_is_found_beside_the_empty_tray() -> None:
    """Seed 1 on a board: without the reference two readings lie on the board's art and two
    dice are missed; with it no reading lies off a die and the sixth die is read right."""
    frame, empty, labels = scene_and_empty_tray(1, board_art=True)
    without, phantoms_without, _message = _outcomes(frame, labels, None)
    with_reference, phantoms_with, message = _outcomes(frame, labels, empty)
    assert phantoms_without == 2 and phantoms_with == 0
    assert without[MISSED] == 2 and with_reference.get(MISSED, 0) == 1
    assert with_reference[RIGHT] == without[RIGHT] + 1 and WRONG not in with_reference
    assert "reference" not in message


def test_a_reference_the_classical_reader_cannot_compare_is_left_out_and_said_so() -> None:
    frame, empty, labels = scene_and_empty_tray(1, board_art=True)
    without = _outcomes(frame, labels, None)
    counts, phantoms, message = _outcomes(frame, labels, np.roll(empty, 140, axis=1))  # the camera turned
    assert "empty-tray reference not used: the camera moved" in message
    assert (counts, phantoms) == without[:2]
    counts, phantoms, message = _outcomes(frame, labels, empty[:450])
    assert "empty-tray picture is 1600x450" in message and (counts, phantoms) == without[:2]


def test_an_empty_tray_reads_empty_beside_its_own_picture() -> None:
    """Nothing changed, nothing read: the board's printed dice are in the reference too."""
    _frame, empty, _labels = scene_and_empty_tray(1, board_art=True)
    again = np.clip(empty.astype(np.float32) * 1.08, 0, 255).astype(np.uint8)  # the lamp a touch brighter
    assert read_dice(again, PARAMS, expect="any", learned=CLASSICAL, reference=empty).dice == ()
    assert read_dice(again, PARAMS, expect="any", learned=CLASSICAL).dice != ()  # the art read as dice

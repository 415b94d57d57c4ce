"""In `any` mode no count of dice says one is missing, so beside the empty tray the detector looks
again beside the dice found, where the picture differs from the empty tray (issue 39): of two
touching dice one is often only a shoulder of the other's heat. What that look finds, or the
re-read of candidates left out promotes, on the line from a die towards the point below a tilted
camera is the die's side face, and is left out.

The scenes are drawn leave-one-out scenes (`python -m vision synth --only ...`, scene `index` of
the set drawn with `set_seed`), read as the app reads after its camera check: beside the empty
tray, inside the tray's four tapped corners, with the camera's field of view."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tools import synth
from tools.scene_factors import allowed_values
from vision.evaluate import MISSED, RIGHT, LabelledDie, judge, match, on_a_die
from vision.learned import side_face_of
from vision.learned_models import DieCandidate
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import WHOLE_FRAME, load_vision_params
from vision.reader import read_dice
from vision.types import DiceReading

PARAMS = load_vision_params().with_tray(WHOLE_FRAME)
LEARNED = load_learned_params()
NO_LOOK_BESIDE = dataclasses.replace(LEARNED, any_look_beside_min_score=1.0)
NO_SIDE_FACES = dataclasses.replace(LEARNED, any_side_face_within=0.0)
# The `--only` values of the drawn sets the scenes come from, by the set's seed.
ONLY = {
    3902: {"style": ("white",)},
    3903: {"tilt": ("30-35",)},
    3904: {"style": ("white",), "background": ("light_wood",), "camera": ("webcam",), "tilt": ("20-30", "30-35")},
    3924: {"style": ("white",), "background": ("light_wood",), "camera": ("webcam",), "tilt": ("20-30", "30-35")},
}


def _read(set_seed: int, index: int, learned: LearnedParams) -> tuple[DiceReading, list[LabelledDie], list[bool]]:
    """The scene read beside its empty tray in its tapped corners; its dice, and which touch another."""
    frame, labels, empty = (_as_written(picture) if isinstance(picture, np.ndarray) else picture
                            for picture in synth.render_randomised_and_empty_tray(set_seed * 100_003 + index,
                                                                                  allowed_values(only=ONLY[set_seed])))
    height, width = frame.shape[:2]
    tapped = dataclasses.replace(PARAMS.with_tray_corners(labels.conditions["tray_corners_px"], width, height),  # type: ignore[arg-type]
                                 camera_fov_deg=float(labels.conditions["camera_fov_deg"]))  # type: ignore[arg-type]
    reading = read_dice(frame, tapped, expect="any", learned=learned, reference=empty)
    return reading, [LabelledDie(d.box, d.value, None) for d in labels.dice], [d.touches_other_die for d in labels.dice]


def _as_written(picture: np.ndarray) -> np.ndarray:
    """The picture as `python -m vision synth` writes it into the set (JPEG, quality 90)."""
    ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def _outcomes(reading: DiceReading, dice: list[LabelledDie]) -> list[str]:
    matched = match(dice, reading.dice)
    return [judge(die, reading.dice[matched[i]] if i in matched else None, False) for i, die in enumerate(dice)]


def _sure_readings_of_no_die_of_their_own(reading: DiceReading, dice: list[LabelledDie]) -> int:
    """Readings stated with a value that match no die but lie on one: a die counted twice."""
    matched = set(match(dice, reading.dice).values())
    return sum(1 for j, die in enumerate(reading.dice)
               if j not in matched and not die.unsure and die.value is not None and on_a_die(dice, die))


@pytest.mark.parametrize(("set_seed", "index", "touches"), [
    (3924, 18, True), (3924, 138, True), (3903, 81, True),  # white dice under a webcam; a camera tilted 35 degrees
    (3924, 29, False), (3902, 55, False),  # seen only faintly beside another die
])
def test_a_die_missed_at_first_is_found_beside_another(set_seed: int, index: int, touches: bool) -> None:
    before, dice, touching = _read(set_seed, index, NO_LOOK_BESIDE)
    after, _, _ = _read(set_seed, index, LEARNED)
    missed = [i for i, outcome in enumerate(_outcomes(before, dice)) if outcome == MISSED]
    assert len(missed) == 1 and touching[missed[0]] == touches
    assert _outcomes(after, dice) == [RIGHT] * len(dice)
    assert _sure_readings_of_no_die_of_their_own(after, dice) == 0


@pytest.mark.parametrize("index", [0, 5, 12, 66])
def test_a_side_face_given_a_second_chance_is_left_out(index: int) -> None:
    """White dice under a webcam tilted 31-33 degrees: without the rule a die's side face, found
    beside it or read again (scene 5), is stated as a die of its own, surely; with it, not, and
    every die reads as before."""
    kept, dice, _ = _read(3904, index, NO_SIDE_FACES)
    left_out, _, _ = _read(3904, index, LEARNED)
    assert _sure_readings_of_no_die_of_their_own(kept, dice) == 1
    assert _sure_readings_of_no_die_of_their_own(left_out, dice) == 0
    assert _outcomes(left_out, dice) == _outcomes(kept, dice)
    assert RIGHT in _outcomes(left_out, dice)


def test_a_side_face_lies_between_the_die_and_the_point_below_the_camera() -> None:
    die = [DieCandidate(500.0, 300.0, 40.0, 0.9)]
    below = (500.0, 900.0)  # straight down the picture from the die
    towards, away = DieCandidate(500.0, 330.0, 40.0, 0.3), DieCandidate(500.0, 270.0, 40.0, 0.3)
    aslant, across = DieCandidate(518.0, 331.0, 40.0, 0.3), DieCandidate(535.0, 300.0, 40.0, 0.3)
    farther = DieCandidate(500.0, 350.0, 40.0, 0.3)  # 1.25 sides: a die of its own
    assert side_face_of(towards, die, below, 40.0, LEARNED)
    assert side_face_of(aslant, die, below, 40.0, LEARNED)  # 30 degrees off the line
    assert not side_face_of(away, die, below, 40.0, LEARNED)
    assert not side_face_of(across, die, below, 40.0, LEARNED)
    assert not side_face_of(farther, die, below, 40.0, LEARNED)
    assert not side_face_of(towards, die, below, 40.0, NO_SIDE_FACES)


def test_without_an_empty_tray_nothing_is_looked_for_beside_the_dice() -> None:
    """Read alone there is no telling where something lies: each weak peak on the table would
    cost a search for a die's body (crowded photos read twice as slowly), so the reading is the
    one without the look."""
    frame, _labels, _empty = synth.render_randomised_and_empty_tray(3924 * 100_003 + 29, allowed_values(only=ONLY[3924]))
    alone = read_dice(frame, PARAMS, expect="any", learned=LEARNED)
    without = read_dice(frame, PARAMS, expect="any", learned=NO_LOOK_BESIDE)
    assert [(d.x, d.y, d.value, d.unsure) for d in alone.dice] == [(d.x, d.y, d.value, d.unsure) for d in without.dice]


@pytest.mark.parametrize(("key", "value", "words"), [
    ("any_look_beside_min_score", 1.5, "'any_look_beside_min_score' is a heatmap score"),
    ("any_side_face_degrees", 120.0, "'any_side_face_degrees' is an angle"),
    ("any_side_face_within", -1.0, "'any_side_face_within' must not be negative"),
])
def test_bad_values_are_named(key: str, value: float, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        LearnedParams.from_table(dataclasses.asdict(LEARNED) | {key: value})

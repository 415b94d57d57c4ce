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

import numpy as np
import pytest

from tests.vision.scene_checks import outcomes, read_beside_its_tray
from tools import synth
from tools.scene_factors import allowed_values
from vision.evaluate import MISSED, RIGHT, LabelledDie, match, on_a_die
from vision.learned import maybe_dice, off_the_side_faces, side_face_of
from vision.learned_models import DieCandidate
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import WHOLE_FRAME, load_vision_params
from vision.reader import read_dice
from vision.reference import TrayDifference
from vision.types import DiceReading, UnsureReason

PARAMS = load_vision_params().with_tray(WHOLE_FRAME)
LEARNED = load_learned_params()
# Neither looked for beside the dice, nor asked about as maybe a die (which finds 3902/55's faint one too).
NO_LOOK_BESIDE = dataclasses.replace(LEARNED, any_look_beside_min_score=1.0, any_maybe_die_min_probability=1.0)
NO_SIDE_FACES = dataclasses.replace(LEARNED, any_side_face_within=0.0, any_side_face_closer=0.0)
# The `--only` values of the drawn sets the scenes come from, by the set's seed.
ONLY = {
    3902: {"style": ("white",)},
    3903: {"tilt": ("30-35",)},
    3904: {"style": ("white",), "background": ("light_wood",), "camera": ("webcam",), "tilt": ("20-30", "30-35")},
    3924: {"style": ("white",), "background": ("light_wood",), "camera": ("webcam",), "tilt": ("20-30", "30-35")},
    3944: {"style": ("white",), "background": ("light_wood",), "camera": ("webcam",), "tilt": ("20-30", "30-35")},
}


def _read(set_seed: int, index: int, learned: LearnedParams) -> tuple[DiceReading, list[LabelledDie], list[bool]]:
    """The scene read beside its empty tray in its tapped corners; its dice, and which touch another."""
    reading, labels = read_beside_its_tray(set_seed, index, ONLY[set_seed], PARAMS, learned)
    return reading, [LabelledDie(d.box, d.value, None) for d in labels.dice], [d.touches_other_die for d in labels.dice]


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
    missed = [i for i, outcome in enumerate(outcomes(before, dice)) if outcome == MISSED]
    assert len(missed) == 1 and touching[missed[0]] == touches
    assert outcomes(after, dice) == [RIGHT] * len(dice)
    assert _sure_readings_of_no_die_of_their_own(after, dice) == 0


@pytest.mark.parametrize("index", [0, 2, 12, 66])
def test_a_side_face_given_a_second_chance_is_left_out(index: int) -> None:
    """White dice under a webcam tilted 31-33 degrees: without the rule a die's side face, found
    beside it or read again, is stated as a die of its own, surely; with it, not, and every die
    reads as before. (Scene 5 was one until the classifiers went to 8 bits: they read its side
    face short of sure.)"""
    kept, dice, _ = _read(3904, index, NO_SIDE_FACES)
    left_out, _, _ = _read(3904, index, LEARNED)
    assert _sure_readings_of_no_die_of_their_own(kept, dice) == 1
    assert _sure_readings_of_no_die_of_their_own(left_out, dice) == 0
    assert outcomes(left_out, dice) == outcomes(kept, dice)
    assert RIGHT in outcomes(left_out, dice)


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


def _maybe_scene() -> tuple[list[DieCandidate], np.ndarray, TrayDifference]:
    """Candidates on a 400x300 picture of 20 px dice, their P(not a die) and the empty-tray mask."""
    changed = np.zeros((150, 200), np.uint8)  # half size
    for cx, cy in ((50, 50), (100, 50), (150, 50), (50, 60), (57, 57)):
        changed[cy - 5:cy + 5, cx - 5:cx + 5] = 1  # die-sized patches (20 px)
    found = [DieCandidate(100.0, 100.0, 20.0, 0.9),  # a die kept
             DieCandidate(200.0, 100.0, 20.0, 0.8),  # doubted, on a patch: maybe a die
             DieCandidate(206.0, 100.0, 20.0, 0.7),  # the same patch again
             DieCandidate(300.0, 100.0, 20.0, 0.8),  # on a patch, but the classifier all but rules it out
             DieCandidate(300.0, 250.0, 20.0, 0.8),  # doubted, where nothing changed
             DieCandidate(100.0, 121.0, 20.0, 0.8),  # on a patch, where the kept die's side face lies
             DieCandidate(114.8, 114.8, 20.0, 0.8)]  # the same, 45 degrees off the line towards the camera
    not_a_die = np.array([0.1, 0.6, 0.65, 0.9, 0.5, 0.6, 0.6])
    probabilities = np.column_stack([not_a_die, np.tile((1.0 - not_a_die)[:, None] / 6, 6)])
    return found, probabilities, TrayDifference(changed, 0.5)


def test_a_doubted_candidate_where_the_empty_tray_changed_is_reported_maybe_a_die() -> None:
    found, probabilities, tray = _maybe_scene()
    below = (100.0, 400.0)  # the camera's foot, below the picture: side faces lie downwards
    likeliest = [0, 4, 1, 5, 6, 2, 3]
    assert maybe_dice(found, probabilities, likeliest, [0], set(), tray, below, 20.0, PARAMS, LEARNED) == [1]
    assert maybe_dice(found, probabilities, likeliest, [0], {1}, tray, below, 20.0, PARAMS, LEARNED) == [2]
    narrow = dataclasses.replace(LEARNED, any_maybe_die_side_face_degrees=LEARNED.any_side_face_degrees)
    assert maybe_dice(found, probabilities, likeliest, [0], set(), tray, below, 20.0, PARAMS, narrow) == [1, 6]
    never = dataclasses.replace(LEARNED, any_maybe_die_min_probability=1.0)
    assert maybe_dice(found, probabilities, likeliest, [0], set(), tray, below, 20.0, PARAMS, never) == []


@pytest.mark.parametrize(("key", "value", "words"), [("any_maybe_die_min_probability", 1.5, "probability"),
                                                     ("any_maybe_die_side_face_degrees", 120.0, "0 to 90"),
                                                     ("any_maybe_die_clearance", -1.0, "must not be negative")])
def test_maybe_die_settings_out_of_range_are_named(key: str, value: float, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        LearnedParams.from_table({**dataclasses.asdict(LEARNED), key: value})


def test_blurred_dice_on_a_dark_table_are_asked_about_not_left_out() -> None:
    """A fresh white-webcam scene: the detector and the empty tray see six dice, the classifier
    takes four of them, blurred on dark wood, for half a die (P 0.29-0.48)."""
    before, dice, _ = _read(3944, 56, dataclasses.replace(LEARNED, any_maybe_die_min_probability=1.0))
    after, _, _ = _read(3944, 56, LEARNED)
    first = outcomes(before, dice)
    assert first.count(MISSED) == 4
    now = outcomes(after, dice)
    assert now.count(MISSED) == 0 and now.count(RIGHT) == first.count(RIGHT)
    asked = [d for d in after.dice if d.reason is UnsureReason.MAYBE_NOT_A_DIE]
    assert len(asked) == 4 and all(d.value is None for d in asked)


def test_a_kept_die_nearer_another_than_a_die_can_lie_on_its_side_face_line_is_that_side_face() -> None:
    die = DieCandidate(100.0, 100.0, 20.0, 0.9)
    below = (100.0, 400.0)  # the camera's foot: side faces lie downwards in the picture
    found = [die,
             DieCandidate(100.0, 114.0, 20.0, 0.8),  # 0.7 sides towards the camera's foot: the side face
             DieCandidate(100.0, 120.0, 20.0, 0.8),  # a side away: a touching die
             DieCandidate(114.0, 100.0, 20.0, 0.8),  # 0.7 sides, across the line
             DieCandidate(100.0, 86.0, 20.0, 0.8)]  # 0.7 sides away from the foot: the first is its side face
    expected = {1: [0], 2: [0, 2], 3: [0, 3], 4: [4]}
    for other, left in expected.items():
        assert off_the_side_faces(found, [0, other], below, 20.0, LEARNED) == left
    never = dataclasses.replace(LEARNED, any_side_face_closer=0.0)
    assert off_the_side_faces(found, [0, 1], below, 20.0, never) == [0, 1]


@pytest.mark.parametrize(("set_seed", "index"), [(3924, 62), (3903, 83), (3902, 100)])
def test_a_side_face_read_surely_at_first_is_left_out(set_seed: int, index: int) -> None:
    """A die's side face, read at first as a die of its own, surely: 0.5-0.9 sides from the die's
    top face towards the camera's foot, nearer than two flat dice can lie."""
    kept, dice, _ = _read(set_seed, index, NO_SIDE_FACES)
    left_out, _, _ = _read(set_seed, index, LEARNED)
    assert _sure_readings_of_no_die_of_their_own(kept, dice) >= 1
    assert _sure_readings_of_no_die_of_their_own(left_out, dice) == 0
    assert outcomes(left_out, dice) == outcomes(kept, dice)

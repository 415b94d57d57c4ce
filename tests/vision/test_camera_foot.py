"""Without the tray's corners, the point below a tilted camera is sought where the fewest dice
look cocked from (vision.learned.camera_foot), not taken at the picture's centre (issue 39)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.learned import camera_foot, read_with_model
from vision.learned_models import LearnedModels
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from tests.vision.test_large_dice import WEBCAM
from tools.synth import SceneOptions, render_scene
from vision.types import UnsureReason

PARAMS = load_vision_params()
LEARNED = load_learned_params()
FROM_THE_CENTRE = dataclasses.replace(LEARNED, lean_tilt_share=0.0)
# Flat dice seen by a camera tilted 30 degrees, aimed at the tray.
TILTED = SceneOptions(width=1600, height=900, die_px=46.0, table="grey_card", tint="neutral", dim=False, cubes=0,
                      cards=0, hard_light=False, blur_sigma=0.5, tilt_deg=30.0, aim_at_tray=True, touching=False,
                      cocked=False, glare=False)
# One die leaning on the tray wall, the camera looking straight down.
STRAIGHT_DOWN_COCKED = dataclasses.replace(TILTED, tilt_deg=0.0, aim_at_tray=False, cocked=True)


@pytest.fixture(scope="module")
def models() -> LearnedModels:
    return LearnedModels.load(LEARNED)


def _taken_for_leaning(frame: np.ndarray, models: LearnedModels, learned: object) -> int:
    reading = read_with_model(frame, PARAMS, "macao", None, models, learned)  # type: ignore[arg-type]
    return sum(d.reason == UnsureReason.LEANING for d in reading.dice)


@pytest.mark.parametrize("seed", [4, 9])
def test_flat_dice_under_a_tilted_camera_are_not_all_taken_for_leaning(models: LearnedModels, seed: int) -> None:
    """Seen from the picture's centre, every flat die shows a side face outward, as a leaning
    one does; seen from the point beyond the picture's edge that the dice point to, fewer do.
    (Seeds 4 and 9: all six taken for leaning from the centre by the check trained on tilted
    views, 2026-12-05; seed 3, this test's scene before, now only four.)"""
    frame, labels = render_scene(seed, TILTED)
    assert not any(d.cocked for d in labels.dice)
    from_the_centre = _taken_for_leaning(frame, models, FROM_THE_CENTRE)
    assert from_the_centre >= 5
    assert _taken_for_leaning(frame, models, LEARNED) <= from_the_centre - 2


@pytest.mark.parametrize("seed", [1, 2])
def test_a_straight_down_camera_keeps_the_centre_and_its_leaning_die(models: LearnedModels, seed: int) -> None:
    frame, labels = render_scene(seed, STRAIGHT_DOWN_COCKED)
    cocked = [d for d in labels.dice if d.cocked]
    centres = np.array([d.center for d in labels.dice], float)
    side = float(np.median([d.face_side for d in labels.dice if not d.cocked]))
    assert models.lean is not None
    foot, probabilities, _ = camera_foot(frame, models.lean, centres, side, LEARNED)
    assert foot == (frame.shape[1] / 2.0, frame.shape[0] / 2.0)
    leaning = [labels.dice[i] for i in np.flatnonzero(probabilities >= LEARNED.lean_min_probability)]
    assert leaning == cocked


def test_a_tilt_share_over_one_is_refused() -> None:
    table = {f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LEARNED)}
    with pytest.raises(ValueError, match="lean_tilt_share"):
        type(LEARNED).from_table({**table, "lean_tilt_share": 1.5})


def test_the_search_counts_dice_by_its_own_threshold_not_the_reported_one(models: LearnedModels) -> None:
    """White dice by a 640x480 webcam tilted 20 degrees (75 px dice, seed 18): from the centre a
    share of them look cocked at lean_tilt_min_probability, fewer at the higher threshold the
    check reports at. Counted at that threshold the search would not run and a flat die would be
    left taken for leaning; counted at its own, the search runs and none is. (Seed 2 showed it
    with the check trained before tilted views, seed 4 with the one trained on them; the check
    trained on every factor, 2026-12-06, leaves two of seed 4's either way. Seed 18 shows it with
    both. Over seeds 1-20, 120 flat dice, the two checks leave 4 and 5 taken for leaning.)"""
    frame, labels = render_scene(18, dataclasses.replace(WEBCAM, die_px=75.0))
    assert not any(d.cocked for d in labels.dice)
    assert LEARNED.lean_tilt_min_probability < LEARNED.lean_min_probability
    one_threshold = dataclasses.replace(LEARNED, lean_tilt_min_probability=LEARNED.lean_min_probability)
    reading = read_with_model(frame, PARAMS, "any", None, models, one_threshold)
    assert sum(d.reason == UnsureReason.LEANING for d in reading.dice) >= 1
    reading = read_with_model(frame, PARAMS, "any", None, models, LEARNED)
    assert sum(d.reason == UnsureReason.LEANING for d in reading.dice) == 0


def test_a_tilt_threshold_over_one_is_refused() -> None:
    table = {f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LEARNED)}
    with pytest.raises(ValueError, match="lean_tilt_min_probability"):
        type(LEARNED).from_table({**table, "lean_tilt_min_probability": 1.5})

"""The reader on synthetic scenes of each hard case: it may miss a die or call it unsure,
but it must never give a confident wrong value (or colour) for any of them.
Both read paths are held to this: the classical reader and the learned models."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np
import pytest

from tests.vision.scene_checks import mistakes_in
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import VisionParams, load_vision_params
from vision.reader import read_dice
from vision.settle import SettleDetector, SettleParams, one_die_per_colour, still_picture
from tools.synth import SceneLabels, SceneOptions, render_roll_sequence, render_scene

# Everything not under test is calm: neutral light, grey card, no cubes, no glare, a little blur.
CALM = dict(
    width=1600, height=900, die_px=46.0, table="grey_card", tint="neutral", dim=False, cubes=0,
    cubes_near_dice=False, touching=False, cocked=False, glare=False, hard_light=False, blur_sigma=0.5, tilt_deg=0.0,
    cards=0,
)
HARD_CASES: dict[str, dict[str, object]] = {
    "calm": {},
    "touching dice": {"touching": True},
    "cubes of the same colours beside the dice": {"cubes": 14, "cubes_near_dice": True},
    "glare spot on a face": {"glare": True},
    "hard shadows": {"hard_light": True},
    "warm light": {"tint": "warm", "table": "wood"},
    "cool light": {"tint": "cool"},
    "slight blur": {"blur_sigma": 1.3},
    "cocked die": {"cocked": True},
    "die leaning on another die": {"cocked": True, "cocked_on_a_die": True},
    "die leaning on a cube": {"cocked": True, "cocked_on_a_cube": True},
    "dim and noisy": {"dim": True},
    "small dice": {"die_px": 30.0},
    "tilted camera": {"tilt_deg": 6.0},
    "game cards on the table": {"cards": 2},
}
SEEDS = (1, 2, 3, 4)
PATHS = ("classical", "learned")


@lru_cache(maxsize=1)
def params() -> VisionParams:
    return load_vision_params()


def learned_table(path: str) -> LearnedParams:
    """[vision.learned] with the learned models switched on or off."""
    return dataclasses.replace(load_learned_params(), enabled=path == "learned")


def confident_mistakes(frame: np.ndarray, labels: SceneLabels, path: str) -> list[str]:
    """Every die the reader states with confidence that is not what the scene shows."""
    return mistakes_in(read_dice(frame, params(), expect="macao", learned=learned_table(path)), labels)


@pytest.mark.parametrize(("path", "case"), [(path, case) for path in PATHS for case in HARD_CASES])
def test_no_confident_wrong_reading(path: str, case: str) -> None:
    options = SceneOptions(**(CALM | HARD_CASES[case]))
    found = []
    for seed in SEEDS:
        frame, labels = render_scene(seed, options)
        found += [f"seed {seed}: {m}" for m in confident_mistakes(frame, labels, path)]
    assert not found, f"{path} path, {case}: " + "; ".join(found)


def test_roll_read_after_settling_has_no_confident_mistake() -> None:
    """The whole flow on a rendered roll: wait for still, take the still frames, read their mean."""
    settle = SettleParams.from_config_file()
    options = SceneOptions(**(CALM | {"cubes": 6, "touching": True}))
    sequence = render_roll_sequence(4, n_frames=16, options=options)
    detector = SettleDetector(settle)
    still = []
    for t, frame, moving in zip(sequence.timestamps_s, sequence.frames, sequence.moving):
        if detector.update(t, frame).still:
            assert not moving
            still.append(frame)
        if len(still) == settle.still_frames:
            break
    assert len(still) == settle.still_frames, "the roll never settled"
    reading = one_die_per_colour(read_dice(still_picture(still), params(), expect="macao"))
    assert reading.dice, reading.message
    assert not mistakes_in(reading, sequence.labels)

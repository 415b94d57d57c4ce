"""A drawn table's kept rolls and the reader's refit learnt from them, made once for the suite
(tests/conftest.py `learnt_table`, and `learnt_tables` with the Marco Polo II rolls and their
any-mode refit beside): the app's tests of applying, running and dropping a refit."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from app.reader_adaptation import ReaderAdaptation
from vision.calibrate import Calibration
from vision.colour import LEARNED_MEASURE, default_models_for
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice
from tools.synth import SceneOptions, render_dice_set, render_scene
from vision.table_rolls import keep_roll

# A table under dim, warm light: the shipped colours name the blue and black dice of the last
# held-out roll (roll 12) each other's colours, stated sure; the refit reads them right. (Seed 77,
# used until 2026-12-05: the models shipped since read its rolls better than any refit; of seeds
# 77-110, only 96 and 97 gave a refit that reads the held-out rolls better.)
SEED, THROWS, LAST_HELD_OUT = 96, 12, "roll-000012.jpg"
TRUTH_OF_LAST = {"red": 4, "blue": 6, "green": 4, "black": 1, "gray": 3, "violet": 3}
# Twelve rolls hold 54 teaching dice, fewer than the app asks for: the tests ask for 30.
MIN_DICE = 30


def keep_rolls(data: Path) -> Path:
    """The table's twelve rolls kept in data/table-rolls as the app keeps confirmed rolls."""
    params, learned = load_vision_params(), load_learned_params()
    rolls = data / "table-rolls"
    for throw in range(THROWS):
        frame, labels = render_scene(SEED, SceneOptions(width=960, height=540, die_px=34, layout_seed=throw,
                                                        tint="warm", dim=True))
        truth = {d.colour: d.value for d in labels.dice if d.value is not None}
        keep_roll(rolls, frame, read_dice(frame, params, "macao", learned=learned), truth, limit=300)
    return rolls


def learn(data: Path) -> None:
    """The refit of data/table-rolls written beside them, as the app's Settings would; it must
    read the held-out rolls better."""
    result = ReaderAdaptation(data / "calibration.json", load_vision_params(), load_learned_params(),
                              min_dice=MIN_DICE).learn(None)
    assert result.better, (result.before, result.after)


# Marco Polo II's dice (two of each player's colour, the black and the white die) under dim,
# warm light, small and blurred, read in `any` mode with the set's built-in colours and kept
# as the app keeps them (table-rolls-any/). The shipped any-mode threshold (0.7) reads all 24
# held-out dice right, so nothing is learnt with it; a table whose threshold is too strict
# (0.99: 9 of the 24 unsure) is what the refit mends, to 0.92 and all 24 right.
ANY_SEED, ANY_COLOURS = 1, ("red", "blue", "yellow", "black", "white")
ANY_DICE = ("red", "red", "blue", "blue", "yellow", "yellow", "black", "white")
TOO_STRICT = 0.99
ANY_SCENE = SceneOptions(width=960, height=540, die_px=26, tint="warm", dim=True, blur_sigma=1.6)


def any_roll(throw: int) -> tuple[np.ndarray, dict[str, list[int]]]:
    """One throw of the table's Marco Polo II dice: the frame and the values of each colour."""
    rng = np.random.default_rng([ANY_SEED, throw])
    frame, labels = render_dice_set(ANY_SEED, [(colour, int(rng.integers(1, 7))) for colour in ANY_DICE],
                                    replace(ANY_SCENE, layout_seed=throw))
    truth: dict[str, list[int]] = {}
    for die in labels.dice:
        truth.setdefault(die.colour, []).append(int(die.value))
    return frame, truth


def too_strict(learned: LearnedParams) -> LearnedParams:
    return replace(learned, value_min_probability=TOO_STRICT)


def keep_any_rolls(data: Path) -> Path:
    """The table's twelve Marco Polo II rolls kept in data/table-rolls-any as the app keeps them."""
    params, learned = load_vision_params(), load_learned_params()
    colours = Calibration(default_models_for(ANY_COLOURS, params), LEARNED_MEASURE, ANY_COLOURS)
    rolls = data / "table-rolls-any"
    for throw in range(THROWS):
        frame, truth = any_roll(throw)
        keep_roll(rolls, frame, read_dice(frame, params, "any", colours, learned=learned), truth, limit=300)
    return rolls


def learn_any(data: Path) -> None:
    """The any-mode refit of data/table-rolls-any written beside them, from the too strict
    threshold; it must read the held-out rolls better."""
    result = ReaderAdaptation(data / "calibration.json", load_vision_params(), too_strict(load_learned_params()),
                              "any", min_dice=MIN_DICE).learn(None)
    assert result.better, (result.before, result.after)

"""Dice whose colours repeat (each player's dice in the player's colour): drawn sets, naming each
die by its nearest learnt colour (doubtful ones unsure), the camera check of a set, the proposal."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.config import load_config
from vision.calibrate import Calibration, CalibrationError, calibrate_set, load_calibration, save_calibration
from vision.colour import LEARNED_MEASURE, default_models_for, nearest_colours, set_colours
from vision.die import BodyColour, DieFace
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import read_dice
from vision.settle import one_die_per_colour
from tools.synth import SceneOptions, render_dice_set
from vision.types import DiceReading, DieReading, UnsureReason
from vision.unsure import die_reading

CONFIG = load_config(env={}, home=Path("/nonexistent"))
PARAMS = VisionParams.from_table(dict(CONFIG["vision"]))
LEARNED = LearnedParams.from_table(dict(CONFIG["vision.learned"]))
COLOURS = ("red", "green", "purple", "orange", "black", "white")
PLAIN = SceneOptions(die_px=40, table="wood", tint="neutral", dim=False, tilt_deg=1.0, cards=0)


def face(hue_deg: float, chroma: float, lightness: float = 120.0, polarity: str = "") -> DieFace:
    angle = np.radians(hue_deg)
    return DieFace((0, 0, 40, 40), 3, 0.95, "", polarity, np.zeros((0, 2)),
                   BodyColour(lightness, chroma * float(np.cos(angle)), chroma * float(np.sin(angle))), True)


def test_a_drawn_set_holds_the_dice_asked_for_and_the_seed_fixes_it() -> None:
    dice = [("red", 3), ("red", 5), ("red", 1), ("white", 6), ("purple", 2)]
    frame, labels = render_dice_set(7, dice, PLAIN)
    again, _ = render_dice_set(7, dice, PLAIN)
    assert sorted((d.colour, d.value) for d in labels.dice) == sorted(dice)
    assert np.array_equal(frame, again)
    assert not any(d.touches_other_die for d in labels.dice)


def test_each_die_takes_its_nearest_colour_and_colours_repeat() -> None:
    chosen, margins = nearest_colours(np.array([[0.1, 0.5], [0.2, 0.25], [0.9, 0.1]]))
    assert chosen == [0, 0, 1]
    assert margins == pytest.approx([0.4, 0.05, 0.8])
    assert nearest_colours(np.zeros((0, 2))) == ([], [])


def test_a_die_between_two_colours_is_unsure_with_a_doubtful_colour() -> None:
    models = default_models_for(("red", "orange", "white"), PARAMS)
    calibration = Calibration(models, LEARNED_MEASURE, ("red", "orange", "white"))
    between = (PARAMS.default_hue_red + PARAMS.default_hue_orange) / 2
    named, note = set_colours([face(PARAMS.default_hue_red, 60), face(between, 60), face(PARAMS.default_hue_red, 60),
                               face(0, 1, 230, "dark")], calibration, LEARNED_MEASURE, PARAMS, 0.2)
    assert note == ""
    assert [colour for colour, _ in named] == ["red", named[1][0], "red", "white"]
    assert [doubtful for _, doubtful in named] == [False, True, False, False]
    reading = die_reading(face(between, 60), named[1][0], "", named[1][1])
    assert reading.unsure and reading.value is None and reading.reason is UnsureReason.COLOUR_DOUBTFUL
    assert reading.colour_doubtful


def test_without_a_set_any_mode_names_no_colour_and_the_other_readers_set_is_not_used() -> None:
    assert set_colours([face(40, 60)], None, LEARNED_MEASURE, PARAMS, 0.2) == ([(None, False)], "")
    other = Calibration(default_models_for(("red", "blue"), PARAMS), "classical", ("red", "blue"))
    named, note = set_colours([face(PARAMS.default_hue_blue, 60)], other, LEARNED_MEASURE, PARAMS, 0.2)
    assert named == [("blue", False)] and "classical reader not used" in note


def test_a_colour_without_a_built_in_model_is_named() -> None:
    with pytest.raises(ValueError, match="'teal'"):
        default_models_for(("red", "teal"), PARAMS)


def test_a_learnt_set_is_stored_and_read_back_and_a_broken_file_is_refused(tmp_path: Path) -> None:
    learnt = Calibration(default_models_for(COLOURS, PARAMS), LEARNED_MEASURE, COLOURS)
    path = tmp_path / "set.json"
    save_calibration(learnt, path)
    assert load_calibration(path) == learnt
    broken = path.read_text().replace('"name": "orange"', '"name": "teal"')
    path.write_text(broken)
    with pytest.raises(CalibrationError, match="must name each of the colours red, green, purple, orange"):
        load_calibration(path)


def test_the_check_learns_the_tables_colours_and_the_reader_then_names_a_roll() -> None:
    """The real learned reader on drawn scenes: the check (one die of each colour), then a roll of
    four dice per player colour and the black and white dice, on the same table."""
    check, _ = render_dice_set(11, [(colour, 1 + i) for i, colour in enumerate(COLOURS)], PLAIN)
    learnt = calibrate_set(check, COLOURS, PARAMS, LEARNED)
    assert learnt.colours == COLOURS and learnt.measure == LEARNED_MEASURE
    assert learnt.models["white"].lightness > learnt.models["black"].lightness
    rng = np.random.default_rng(11)
    roll = [(colour, int(v)) for colour in COLOURS[:4] for v in rng.integers(1, 7, 4)] + [("black", 5), ("white", 1)]
    frame, labels = render_dice_set(11, roll, SceneOptions(**{**PLAIN.__dict__, "layout_seed": 3}))
    reading = read_dice(frame, PARAMS, expect="any", calibration=learnt, learned=LEARNED)
    read = sorted((d.colour, d.value) for d in reading.dice if not d.unsure)
    assert len(reading.dice) == len(roll)
    assert len(read) >= len(roll) - 1 and set(read) <= set(roll), reading.message  # sure ones all right


def test_the_check_says_how_many_dice_it_needs() -> None:
    check, _ = render_dice_set(12, [("red", 2), ("green", 4)], PLAIN)
    with pytest.raises(CalibrationError, match="one die of each of the 6 colours .* found 2"):
        calibrate_set(check, COLOURS, PARAMS, LEARNED)


def test_a_proposal_keeps_several_dice_of_a_colour_when_colours_repeat() -> None:
    reading = DiceReading((DieReading(10, 10, 20, 20, "red", 3, 0.9, False), DieReading(80, 10, 20, 20, "red", 5, 0.9, False)))
    assert [d.value for d in one_die_per_colour(reading, repeats=True).dice] == [3, 5]
    assert all(d.reason is UnsureReason.COLOUR_DOUBTFUL for d in one_die_per_colour(reading).dice)  # Macao: one per colour

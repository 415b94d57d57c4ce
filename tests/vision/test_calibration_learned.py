"""Colour calibration on the learned reader: measured as it reads, stored with its measure,
used only by the reader that measures alike; seeded synthetic tables."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.vision.scene_checks import colours_right
from vision.calibrate import Calibration, CalibrationError, calibrate, load_calibration, save_calibration
from vision.colour import CLASSICAL_MEASURE, LEARNED_MEASURE, ColourModel
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import LEARNED_PATH, read_classical, read_dice
from tools.synth import SceneOptions, render_scene
from vision.types import DIE_COLOURS

PARAMS = load_vision_params()
# Tables (seed, light) whose first throw has the six dice apart and each throw is read right
# by the defaults too, so "no worse" and "every colour right" can both be asked.
TABLES = [
    (3, SceneOptions(tint="warm", dim=True, touching=False, cocked=False, glare=False)),
    (5, SceneOptions(tint="cool", touching=False, cocked=False, glare=False)),
    (8, SceneOptions(tint="neutral", dim=True, touching=False, cocked=False, glare=False)),
]


@pytest.fixture(scope="module", params=TABLES, ids=[f"table{seed}-{opts.tint}{'-dim' * bool(opts.dim)}"
                                                     for seed, opts in TABLES])
def table(request: pytest.FixtureRequest) -> tuple[int, SceneOptions, Calibration]:
    """A table, its light, and the calibration made from its first throw."""
    seed, options = request.param
    frame, _ = render_scene(seed, replace(options, layout_seed=0))
    return seed, options, calibrate(frame, PARAMS)


def test_calibration_is_made_by_the_learned_measure_and_round_trips(
        table: tuple[int, SceneOptions, Calibration], tmp_path: Path) -> None:
    _, _, calibration = table
    assert calibration.measure == LEARNED_MEASURE
    assert set(calibration.models) == set(DIE_COLOURS)
    assert calibration.models["black"].lightness < calibration.models["gray"].lightness
    path = tmp_path / "calibration.json"
    save_calibration(calibration, path)
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["version"] == 2 and stored["measure"] == LEARNED_MEASURE
    loaded = load_calibration(path)
    assert loaded.measure == LEARNED_MEASURE and set(loaded.models) == set(DIE_COLOURS)
    for name in DIE_COLOURS:  # stored to two decimals
        assert loaded.models[name].lightness == pytest.approx(calibration.models[name].lightness, abs=0.01)
        assert loaded.models[name].pip_polarity == calibration.models[name].pip_polarity


@pytest.mark.parametrize("throw", [0, 1, 2])
def test_calibrated_reading_gets_every_colour_and_is_no_worse(
        table: tuple[int, SceneOptions, Calibration], throw: int) -> None:
    seed, options, calibration = table
    frame, labels = render_scene(seed, replace(options, layout_seed=throw))
    calibrated = read_dice(frame, PARAMS, calibration=calibration)
    plain = read_dice(frame, PARAMS)
    assert calibrated.message.startswith(LEARNED_PATH) and "not used" not in calibrated.message
    assert colours_right(calibrated, labels) == len(DIE_COLOURS), calibrated
    assert colours_right(calibrated, labels) >= colours_right(plain, labels)


def swapped(calibration: Calibration, measure: str) -> Calibration:
    """The calibration with red and blue's models exchanged: wrong wherever it is applied."""
    models = dict(calibration.models)
    models["red"], models["blue"] = (replace(models["blue"], name="red"), replace(models["red"], name="blue"))
    return Calibration(models=models, measure=measure)


def test_a_version_1_file_is_not_applied_on_the_learned_path(
        table: tuple[int, SceneOptions, Calibration], tmp_path: Path) -> None:
    seed, options, calibration = table
    wrong = swapped(calibration, LEARNED_MEASURE)
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"version": 1, "models": [wrong.models[n].to_json() for n in DIE_COLOURS]}),
                    encoding="utf-8")
    old = load_calibration(path)
    assert old.measure == CLASSICAL_MEASURE
    frame, labels = render_scene(seed, replace(options, layout_seed=1))
    # Applied, the swapped models would name red and blue wrongly: proof that the check matters.
    assert colours_right(read_dice(frame, PARAMS, calibration=wrong), labels) < len(DIE_COLOURS)
    reading = read_dice(frame, PARAMS, calibration=old)
    assert colours_right(reading, labels) == colours_right(read_dice(frame, PARAMS), labels)
    assert "calibration made by the classical reader not used" in reading.message


def test_a_learned_calibration_is_not_applied_on_the_classical_path(
        table: tuple[int, SceneOptions, Calibration]) -> None:
    seed, options, calibration = table
    frame, _ = render_scene(seed, replace(options, layout_seed=1))
    plain = read_classical(frame, PARAMS)
    reading = read_classical(frame, PARAMS, calibration=swapped(calibration, LEARNED_MEASURE))
    assert [d.colour for d in reading.dice] == [d.colour for d in plain.dice]
    assert "calibration made by the learned reader not used" in reading.message


def test_fewer_than_six_dice_is_refused_with_what_to_do() -> None:
    seed, options = TABLES[0]
    frame, labels = render_scene(seed, replace(options, layout_seed=0))
    table_colour = np.median(frame[:40, :40].reshape(-1, 3), axis=0)
    covered = frame.copy()
    for label in labels.dice[:2]:  # two dice hidden under the table's colour
        x0, y0, x1, y1 = (int(v) for v in label.box)
        covered[max(0, y0 - 4):y1 + 4, max(0, x0 - 4):x1 + 4] = table_colour
    with pytest.raises(CalibrationError, match="six dice.*found [0-5].*try again"):
        calibrate(covered, PARAMS)


def test_the_calibration_looks_only_in_the_configured_tray_region() -> None:
    seed, options = TABLES[0]
    frame, labels = render_scene(seed, replace(options, layout_seed=0))
    width = frame.shape[1]
    left_of = sorted(d.box[2] for d in labels.dice)[3] / width + 0.01  # just right of the 4th die
    assert calibrate(frame, replace(PARAMS, tray_width=1.0)).measure == LEARNED_MEASURE
    with pytest.raises(CalibrationError, match="found 4"):
        calibrate(frame, replace(PARAMS, tray_width=left_of))


def test_a_blank_frame_is_refused() -> None:
    with pytest.raises(CalibrationError, match="no contrast"):
        calibrate(np.full((720, 1280, 3), 90, np.uint8), PARAMS)


@pytest.mark.parametrize(("content", "words"), [
    ('{"version": 2, "models": []}', "malformed"),
    ('{"version": 2, "measure": "magic", "models": []}', "measure 'magic'"),
    ('{"version": 3, "measure": "learned", "models": []}', "version 3"),
])
def test_bad_version_2_files_say_what_is_wrong(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "cal.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CalibrationError, match=f"cal.json.*{words}"):
        load_calibration(path)


def test_an_old_file_loads_as_classical(tmp_path: Path) -> None:
    models = [ColourModel(name, 10.0 * i, 20.0, 50.0 + i, True, "light").to_json() for i, name in enumerate(DIE_COLOURS)]
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"version": 1, "models": models}), encoding="utf-8")
    loaded = load_calibration(path)
    assert loaded.measure == CLASSICAL_MEASURE and loaded.models["gray"].lightness == 50.0 + DIE_COLOURS.index("gray")


def test_the_built_in_colours_know_a_black_die_has_light_pips() -> None:
    """A dim warm table (found by searching seeded dim tables for readings calibration changed):
    the glossy black die's face reads pale, and without knowing that its pips are light the
    built-in colours swapped it with the gray die, which has dark pips here. Calibration fixed
    it then; the built-in polarity of the black die fixes it now, and calibration still reads it.
    (The models shipped since 2026-12-05 measure the two apart even without the polarity, here
    and in every other such scene of seeds 20-119; the price a dark-pipped face pays to be named
    black is checked in test_learned_colour.)"""
    options = SceneOptions(tint="warm", dim=True, touching=False, cocked=False, glare=False)
    frame, labels = render_scene(32, replace(options, layout_seed=1))
    one_scale = replace(load_learned_params(), detector_small_die=0.0)
    assert colours_right(read_dice(frame, PARAMS, learned=one_scale), labels) == len(DIE_COLOURS)
    assert colours_right(read_dice(frame, PARAMS), labels) == len(DIE_COLOURS)
    calibration = calibrate(render_scene(32, replace(options, layout_seed=0))[0], PARAMS)
    assert colours_right(read_dice(frame, PARAMS, calibration=calibration), labels) == len(DIE_COLOURS)

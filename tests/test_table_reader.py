"""The app's reader of a table's rolls (app.dice_station.TableReader) gives each reading the look
the last complete one of the same dice took: the camera and the dice stay the same from roll to
roll, and from one start of the app to the next until the camera is checked again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import app.dice_station
from app.dice_station import TableReader
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reference import save_reference
from vision.remembered_looks import RememberedLooks
from vision.types import DIE_COLOURS, DiceReading, DiceSpec, DieReading
from tools.synth import SceneOptions, render_scene, render_scene_and_empty_tray

TABLE = 9802  # as tests/vision/test_remembered_look.py


@pytest.fixture()
def reads_given(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What each reading is given (`read_dice`'s keywords), the real reader reading."""
    given: list[dict[str, Any]] = []
    read = app.dice_station.read_dice

    def spied(frame: np.ndarray, **kwargs: Any) -> DiceReading:
        given.append(kwargs)
        return read(frame, **kwargs)

    monkeypatch.setattr(app.dice_station, "read_dice", spied)
    return given


def _given(reads: list[dict[str, Any]], keyword: str) -> list[Any]:
    return [kwargs[keyword] for kwargs in reads]


def test_each_roll_is_given_the_look_of_the_last_complete_reading(reads_given: list[dict[str, Any]]) -> None:
    reader = TableReader(load_vision_params(), load_learned_params(), None)
    first = reader(render_scene(TABLE, SceneOptions(layout_seed=0))[0])
    assert first.complete and first.look_scale is not None
    second = reader(render_scene(TABLE, SceneOptions(layout_seed=1))[0])
    assert second.complete
    assert _given(reads_given, "look_scale") == [None, first.look_scale]


def test_a_reading_short_of_dice_leaves_the_remembered_look(reads_given: list[dict[str, Any]]) -> None:
    """A hand over the tray, a frame before the dice came to rest: the look that read the six
    dice stays remembered for the next frame."""
    reader = TableReader(load_vision_params(), load_learned_params(), None)
    remembered = reader(render_scene(TABLE, SceneOptions(layout_seed=0))[0]).look_scale
    empty = np.full((900, 1600, 3), (120, 140, 150), np.uint8)
    assert not reader(empty).complete
    reader(render_scene(TABLE, SceneOptions(layout_seed=2))[0])
    assert _given(reads_given, "look_scale") == [None, remembered, remembered]


def test_a_game_whose_colours_repeat_reads_at_its_remembered_look_until_other_dice_come(
        reads_given: list[dict[str, Any]]) -> None:
    """Any mode knows a look found all the dice from the game's count of them; another game's
    dice may lie at another size, so their look is learnt afresh."""
    reader = TableReader(load_vision_params(), load_learned_params(), None)
    reader.dice = repeating = DiceSpec(count=6, colours=DIE_COLOURS, repeats=True)
    assert repeating.reader_mode == "any"
    first = reader(render_scene(TABLE, SceneOptions(layout_seed=0))[0])
    assert first.complete_for(repeating) and first.look_scale is not None
    reader(render_scene(TABLE, SceneOptions(layout_seed=1))[0])
    reader.dice = repeating  # the same dice again: the look stays
    reader(render_scene(TABLE, SceneOptions(layout_seed=2))[0])
    reader.dice = DiceSpec()  # Macao's six dice
    reader(render_scene(TABLE, SceneOptions(layout_seed=3))[0])
    assert _given(reads_given, "look_scale") == [None, first.look_scale, first.look_scale, None]
    assert _given(reads_given, "dice_count") == [6, 6, 6, 6]


def test_the_first_roll_after_a_restart_reads_at_the_look_of_the_run_before(
        tmp_path: Path, reads_given: list[dict[str, Any]]) -> None:
    looks = tmp_path / "reader-looks.json"
    before = TableReader(load_vision_params(), load_learned_params(), None, looks_path=looks)
    first = before(render_scene(TABLE, SceneOptions(layout_seed=0))[0])
    assert first.complete and first.look_scale is not None
    after = TableReader(load_vision_params(), load_learned_params(), None, looks_path=looks)
    assert after(render_scene(TABLE, SceneOptions(layout_seed=1))[0]).complete
    assert _given(reads_given, "look_scale") == [None, first.look_scale]


def test_the_camera_check_forgets_the_looks_of_before(tmp_path: Path, reads_given: list[dict[str, Any]]) -> None:
    """A new picture of the empty tray comes from the camera check: the camera may have moved."""
    looks = tmp_path / "reader-looks.json"
    reader = TableReader(load_vision_params(), load_learned_params(), None, looks_path=looks)
    assert reader(render_scene(TABLE, SceneOptions(layout_seed=0))[0]).complete
    assert reader.look_scale is not None
    reader.keep_reference(np.full((900, 1600, 3), (120, 140, 150), np.uint8))
    assert RememberedLooks(looks).look_for(DiceSpec()) is None  # nor at the next start
    reader(render_scene(TABLE, SceneOptions(layout_seed=1))[0])
    assert _given(reads_given, "look_scale") == [None, None]


def _moved(frame: np.ndarray, across: float) -> np.ndarray:
    """The frame as a camera moved sideways by `across` of the picture's width would see it."""
    shift = np.float32([[1, 0, across * frame.shape[1]], [0, 1, 0]])
    return cv2.warpAffine(frame, shift, (frame.shape[1], frame.shape[0]), borderMode=cv2.BORDER_REPLICATE)


def test_a_look_of_a_run_before_is_kept_while_the_stored_empty_tray_still_matches_the_view(
        tmp_path: Path, reads_given: list[dict[str, Any]]) -> None:
    """The camera may have been packed away and set up again since: the first frame of a run
    that no longer matches the stored empty tray (moved by 8 % of the picture) forgets the look
    of before; one from where the camera stood keeps it."""
    frame, _labels, empty = render_scene_and_empty_tray(TABLE, SceneOptions(layout_seed=0))
    reference, looks = tmp_path / "empty-tray.png", tmp_path / "reader-looks.json"
    save_reference(empty, reference)

    def start() -> TableReader:
        return TableReader(load_vision_params(), load_learned_params(), None, reference, looks)

    remembered = start()(frame).look_scale
    assert remembered is not None
    steady = start()
    steady(render_scene_and_empty_tray(TABLE, SceneOptions(layout_seed=1))[0])
    assert _given(reads_given, "look_scale")[-1] == remembered
    moved = start()
    reading = moved(_moved(render_scene_and_empty_tray(TABLE, SceneOptions(layout_seed=2))[0], 0.08))
    assert _given(reads_given, "look_scale")[-1] is None
    # on disk: the look this reading found, if it read all six, not the one of before
    assert RememberedLooks(looks).look_for(DiceSpec()) == (reading.look_scale if reading.complete else None)


def test_each_game_s_dice_keep_their_own_look(reads_given: list[dict[str, Any]]) -> None:
    """Back to Macao's dice after a game of others: their look was kept."""
    reader = TableReader(load_vision_params(), load_learned_params(), None)
    six = reader(render_scene(TABLE, SceneOptions(layout_seed=0))[0])
    assert six.complete
    reader.dice = DiceSpec(count=6, colours=DIE_COLOURS, repeats=True)
    reader(render_scene(TABLE, SceneOptions(layout_seed=1))[0])
    reader.dice = DiceSpec()
    reader(render_scene(TABLE, SceneOptions(layout_seed=2))[0])
    assert _given(reads_given, "look_scale") == [None, None, six.look_scale]


def test_a_reading_is_complete_for_a_game_when_it_holds_all_its_dice_each_read_sure() -> None:
    def die(value: int | None) -> DieReading:
        return DieReading(0, 0, 10, 10, None, value, 0.9, unsure=value is None)
    three = DiceSpec(count=3, colours=("red", "red", "red"), repeats=True)
    assert DiceReading(dice=(die(1), die(2), die(2))).complete_for(three)
    assert not DiceReading(dice=(die(1), die(2))).complete_for(three)  # one missing
    assert not DiceReading(dice=(die(1), die(2), die(None))).complete_for(three)  # one unsure
    assert not DiceReading(dice=(die(1), die(2), die(3), die(4))).complete_for(three)  # one too many

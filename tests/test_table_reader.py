"""The app's reader of a table's rolls (app.dice_station.TableReader) gives each reading the look
the last complete one took: the camera and the dice stay the same from roll to roll."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import app.dice_station
from app.dice_station import TableReader
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.types import DiceReading
from tools.synth import SceneOptions, render_scene

TABLE = 9802  # as tests/vision/test_remembered_look.py


@pytest.fixture()
def looks_given(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """The `look_scale` each reading is given, the real reader reading."""
    given: list[float | None] = []
    read = app.dice_station.read_dice

    def spied(frame: np.ndarray, **kwargs: Any) -> DiceReading:
        given.append(kwargs["look_scale"])
        return read(frame, **kwargs)

    monkeypatch.setattr(app.dice_station, "read_dice", spied)
    return given


def test_each_roll_is_given_the_look_of_the_last_complete_reading(looks_given: list[float | None]) -> None:
    reader = TableReader(load_vision_params(), load_learned_params(), None)
    first = reader(render_scene(TABLE, SceneOptions(layout_seed=0))[0])
    assert first.complete and first.look_scale is not None
    second = reader(render_scene(TABLE, SceneOptions(layout_seed=1))[0])
    assert second.complete
    assert looks_given == [None, first.look_scale]


def test_a_reading_short_of_dice_leaves_the_remembered_look(looks_given: list[float | None]) -> None:
    """A hand over the tray, a frame before the dice came to rest: the look that read the six
    dice stays remembered for the next frame."""
    reader = TableReader(load_vision_params(), load_learned_params(), None)
    remembered = reader(render_scene(TABLE, SceneOptions(layout_seed=0))[0]).look_scale
    empty = np.full((900, 1600, 3), (120, 140, 150), np.uint8)
    assert not reader(empty).complete
    reader(render_scene(TABLE, SceneOptions(layout_seed=2))[0])
    assert looks_given == [None, remembered, remembered]

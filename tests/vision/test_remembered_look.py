"""The look the last complete reading took, given back for the next roll at the same table
(`read_dice(look_scale=...)`, vision.looks.remembered_look): read there alone where it finds
the six dice (in any mode, the dice it is told lie there), with the same dice read as without
it; else the looks are judged as ever."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from vision.debug import DebugSink
from vision.learned_models import DiceDetector
from vision.params import load_vision_params
from vision.reader import read_dice
from vision.types import DiceReading
from tools.synth import SceneOptions, render_scene

PARAMS = load_vision_params()
# One table (camera, light, dice) and its throws; the camera sees the dice at 30-40 px in
# 1600x900, where the reader judges three looks.
TABLE = 9802


def _throw(throw: int) -> np.ndarray:
    return render_scene(TABLE, SceneOptions(layout_seed=throw))[0]


def _dice(reading: DiceReading) -> list[tuple[str | None, int | None, bool]]:
    return sorted((d.colour, d.value, d.unsure) for d in reading.dice)


def _placed_alike(one: DiceReading, other: DiceReading) -> bool:
    """Each die of `one` has a die of `other` within a fifth of its side: another look may put a
    centre a pixel or two elsewhere."""
    return all(min(np.hypot(d.x - e.x, d.y - e.y) for e in other.dice) < 0.2 * d.w for d in one.dice)


@contextmanager
def _looks_taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The long sides the detector is run at while the block reads."""
    asked: list[int] = []
    maps = DiceDetector.maps

    def counted(self: DiceDetector, image: np.ndarray, long_side: int, frame_long_side: int | None = None) -> object:
        asked.append(long_side)
        return maps(self, image, long_side, frame_long_side)

    with monkeypatch.context() as patch:
        patch.setattr(DiceDetector, "maps", counted)
        yield asked


@pytest.fixture(scope="module")
def first_roll() -> DiceReading:
    reading = read_dice(_throw(0), PARAMS, "macao")
    assert reading.complete and reading.look_scale is not None
    return reading


@pytest.mark.parametrize("throw", [1, 2, 3])
def test_the_next_roll_is_read_at_the_remembered_look_alone_and_alike(first_roll: DiceReading, throw: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    frame, remembered = _throw(throw), first_roll.look_scale
    assert remembered is not None
    with _looks_taken(monkeypatch) as cold_looks:
        cold = read_dice(frame, PARAMS, "macao")
    with _looks_taken(monkeypatch) as warm_looks:
        warm = read_dice(frame, PARAMS, "macao", look_scale=remembered)
    assert len(cold_looks) >= 3  # without it: the first look and two judged beside it
    assert warm_looks == [round(remembered * 1600)]
    assert warm.complete and _dice(warm) == _dice(cold) and _placed_alike(warm, cold)
    assert warm.look_scale == pytest.approx(remembered)


def test_the_debug_picture_says_the_look_was_remembered(first_roll: DiceReading) -> None:
    sink = DebugSink()
    read_dice(_throw(1), PARAMS, "macao", debug=sink, look_scale=first_roll.look_scale)
    heat = [name for name in sink.stages if name.startswith("detector heat")]
    assert len(heat) == 1 and "the look remembered" in heat[0]


def test_a_remembered_look_that_misses_dice_gives_way_to_the_judged_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a tenth of the frame (160 px) the dice are 3-4 px, no die reads as one: the looks are
    judged as without a remembered one, and the reading is the same."""
    frame = _throw(1)
    cold = read_dice(frame, PARAMS, "macao")
    with _looks_taken(monkeypatch) as looks:
        warm = read_dice(frame, PARAMS, "macao", look_scale=0.1)
    assert looks[0] == 160 and len(looks) >= 4
    assert _dice(warm) == _dice(cold) and warm.look_scale == pytest.approx(cold.look_scale)


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), 0.0, -0.5, 3.0])
def test_a_scale_no_look_can_have_is_read_as_no_memory(scale: float) -> None:
    """`read_dice` never raises on bad input: a look scale outside (0, 1] is left out."""
    frame = _throw(1)
    cold = read_dice(frame, PARAMS, "macao")
    warm = read_dice(frame, PARAMS, "macao", look_scale=scale)
    assert _dice(warm) == _dice(cold) and warm.look_scale == pytest.approx(cold.look_scale)


def test_any_mode_reads_the_remembered_look_alone_only_where_it_is_told_how_many_dice_lie(
        first_roll: DiceReading, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a count nothing tells that a look found all the dice: any mode then judges its
    looks whatever is remembered. Told how many lie (a game's dice), it reads the remembered
    look alone where it finds them, and reads them as without it."""
    frame, remembered = _throw(1), first_roll.look_scale
    assert remembered is not None
    cold = read_dice(frame, PARAMS, "any")
    with _looks_taken(monkeypatch) as blind_looks:
        blind = read_dice(frame, PARAMS, "any", look_scale=remembered)
    with _looks_taken(monkeypatch) as told_looks:
        told = read_dice(frame, PARAMS, "any", look_scale=remembered, dice_count=6)
    assert len(blind_looks) >= 3 and _dice(blind) == _dice(cold)
    assert told_looks == [round(remembered * 1600)]
    assert _dice(told) == _dice(cold) and _placed_alike(told, cold)
    assert cold.look_scale is not None and told.look_scale == pytest.approx(remembered)
    with _looks_taken(monkeypatch) as too_many_looks:  # seven told, six there: judged as without
        too_many = read_dice(frame, PARAMS, "any", look_scale=remembered, dice_count=7)
    assert len(too_many_looks) >= 3 and _dice(too_many) == _dice(cold)

"""A game's dice (DiceSpec) decide what the dice service accepts and how the reader reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.config import load_config
from app.dice_service import DiceService, InvalidDice, checked_dice
from app.dice_station import roll_timings
from app.games import all_games
from vision.settle import SettleDetector, SettleParams
from vision.types import DIE_COLOURS, DiceReading, DiceSpec, DieReading

THREE = DiceSpec(3, ("white", "black", "red"))


def test_the_six_colours_are_read_jointly_other_dice_one_by_one() -> None:
    assert DiceSpec().reader_mode == "macao" and DiceSpec().colours == DIE_COLOURS
    assert DiceSpec(6, tuple(reversed(DIE_COLOURS))).reader_mode == "macao"
    assert THREE.reader_mode == "any"
    assert DiceSpec(6, DIE_COLOURS, repeats=True).reader_mode == "any"


def test_each_registered_games_dice_make_a_spec() -> None:
    for game in all_games():
        if game.dice is not None:
            spec = DiceSpec(game.dice.count, game.dice.colours, game.dice.repeats)
            assert spec.count >= 1 and len(spec.colours) >= 1


def test_checked_dice_follow_the_spec() -> None:
    assert checked_dice({"white": 2, "black": 5, "red": 1}, THREE) == {"white": 2, "black": 5, "red": 1}
    with pytest.raises(InvalidDice, match="missing: red"):
        checked_dice({"white": 2, "black": 5}, THREE)
    with pytest.raises(InvalidDice, match="unknown: blue"):
        checked_dice({"white": 2, "black": 5, "red": 1, "blue": 3}, THREE)


def test_a_reading_gives_the_specs_colours() -> None:
    reading = DiceReading((DieReading(0, 0, 9, 9, "red", 4, 0.9, False), DieReading(9, 0, 9, 9, "blue", 2, 0.9, False)))
    assert reading.values_by_colour(THREE) == {"white": None, "black": None, "red": 4}
    assert reading.values_by_colour()["blue"] == 2  # the six colours by default


def test_the_service_accepts_the_games_dice_once_told() -> None:
    config = load_config(env={}, home=Path("/nonexistent"))
    params = SettleParams.from_table(config["vision.settle"])
    rolls: list[dict[str, Any]] = []
    service = DiceService(
        make_camera=lambda: None, reader=lambda frame: DiceReading(), new_settler=lambda: SettleDetector(params),
 timings=roll_timings(config), clock=lambda: 0.0,
        on_status=lambda status: None, on_roll=rolls.append)
    with pytest.raises(InvalidDice):
        service.confirm({"white": 2, "black": 5, "red": 1})  # the six colours until told otherwise
    service.dice = THREE
    service.confirm({"white": 2, "black": 5, "red": 1})
    assert rolls == [{"type": "roll", "dice": {"white": 2, "black": 5, "red": 1}}]

"""The dice service for a game whose colours repeat: the proposal grouped by colour, dice checked
against the game's colours, the proposal confirmed (as read or corrected) without a roll action."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.config import load_config
from app.dice_service import DiceService, DiceStatus, InvalidDice, RollState, checked_groups
from app.dice_station import roll_timings
from app.games import game
from app.games.base import DiceNeed
from hardware.camera import FolderCamera
from tests.test_dice_service import DT, MOTION, ManualClock, moving_frame, write_frames
from vision.settle import SettleDetector, SettleParams
from vision.types import DiceReading, DiceSpec, DieReading, UnsureReason

SET = DiceSpec(14, ("red", "blue", "black", "white"), repeats=True)
CONFIG = load_config(env={}, home=Path("/nonexistent"))


def die(x: int, colour: str, value: int | None, reason: UnsureReason | None = None) -> DieReading:
    return DieReading(x, 40, 16, 16, colour, value, 0.9 if value else 0.2, value is None, reason)


SURE = DiceReading((die(20, "red", 3), die(40, "blue", 6), die(60, "red", 1), die(80, "white", 2), die(100, "red", 5)))
UNSURE = DiceReading((die(20, "red", 3), die(40, "blue", None, UnsureReason.COLOUR_DOUBTFUL), die(60, "red", 4)))


class SetHarness:
    """A DiceService for SET over drawn frames; its reader returns `reading` for every still frame."""

    def __init__(self, tmp_path: Path, reading: DiceReading) -> None:
        self.clock = ManualClock()
        self.statuses: list[DiceStatus] = []
        self.rolls: list[dict[str, Any]] = []
        self.kept: list[tuple[Any, DiceReading, dict[str, list[int]], DiceSpec]] = []
        params = SettleParams.from_table(CONFIG["vision.settle"])
        folder = write_frames(tmp_path, [moving_frame(s) for s in range(4)] + [moving_frame(99)] * 20)
        self.service = DiceService(
            make_camera=lambda: FolderCamera(folder, MOTION, False), reader=lambda frame: reading,
            new_settler=lambda: SettleDetector(params),
            timings=roll_timings(CONFIG),
            clock=self.clock, on_status=self.statuses.append, on_roll=self.rolls.append, dice=SET,
            keep_roll=lambda *roll: self.kept.append(roll))

    def propose(self) -> DiceStatus:
        self.tick()
        self.service.roll()
        for _ in range(200):
            if self.tick() is RollState.PROPOSED:
                return self.service.status
        raise AssertionError(self.service.status.message)

    def tick(self) -> RollState:
        self.clock.now = round(self.clock.now + DT, 6)
        self.service.tick(self.clock.now)
        return self.service.state


def test_the_proposal_comes_grouped_by_colour_and_one_confirm_takes_it(tmp_path: Path) -> None:
    harness = SetHarness(tmp_path, SURE)
    status = harness.propose()
    assert status.message == "Check the dice and confirm"
    groups = status.proposed_groups
    assert {colour: [d.value for d in dice] for colour, dice in groups.items()} == {
        "red": [3, 1, 5], "blue": [6], "black": [], "white": [2]}
    assert harness.service.confirm_groups() == {"red": [3, 1, 5], "blue": [6], "black": [], "white": [2]}
    assert harness.service.state is RollState.CONFIRMED
    assert harness.rolls == []  # the game's own screen records the dice as its actions
    assert harness.kept == []  # kept on the ticking thread, not the UI's
    harness.tick()
    ((frame, reading, groups, spec),) = harness.kept
    assert spec == SET and frame.ndim == 3 and set(reading.dice) == set(SURE.dice)  # the proposal, read from its still frames
    assert groups == {"red": [3, 1, 5], "blue": [6], "black": [], "white": [2]}


def test_an_unsure_die_must_be_corrected_first(tmp_path: Path) -> None:
    harness = SetHarness(tmp_path, UNSURE)
    status = harness.propose()
    assert status.message == "Some dice are unclear: correct them, then confirm"
    with pytest.raises(InvalidDice, match="1 dice not read for sure"):
        harness.service.confirm_groups()
    assert harness.service.state is RollState.PROPOSED
    assert harness.service.confirm_groups({"red": [3, 4], "white": [6]})["white"] == [6]
    assert harness.service.state is RollState.CONFIRMED
    harness.tick()
    assert [(sorted((d.x, d.colour, d.value) for d in reading.dice), groups["red"], groups["white"])
            for _frame, reading, groups, _spec in harness.kept] == [
        ([(20, "red", 3), (40, "blue", None), (60, "red", 4)], [3, 4], [6])]  # as corrected, with the proposal


def test_dice_that_are_not_the_games_are_refused_plainly() -> None:
    assert checked_groups({"red": [1, 6]}, SET) == {"red": [1, 6], "blue": [], "black": [], "white": []}
    with pytest.raises(InvalidDice, match="unknown: green"):
        checked_groups({"green": [2]}, SET)
    with pytest.raises(InvalidDice, match="each red die needs 1 to 6 pips, not 7"):
        checked_groups({"red": [3, 7]}, SET)
    with pytest.raises(InvalidDice, match="each blue die needs 1 to 6 pips, not True"):
        checked_groups({"blue": [True]}, SET)
    with pytest.raises(InvalidDice, match="the red dice need a list of pips, not '33'"):
        checked_groups({"red": "33"}, SET)
    with pytest.raises(InvalidDice, match="15 dice, but the game rolls at most 14"):
        checked_groups({"red": [1] * 15}, SET)


def test_without_a_camera_dice_typed_in_are_still_taken() -> None:
    params = SettleParams.from_table(CONFIG["vision.settle"])
    service = DiceService(make_camera=lambda: None, reader=lambda frame: DiceReading(),
                          new_settler=lambda: SettleDetector(params),
                          timings=roll_timings(CONFIG), clock=lambda: 5.0, on_status=lambda status: None,
                          on_roll=lambda action: None, dice=SET)
    service.tick(5.0)
    assert service.state is RollState.CAMERA_UNAVAILABLE
    assert service.confirm_groups({"blue": [2, 2, 5]})["blue"] == [2, 2, 5]
    assert service.state is RollState.CAMERA_UNAVAILABLE  # its notice and retries stay


def test_marco_polo_narrows_its_dice_to_the_tables_colours() -> None:
    rules = game("marcopolo2")
    state = rules.new_state({"format": "marcopolo2-score/1", "players": [
        {"name": "Ann", "colour": "orange"}, {"name": "Ben", "colour": "red"}]})
    assert rules.dice_in_play(state) == DiceNeed(14, ("red", "orange", "black", "white"), repeats=True)
    macao = game("macao")
    assert macao.dice_in_play(None) == macao.dice  # a game that does not narrow keeps its dice

"""Windrose arithmetic and the late-round dice, checked against hand-counted piles.

Cubes of a die showing p pips go to sector p; once everyone has chosen, each
rose turns (sector k -> k-1) and sector 1 becomes the supply, so a die showing 1
is usable at once. From round 8 a die above 13 - round counts as 1. The
expected piles below were counted by hand from two_players.md (Ann: orange,
Ben: white).
"""

from __future__ import annotations

import pytest

from app.games.macao import GameState, apply_action
from tests.games.golden import after, before

TWO = "two_players"
COLOURS = ("red", "blue", "green", "black", "gray", "violet")


def after_dice(round_number: int) -> GameState:
    """Two players: the state once both have chosen dice in this round."""
    state = after(TWO, nth=2 * round_number - 1, type="choose_dice")
    assert state.round == round_number and state.phase == "actions"
    return state


def rose(state: GameState, colour: str) -> list[dict[str, int]]:
    return [dict(pile) for pile in state.player(colour).windrose]


E: dict[str, int] = {}  # an empty pile


@pytest.mark.parametrize(
    ("round_number", "colour", "expected"),
    [
        # set-up 1 red on sector 1 + red die 1 -> supply; set-up 2 blue + blue die 2 on sector 1
        (1, "orange", [{"red": 2}, {"blue": 4}, E, E, E, E, E]),
        (1, "white", [{"black": 2}, {"green": 4}, E, E, E, E, E]),
        # round 8: Ben's violet die shows 6 and brings 1 cube now, not 6 cubes later
        (8, "white", [{"green": 2, "violet": 1}, {"green": 2}, E, E, E, E, E]),
        (8, "orange", [{"blue": 2, "red": 1}, {"blue": 2}, E, E, E, E, E]),
        # round 9: violet 4 is not above 13 - 9 and stays 4 (due in round 12); gray 5 counts 1
        (9, "orange", [{"blue": 2, "red": 1}, E, E, {"violet": 4}, E, E, E]),
        (9, "white", [{"green": 2, "black": 1, "gray": 1}, E, E, E, E, E, E]),
        # round 10: Ben takes dice of 2 and 3 pips and has nothing now
        (10, "white", [E, {"green": 2}, {"violet": 3}, E, E, E, E]),
        (10, "orange", [{"red": 1, "gray": 1}, E, {"violet": 4}, E, E, E, E]),
        # round 11: gray 3 counts 1, green 2 stays 2
        (11, "orange", [{"gray": 1}, {"violet": 4, "green": 2}, E, E, E, E, E]),
        (11, "white", [{"green": 2, "black": 1}, {"violet": 3, "blue": 2}, E, E, E, E, E]),
        # round 12: every die is 1
        (12, "orange", [{"violet": 5, "green": 2, "blue": 1}, E, E, E, E, E, E]),
        (12, "white", [{"violet": 3, "blue": 2, "black": 1, "gray": 1}, E, E, E, E, E, E]),
    ],
)
def test_windrose_after_the_dice(round_number: int, colour: str, expected: list[dict[str, int]]) -> None:
    assert rose(after_dice(round_number), colour) == expected


def test_an_empty_supply_gives_a_punish_marker() -> None:
    before_turn = after(TWO, nth=18, type="choose_dice")  # round 10, Ann (after Ben) still to choose
    assert before_turn.phase == "choose_dice"
    assert before_turn.player("white").punish == 1  # the sixth card of round 8
    assert after_dice(10).player("white").punish == 2
    assert after_dice(10).player("orange").punish == 1  # the adjustment before round 9, no more


@pytest.mark.parametrize(
    ("round_number", "rolled", "counted"),
    [
        (7, (1, 2, 2, 1, 3, 4), (1, 2, 2, 1, 3, 4)),
        (8, (1, 2, 2, 1, 3, 6), (1, 2, 2, 1, 3, 1)),
        (9, (1, 2, 2, 1, 5, 4), (1, 2, 2, 1, 1, 4)),
        (10, (1, 2, 2, 1, 4, 3), (1, 2, 2, 1, 1, 3)),
        (11, (1, 2, 2, 1, 3, 5), (1, 2, 2, 1, 1, 1)),
        (12, (1, 2, 2, 3, 4, 5), (1, 1, 1, 1, 1, 1)),
    ],
)
def test_late_rounds_turn_high_dice_into_ones(
    round_number: int, rolled: tuple[int, ...], counted: tuple[int, ...]
) -> None:
    state = after_dice(round_number)
    assert state.rolled == dict(zip(COLOURS, rolled))
    assert state.dice == dict(zip(COLOURS, counted))


def test_a_wall_move_past_the_last_space_goes_under_the_stack() -> None:
    dan_arrives = after("three_players", type="wall", player="yellow", pay=["green", "green", "gray"])
    assert dan_arrives.wall[15] == ["yellow"]
    eve_passes = after("three_players", type="wall", player="brown", spaces=3)
    assert eve_passes.wall[13] == []
    assert eve_passes.wall[15] == ["yellow", "brown"]
    assert eve_passes.turn_order()[:2] == ["yellow", "brown"]


def test_landing_on_a_disc_goes_on_top() -> None:
    ivy_lands = after("four_players", type="wall", player="brown", spaces=2)
    assert ivy_lands.wall[2] == ["brown", "yellow"]
    ben_lands = after(TWO, type="wall", player="white")
    assert ben_lands.wall[1] == ["white", "orange"]


def test_reaching_the_last_space_exactly_also_goes_under() -> None:
    state = before("three_players", type="wall", player="brown", spaces=3)  # Eve on index 13
    assert state.wall_position("brown") == (13, 0) and state.wall[15] == ["yellow"]
    moved = apply_action(state, {"type": "wall", "player": "brown", "spaces": 2, "pay": ["green", "green", "gray"]})
    assert moved.wall[15] == ["yellow", "brown"]

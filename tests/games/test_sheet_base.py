"""The pieces every score sheet shares: counts, player lists and shared ranks."""

from __future__ import annotations

import pytest

from app.games.base import (
    SheetError,
    check_count,
    check_players,
    rank_scores,
    shared_ranks,
)


def test_equal_keys_share_a_place_and_the_next_place_is_skipped() -> None:
    assert shared_ranks([(5,), (7,), (5,), (1,)]) == [2, 1, 2, 4]
    assert shared_ranks([(5, 1), (5, 2), (5, 2)]) == [3, 1, 1]


def test_no_winner_when_first_place_is_shared() -> None:
    assert rank_scores("g", ["A", "B"], [3, 3], [{}, {}]).winner is None
    assert rank_scores("g", ["A", "B"], [3, 3], [{}, {}], [(1,), (0,)]).winner == "A"


@pytest.mark.parametrize("value", [True, 1.0, "3", None, -1, 1000])
def test_a_count_is_a_whole_number_from_0_to_999(value: object) -> None:
    with pytest.raises(SheetError) as caught:
        check_count(value, "x.y")
    assert caught.value.where == "x.y"


@pytest.mark.parametrize(
    ("players", "where", "words"),
    [
        ([{"name": "Ann"}], "players", "2 to 4 entries"),
        ([{"name": "Ann"}, "Ben"], "players[1]", "expected an object"),
        ([{"name": "Ann"}, {}], "players[1].name", "missing"),
        ([{"name": "Ann"}, {"name": 7}], "players[1].name", "expected text"),
        ([{"name": "Ann"}, {"name": " Ben"}], "players[1].name", "space"),
        ([{"name": "Ann"}, {"name": "A\u202en"}], "players[1].name", "direction"),
        ([{"name": "Ann"}, {"name": "ann"}], "players[1].name", "already"),
    ],
)
def test_player_lists_are_checked_with_the_path_of_the_bad_value(players: list[object], where: str,
                                                                  words: str) -> None:
    with pytest.raises(SheetError) as caught:
        check_players({"players": players}, 2, 4)
    assert caught.value.where == where
    assert words in str(caught.value.message)

"""The guild-columns sheet: worked examples, the ring, bad sheets and the actions that fill it in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games import guild_columns as columns
from app.games.base import SheetError
from tests.games.sheet_checks import (
    assert_game_reads_writes_and_scores,
    assert_game_refuses_without_changing,
    assert_game_waits_until_complete,
    assert_action_refused,
    assert_refused,
    assert_scores_as_expected,
    assert_unknown_fields_kept,
    golden_pairs,
)

HERE = Path(__file__).parent


def sheet_doc(name: str = "three_players") -> dict[str, Any]:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("sheet", "expected"), golden_pairs(HERE), ids=lambda p: p.stem)
def test_worked_examples_score_as_worked_out_by_hand(sheet: Path, expected: Path) -> None:
    assert_scores_as_expected(columns, sheet, expected)


def test_unknown_fields_are_written_back_unchanged() -> None:
    assert_unknown_fields_kept(columns, sheet_doc())


def test_a_shared_win_says_so() -> None:
    result = columns.score(columns.parse_sheet(sheet_doc("shared_win")))
    assert result.winner is None
    assert result.tie_break is not None and "Ann, Ben" in str(result.tie_break)


def test_the_ring_closes_from_the_last_player_back_to_the_first() -> None:
    # Cy's 2 equals Ben's 2 beside it, but the ring closes onto Ann's 3: it misses.
    assert columns.ring_flags([[3], [1, 2], [2]]) == [[True], [False, True], [False]]
    # Ann's first column is compared with Cy's last, not only with her own second.
    assert columns.ring_flags([[2, 1], [1], [3]]) == [[False, False], [False], [True]]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(1, 18), min_size=1, max_size=6), min_size=2, max_size=5), st.integers(0, 4))
def test_turning_the_table_changes_nobodys_score(rows: list[list[int]], turn: int) -> None:
    turn %= len(rows)
    flags = columns.ring_flags(rows)
    turned = columns.ring_flags(rows[turn:] + rows[:turn])
    assert turned == flags[turn:] + flags[:turn]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(1, 18), min_size=1, max_size=6), min_size=2, max_size=5))
def test_the_highest_column_always_scores_and_a_lower_neighbour_never_does(rows: list[list[int]]) -> None:
    ring = [h for row in rows for h in row]
    flags = [f for row in columns.ring_flags(rows) for f in row]
    assert any(f for h, f in zip(ring, flags) if h == max(ring))
    for i, scores in enumerate(flags):
        if scores:  # two neighbours in a ring cannot both be strictly higher than each other
            assert not flags[i - 1] or ring[i - 1] == ring[i]


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d.pop("format"), "format", "missing"),
        (lambda d: d.update(format="columns-score/2"), "format", "columns-score/1"),
        (lambda d: d.update(players=d["players"] * 2), "players", "2 to 5"),
        (lambda d: d["players"][1].update(columns=[]), "players[1].columns", "1 to 6"),
        (lambda d: d["players"][1].update(columns=[1, 2, 3, 4, 5, 6, 7]), "players[1].columns", "1 to 6"),
        (lambda d: d["players"][2].update(columns=[5, 0]), "players[2].columns[1]", "1 to 18"),
        (lambda d: d["players"][2].update(columns=[5, 19]), "players[2].columns[1]", "1 to 18"),
        (lambda d: d["players"][2].update(columns=[5, 2.5]), "players[2].columns[1]", "whole number"),
        (lambda d: d["players"][2].update(columns={"a": 1}), "players[2].columns", "a list"),
        (lambda d: d.update(players=[{"name": n, "columns": [18] * 6} for n in "ABC"]), "players", "only 108"),
    ],
    ids=["no-format", "other-format", "six-players", "no-columns", "seven-columns", "empty-column",
         "column-of-19", "half-card", "not-a-list", "more-than-the-deck"],
)
def test_bad_sheets_are_refused_with_the_path_of_the_value(change: Any, where: str, words: str) -> None:
    doc = sheet_doc()
    change(doc)
    assert_refused(columns, doc, where, words)


def test_filling_in_by_actions_gives_the_worked_example() -> None:
    doc = sheet_doc("four_players")
    sheet = columns.new_sheet([p["name"] for p in doc["players"]])
    assert columns.waiting_for(sheet) is not None
    for player in doc["players"]:
        sheet = columns.apply_action(sheet, {"type": "columns", "player": player["name"], "columns": [9]})
        sheet = columns.apply_action(sheet, {"type": "columns", "player": player["name"],
                                             "columns": player["columns"]})  # a correction
    assert columns.waiting_for(sheet) is None
    assert columns.progress(sheet) == {"entered": 4, "players": 4}
    assert columns.score(sheet).to_json() == json.loads((HERE / "four_players.expected.json").read_text())


def test_the_sheet_waits_for_each_player_in_turn_and_cannot_score_before() -> None:
    sheet = columns.new_sheet(["Ann", "Ben"])
    sheet = columns.apply_action(sheet, {"type": "columns", "player": "Ann", "columns": [2]})
    assert columns.missing_players(sheet) == ["Ben"]
    assert "Ben" in str(columns.waiting_for(sheet))
    with pytest.raises(SheetError) as caught:
        columns.score(sheet)
    assert caught.value.where == "players[1].columns"


@pytest.mark.parametrize(
    ("action", "where", "words"),
    [
        ("columns", "action", "an object"),
        ({"type": "gang", "player": "Ann", "columns": [1]}, "action.type", "unknown"),
        ({"type": "columns", "columns": [1]}, "action.player", "missing"),
        ({"type": "columns", "player": "Zed", "columns": [1]}, "action.player", "not a player"),
        ({"type": "columns", "player": "Ann"}, "action.columns", "missing"),
        ({"type": "columns", "player": "Ann", "columns": [1, 19]}, "action.columns[1]", "1 to 18"),
        ({"type": "columns", "player": "Ann", "columns": [18] * 6}, "action.columns", "only 108"),
    ],
    ids=["not-an-object", "unknown-type", "no-player", "unknown-player", "no-columns", "too-high", "past-the-deck"],
)
def test_bad_actions_are_refused_and_leave_the_sheet_as_it_was(action: Any, where: str, words: str) -> None:
    sheet = columns.parse_sheet({"format": "columns-score/1", "players": [
        {"name": "Ann"}, {"name": "Ben", "columns": [9] * 6}, {"name": "Cy", "columns": [9] * 6}]})
    assert_action_refused(columns, sheet, action, where, words)


def test_an_action_is_described_in_words() -> None:
    text = str(columns.describe_action({"type": "columns", "player": "Ann", "columns": [3, 1, 4]}))
    assert "Ann" in text and "3 1 4" in text


@pytest.mark.parametrize(("sheet", "expected"), golden_pairs(HERE), ids=lambda p: p.stem)
def test_the_game_interface_reads_writes_and_scores_each_worked_example(sheet: Path, expected: Path) -> None:
    assert_game_reads_writes_and_scores("guild_columns", sheet, expected)


def test_the_game_interface_refuses_a_bad_entry_with_a_message() -> None:
    assert_game_refuses_without_changing("guild_columns", HERE / "three_players.json",
                                         {"type": "columns", "player": "Ann", "columns": [19]})


def test_the_game_waits_for_each_entry_until_the_sheet_is_complete() -> None:
    assert_game_waits_until_complete("guild_columns", HERE / "three_players.json")

"""The Shadows of Macao sheet: worked examples, tie-breaks, bad sheets and the actions that fill it in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.games import shadows
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
    assert_scores_as_expected(shadows, sheet, expected)


def test_unknown_fields_are_written_back_unchanged() -> None:
    assert_unknown_fields_kept(shadows, sheet_doc())


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("three_players", None),
        ("tie_establishments", "Ann wins the tie-break"),
        ("tie_gang", "Ben wins the tie-break"),
        ("shared_win", "Ann, Ben are level"),
    ],
)
def test_the_tie_break_is_explained(name: str, words: str | None) -> None:
    tie_break = shadows.score(shadows.parse_sheet(sheet_doc(name))).tie_break
    assert (tie_break is None) if words is None else (words in str(tie_break))


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d.update(format="voyage-score/1"), "format", "shadows-score/1"),
        (lambda d: d.update(players=d["players"][:1]), "players", "2 to 7"),
        (lambda d: d.update(players=[{"name": f"P{i}"} for i in range(8)]), "players", "2 to 7"),
        (lambda d: d["players"][1].update(gang=[1] * 8), "players[1].gang", "0 to 7"),
        (lambda d: d["players"][1].update(gang=[1, -1]), "players[1].gang[1]", "0 to 999"),
        (lambda d: d["players"][0].update(establishments=[4] * 11), "players[0].establishments", "0 to 10"),
        (lambda d: d["players"][0].update(establishments=[4, "6"]), "players[0].establishments[1]", "whole number"),
        (lambda d: d["players"][2].update(establishments=None), "players[2].establishments", "a list"),
        (lambda d: d["players"][2].update(name="Ann"), "players[2].name", "already"),
    ],
    ids=["other-format", "one-player", "eight-players", "gang-of-eight", "negative-cash", "eleven-establishments",
         "text-value", "null-list", "same-name"],
)
def test_bad_sheets_are_refused_with_the_path_of_the_value(change: Any, where: str, words: str) -> None:
    doc = sheet_doc()
    change(doc)
    assert_refused(shadows, doc, where, words)


def test_filling_in_by_actions_gives_the_worked_example() -> None:
    doc = sheet_doc("tie_gang")
    sheet = shadows.new_sheet([p["name"] for p in doc["players"]])
    assert shadows.progress(sheet) == {"entered": 0, "parts": 6}
    for player in doc["players"]:
        for part in ("establishments", "gang"):
            sheet = shadows.apply_action(sheet, {"type": part, "player": player["name"], "values": player[part]})
    assert shadows.waiting_for(sheet) is None
    assert shadows.score(sheet).to_json() == json.loads((HERE / "tie_gang.expected.json").read_text())


def test_the_sheet_asks_for_gang_then_establishments_of_each_player() -> None:
    sheet = shadows.new_sheet(["Ann", "Ben"])
    assert "Ann's gang" in str(shadows.waiting_for(sheet))
    sheet = shadows.apply_action(sheet, {"type": "gang", "player": "Ann", "values": []})
    assert "establishment Ann" in str(shadows.waiting_for(sheet))
    assert shadows.missing_entries(sheet) == [("Ann", "establishments"), ("Ben", "gang"), ("Ben", "establishments")]
    with pytest.raises(SheetError) as caught:
        shadows.score(sheet)
    assert caught.value.where == "players[0].establishments"


def test_a_full_gang_reminds_the_table_to_finish_the_round() -> None:
    sheet = shadows.new_sheet(["Ann", "Ben"])
    sheet = shadows.apply_action(sheet, {"type": "gang", "player": "Ben", "values": [1] * 6})
    assert shadows.end_reminder(sheet) is None
    sheet = shadows.apply_action(sheet, {"type": "gang", "player": "Ben", "values": [1] * 7})
    assert "Ben" in str(shadows.end_reminder(sheet))


@pytest.mark.parametrize(
    ("action", "where", "words"),
    [
        ({"type": "cash", "player": "Ann", "values": []}, "action.type", "unknown"),
        ({"type": "gang", "player": "Zed", "values": []}, "action.player", "not a player"),
        ({"type": "gang", "player": "Ann"}, "action.values", "missing"),
        ({"type": "gang", "player": "Ann", "values": [2] * 8}, "action.values", "0 to 7"),
        ({"type": "establishments", "player": "Ann", "values": [2, 1000]}, "action.values[1]", "0 to 999"),
    ],
    ids=["unknown-type", "unknown-player", "no-values", "gang-of-eight", "too-much-cash"],
)
def test_bad_actions_are_refused_and_leave_the_sheet_as_it_was(action: Any, where: str, words: str) -> None:
    assert_action_refused(shadows, shadows.parse_sheet(sheet_doc()), action, where, words)


def test_an_action_is_described_in_words() -> None:
    assert "3 2 5" in str(shadows.describe_action({"type": "gang", "player": "Ann", "values": [3, 2, 5]}))
    assert "Ann" in str(shadows.describe_action({"type": "establishments", "player": "Ann", "values": []}))


@pytest.mark.parametrize(("sheet", "expected"), golden_pairs(HERE), ids=lambda p: p.stem)
def test_the_game_interface_reads_writes_and_scores_each_worked_example(sheet: Path, expected: Path) -> None:
    assert_game_reads_writes_and_scores("shadows", sheet, expected)


def test_the_game_interface_refuses_a_bad_entry_with_a_message() -> None:
    assert_game_refuses_without_changing("shadows", HERE / "three_players.json",
                                         {"type": "gang", "player": "Ann", "values": [1] * 8})


def test_the_game_waits_for_each_entry_until_the_sheet_is_complete() -> None:
    assert_game_waits_until_complete("shadows", HERE / "three_players.json")

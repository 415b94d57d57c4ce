"""The ship-voyage sheet: worked examples, chests, bad sheets and the actions that fill it in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games import voyage
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
    assert_scores_as_expected(voyage, sheet, expected)


def test_unknown_fields_are_written_back_unchanged_even_inside_a_voyage() -> None:
    doc = sheet_doc()
    doc["players"][1]["rounds"][0]["pirates"] = "fled"
    assert_unknown_fields_kept(voyage, doc)


def test_leftover_coins_carry_into_the_second_voyage() -> None:
    # 9 coins stay coins after the first voyage; 1 more on the second makes a chest.
    assert voyage.money([{"coins": 9, "goods_left": 0}, {"coins": 1, "goods_left": 0}]) == (1, 0)
    # Goods left become coins before the chests are counted.
    assert voyage.money([{"coins": 7, "goods_left": 3}]) == (1, 0)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 999), st.integers(0, 12)), min_size=2, max_size=2))
def test_chests_only_change_the_form_of_the_money(rounds: list[tuple[int, int]]) -> None:
    chests, coins = voyage.money([{"coins": c, "goods_left": g} for c, g in rounds])
    assert 10 * chests + coins == sum(c + g for c, g in rounds)
    assert 0 <= coins < 10


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d.update(format=None), "format", "voyage-score/1"),
        (lambda d: d.update(players=d["players"] + [{"name": "Dee"}, {"name": "Eve"}]), "players", "2 to 4"),
        (lambda d: d["players"][0].update(rounds=[{"coins": 1, "goods_left": 0}] * 3), "players[0].rounds", "0 to 2"),
        (lambda d: d["players"][0]["rounds"][1].pop("coins"), "players[0].rounds[1].coins", "missing"),
        (lambda d: d["players"][0]["rounds"][1].update(goods_left=13), "players[0].rounds[1].goods_left",
         "12 spaces"),
        (lambda d: d["players"][2]["rounds"][1].update(goods_left=10), "players[2].rounds[1].goods_left",
         "3 hold chests"),
        (lambda d: d["players"][1]["rounds"][0].update(coins=1.5), "players[1].rounds[0].coins", "whole number"),
        (lambda d: d["players"][1].update(rounds=[7]), "players[1].rounds[0]", "an object"),
    ],
    ids=["no-format", "five-players", "three-voyages", "no-coins", "goods-past-the-hold",
         "goods-where-chests-are", "half-coin", "not-a-voyage"],
)
def test_bad_sheets_are_refused_with_the_path_of_the_value(change: Any, where: str, words: str) -> None:
    doc = sheet_doc()
    change(doc)
    assert_refused(voyage, doc, where, words)


def test_filling_in_by_actions_gives_the_worked_example() -> None:
    doc = sheet_doc()
    sheet = voyage.new_sheet([p["name"] for p in doc["players"]])
    for number in (1, 2):
        for player in doc["players"]:
            assert player["name"] in str(voyage.waiting_for(sheet))
            entry = player["rounds"][number - 1]
            sheet = voyage.apply_action(sheet, {"type": "voyage", "player": player["name"], "round": number,
                                                "coins": entry["coins"], "goods_left": entry["goods_left"]})
    assert voyage.progress(sheet) == {"entered": 6, "voyages": 6}
    assert voyage.score(sheet).to_json() == json.loads((HERE / "three_players.expected.json").read_text())


def test_a_voyage_cannot_be_scored_before_both_are_in() -> None:
    sheet = voyage.new_sheet(["Ann", "Ben"])
    sheet = voyage.apply_action(sheet, {"type": "voyage", "player": "Ann", "round": 1, "coins": 4, "goods_left": 1})
    assert voyage.missing_entries(sheet) == [("Ben", 1), ("Ann", 2), ("Ben", 2)]
    with pytest.raises(SheetError) as caught:
        voyage.score(sheet)
    assert caught.value.where == "players[0].rounds"


def test_correcting_a_voyage_keeps_its_unknown_fields() -> None:
    doc = sheet_doc()
    doc["players"][0]["rounds"][0]["note"] = "storm"
    sheet = voyage.apply_action(voyage.parse_sheet(doc), {"type": "voyage", "player": "Ann", "round": 1,
                                                          "coins": 15, "goods_left": 3})
    assert sheet["players"][0]["rounds"][0] == {"coins": 15, "goods_left": 3, "note": "storm"}


@pytest.mark.parametrize(
    ("action", "where", "words"),
    [
        ({"type": "voyage", "player": "Ann", "round": 3, "coins": 1, "goods_left": 0}, "action.round", "1 to 2"),
        ({"type": "voyage", "player": "Ann", "round": 1, "goods_left": 0}, "action.coins", "missing"),
        ({"type": "voyage", "player": "Ann", "round": 1, "coins": 1, "goods_left": 13}, "action.goods_left",
         "12 spaces"),
        ({"type": "voyage", "player": "Cy", "round": 1, "coins": 100, "goods_left": 0}, "action.player",
         "not a player"),
    ],
    ids=["third-voyage", "no-coins", "goods-past-the-hold", "unknown-player"],
)
def test_bad_actions_are_refused_and_leave_the_sheet_as_it_was(action: Any, where: str, words: str) -> None:
    sheet = voyage.new_sheet(["Ann", "Ben"])
    assert_action_refused(voyage, sheet, action, where, words)


def test_the_second_voyage_comes_after_the_first() -> None:
    sheet = voyage.new_sheet(["Ann", "Ben"])
    assert_action_refused(voyage, sheet, {"type": "voyage", "player": "Ann", "round": 2, "coins": 1,
                                          "goods_left": 0}, "action.round", "first voyage of Ann")


def test_a_first_voyage_that_no_longer_leaves_room_for_the_seconds_goods_is_refused() -> None:
    sheet = voyage.parse_sheet(sheet_doc())
    # Ben left 2 goods on the second voyage; 110 coins on the first would put 11 chests in the hold.
    assert_action_refused(voyage, sheet, {"type": "voyage", "player": "Ben", "round": 1, "coins": 110,
                                          "goods_left": 0}, "players[1].rounds[1].goods_left", "11 hold chests")


@pytest.mark.parametrize(("sheet", "expected"), golden_pairs(HERE), ids=lambda p: p.stem)
def test_the_game_interface_reads_writes_and_scores_each_worked_example(sheet: Path, expected: Path) -> None:
    assert_game_reads_writes_and_scores("voyage", sheet, expected)


def test_the_game_interface_refuses_a_bad_entry_with_a_message() -> None:
    assert_game_refuses_without_changing("voyage", HERE / "three_players.json",
                                         {"type": "voyage", "player": "Ann", "round": 2, "coins": 1, "goods_left": 40})


def test_the_game_waits_for_each_entry_until_the_sheet_is_complete() -> None:
    assert_game_waits_until_complete("voyage", HERE / "three_players.json")

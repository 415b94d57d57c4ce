"""The Marco Polo II sheet: worked examples, compensation, the contracts award, rounds and end scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games import marcopolo2
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
END = {"vp_track": 60, "guild_seals_vp": 0, "shields_vp": 0, "goods": 0, "coins": 0, "contracts": 0, "camels": 0}


def sheet_doc(name: str = "three_players") -> dict[str, Any]:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("sheet", "expected"), golden_pairs(HERE), ids=lambda p: p.stem)
def test_worked_examples_score_as_worked_out_by_hand(sheet: Path, expected: Path) -> None:
    assert_scores_as_expected(marcopolo2, sheet, expected)


def test_unknown_fields_are_written_back_unchanged() -> None:
    assert_unknown_fields_kept(marcopolo2, sheet_doc())


@pytest.mark.parametrize(("dice", "owed"), [([3, 1, 2, 6, 2], 1), ([5, 5, 5], 0), ([6, 6, 3], 0), ([1], 14),
                                            ([4, 4, 4, 2], 1), ([6, 6, 6, 6, 6, 6], 0)])
def test_compensation_is_what_the_roll_falls_short_of_15(dice: list[int], owed: int) -> None:
    assert marcopolo2.compensation(dice) == owed


@pytest.mark.parametrize(
    ("contracts", "awards"),
    [
        ([6, 4, 4], [8, 4, 4]),  # one leader; everyone tied for second gets 4
        ([5, 5, 3, 0], [8, 8, 0, 0]),  # a shared lead takes the 8s and no 4 is given
        ([3, 3], [8, 8]),
        ([4, 2], [8, 0]),  # two players: no second award
        ([2, 0, 0], [8, 0, 0]),  # nobody with 0 contracts is second
        ([0, 0, 0], [0, 0, 0]),
        ([1, 7, 3, 2], [0, 8, 4, 0]),
    ],
)
def test_the_contracts_award(contracts: list[int], awards: list[int]) -> None:
    assert marcopolo2.contract_awards(contracts) == awards


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 12), min_size=2, max_size=4))
def test_more_contracts_never_earn_a_smaller_award(contracts: list[int]) -> None:
    awards = marcopolo2.contract_awards(contracts)
    for a, award_a in zip(contracts, awards):
        for b, award_b in zip(contracts, awards):
            if a > b:
                assert award_a >= award_b
            if a == b:
                assert award_a == award_b


def test_the_tie_break_is_explained() -> None:
    three = marcopolo2.score(marcopolo2.parse_sheet(sheet_doc())).tie_break
    assert "Cy wins with the most camels" in str(three)
    four = marcopolo2.score(marcopolo2.parse_sheet(sheet_doc("four_players"))).tie_break
    assert "Ann, Ben are level" in str(four)


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d.update(format="marcopolo2-score/2"), "format", "marcopolo2-score/1"),
        (lambda d: d["players"][0].pop("colour"), "players[0].colour", "missing"),
        (lambda d: d["players"][0].update(colour="black"), "players[0].colour", "belong to no player"),
        (lambda d: d["players"][0].update(colour="teal"), "players[0].colour", "a player colour"),
        (lambda d: d["players"][2].update(colour="red"), "players[2].colour", "already"),
        (lambda d: d["players"][1]["rolls"].append([1, 2]), "players[1].rolls", "0 to 5"),
        (lambda d: d["players"][1]["rolls"].__setitem__(2, []), "players[1].rolls[2]", "1 to 6"),
        (lambda d: d["players"][1]["rolls"][2].__setitem__(0, 7), "players[1].rolls[2][0]", "1 to 6"),
        (lambda d: d["players"][1]["rolls"][2].__setitem__(0, 0), "players[1].rolls[2][0]", "1 to 6"),
        (lambda d: d["players"][1]["rolls"].__setitem__(2, [1] * 7), "players[1].rolls[2]", "1 to 6"),
        (lambda d: d["players"][2].update(coins=-3), "players[2].coins", "0 to 999"),
        (lambda d: d["players"][2].update(camels="5"), "players[2].camels", "whole number"),
        (lambda d: d["players"][2].update(rolls=d["players"][2]["rolls"][:3]), "players", "rolled together"),
    ],
    ids=["other-format", "no-colour", "black", "unknown-colour", "same-colour", "six-rounds", "no-dice",
         "pip-7", "pip-0", "seven-dice", "negative-coins", "text-camels", "a-round-behind"],
)
def test_bad_sheets_are_refused_with_the_path_of_the_value(change: Any, where: str, words: str) -> None:
    doc = sheet_doc()
    change(doc)
    assert_refused(marcopolo2, doc, where, words)


def test_a_running_game_is_read_but_not_scored() -> None:
    sheet = marcopolo2.parse_sheet(sheet_doc("running"))
    assert marcopolo2.current_round(sheet) == 2
    assert "Round 2: the dice of Ben" in str(marcopolo2.waiting_for(sheet))
    with pytest.raises(SheetError) as caught:
        marcopolo2.score(sheet)
    assert caught.value.where == "players[0].vp_track"


def test_playing_the_rounds_by_actions_gives_the_worked_example() -> None:
    doc = sheet_doc()
    sheet = marcopolo2.new_sheet([(p["name"], p["colour"]) for p in doc["players"]])
    for number in range(1, 6):
        for player in doc["players"]:
            assert marcopolo2.waiting_for(sheet) is not None
            sheet = marcopolo2.apply_action(sheet, {"type": "round_dice", "player": player["name"], "round": number,
                                                    "dice": player["rolls"][number - 1]})
    assert marcopolo2.progress(sheet) == {"rounds_rolled": 5, "rounds": 5, "end_entered": 0}
    assert "end scoring of Ann" in str(marcopolo2.waiting_for(sheet))
    for player in doc["players"]:
        fields = {name: player[name] for name in marcopolo2.END_FIELDS}
        sheet = marcopolo2.apply_action(sheet, {"type": "end", "player": player["name"], **fields})
    assert marcopolo2.waiting_for(sheet) is None
    assert marcopolo2.score(sheet).to_json() == json.loads((HERE / "three_players.expected.json").read_text())


def test_end_values_can_be_entered_one_at_a_time() -> None:
    sheet = marcopolo2.parse_sheet(sheet_doc("running"))
    sheet = marcopolo2.apply_action(sheet, {"type": "end", "player": "Ann", "coins": 12})
    sheet = marcopolo2.apply_action(sheet, {"type": "end", "player": "Ann", "coins": 13, "camels": 2})
    assert (sheet["players"][0]["coins"], sheet["players"][0]["camels"]) == (13, 2)
    assert "vp_track" not in sheet["players"][0]


def test_an_earlier_round_can_be_corrected() -> None:
    sheet = marcopolo2.parse_sheet(sheet_doc("running"))
    sheet = marcopolo2.apply_action(sheet, {"type": "round_dice", "player": "Ben", "round": 1, "dice": [1, 1]})
    assert sheet["players"][1]["rolls"] == [[1, 1]]
    assert marcopolo2.current_round(sheet) == 2


@pytest.mark.parametrize(
    ("action", "where", "words"),
    [
        ({"type": "reroll", "player": "Ann"}, "action.type", "unknown"),
        ({"type": "round_dice", "player": "Ann", "round": 3, "dice": [6, 6, 6]}, "action.round", "round 2 come first"),
        ({"type": "round_dice", "player": "Ben", "round": 3, "dice": [6, 6, 6]}, "action.round", "round 2 come first"),
        ({"type": "round_dice", "player": "Ben", "round": 6, "dice": [6, 6, 6]}, "action.round", "1 to 5"),
        ({"type": "round_dice", "player": "Ben", "round": 2, "dice": [6, 6, 9]}, "action.dice[2]", "1 to 6"),
        ({"type": "round_dice", "player": "Ben", "round": 2}, "action.dice", "missing"),
        ({"type": "end", "player": "Ann", **{**END, "camels": None}}, "action.camels", "whole number"),
        ({"type": "end", "player": "Ann"}, "action", "at least one"),
    ],
    ids=["unknown-type", "a-round-ahead", "two-rounds-ahead", "sixth-round", "pip-9", "no-dice", "null-camels",
         "no-end-value"],
)
def test_bad_actions_are_refused_and_leave_the_sheet_as_it_was(action: Any, where: str, words: str) -> None:
    assert_action_refused(marcopolo2, marcopolo2.parse_sheet(sheet_doc("running")), action, where, words)


def test_an_action_is_described_in_words() -> None:
    roll = str(marcopolo2.describe_action({"type": "round_dice", "player": "Ann", "round": 2, "dice": [3, 1, 2]}))
    assert "Round 2" in roll and "Ann" in roll and "3 1 2" in roll
    assert "Ann" in str(marcopolo2.describe_action({"type": "end", "player": "Ann", **END}))


@pytest.mark.parametrize(("sheet", "expected"), golden_pairs(HERE), ids=lambda p: p.stem)
def test_the_game_interface_reads_writes_and_scores_each_worked_example(sheet: Path, expected: Path) -> None:
    assert_game_reads_writes_and_scores("marcopolo2", sheet, expected)


def test_the_game_interface_refuses_a_bad_entry_with_a_message() -> None:
    assert_game_refuses_without_changing("marcopolo2", HERE / "three_players.json",
                                         {"type": "round_dice", "player": "Ann", "round": 1, "dice": [7]})


def test_the_game_waits_for_each_entry_until_the_sheet_is_complete() -> None:
    assert_game_waits_until_complete("marcopolo2", HERE / "three_players.json")

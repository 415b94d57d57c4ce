"""Warnings, never refusals: tribute pairs outside the base game, a port's delivery scoring more than the last.

The spec allows both (promo and home-made cards; port values unknown without
board data); `python -m app check` names them so a table can look again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.games.macao import action_cautions, apply_action, load_record, record_cautions, replay, score
from tests.games.golden import RECORDS, before, record

TWO = "two_players"
FOUR = "four_players"


def higher_second_delivery() -> dict:
    """four_players with Hal's last silk going to Genoa, where Ivy's silk scored 5 earlier, for 8."""
    doc = record(FOUR).to_json()
    index = next(i for i, a in enumerate(doc["actions"]) if a.get("port") == "Rotterdam")
    sailed = max(i for i, a in enumerate(doc["actions"][:index]) if a["type"] == "ship" and a["player"] == "yellow")
    doc["actions"][index]["port"] = doc["actions"][sailed]["to"] = "Genoa"
    return doc


def test_the_golden_two_player_game_has_two_unusual_tribute_pairs() -> None:
    cautions = record_cautions(record(TWO))
    assert [(c.action_index, c.action_type) for c in cautions] == [(35, "reveal"), (63, "reveal")]
    assert str(cautions[0]).startswith("action 35 (reveal): Clerk shows tribute 0-2;")
    assert "Office 5B" in str(cautions[1])


def test_only_the_five_base_game_pairs_pass_without_a_word() -> None:
    state = before(TWO, type="reveal")
    cards = [{"name": f"C{g}{p}", "kind": "building", "cost": ["red"], "tribute": [g, p]}
             for g, p in ((0, 0), (0, 1), (1, 1), (1, 2))]
    offices = [{"name": "O22", "kind": "office", "cost": ["red"], "tribute": [2, 2]},
               {"name": "O10", "kind": "office", "cost": ["red"], "tribute": [1, 0]}]
    action = {"type": "reveal", "office": offices, "cards": cards}
    apply_action(state, action)  # allowed
    assert [str(m) for m in action_cautions(state, action)] == [
        "O10 shows tribute 1-0; the base game's cards show only 0-0, 0-1, 1-1, 1-2 or 2-2 "
        "(a promo or home-made card may differ)."]


def test_a_ports_later_delivery_scoring_more_is_a_warning() -> None:
    doc = higher_second_delivery()
    game = load_record(json.dumps(doc))
    assert score(replay(game)).to_json() == score(replay(record(FOUR))).to_json()  # allowed, same scores
    port_cautions = [c for c in record_cautions(game) if c.action_type == "deliver"]
    assert [str(c) for c in port_cautions] == [
        f"action {port_cautions[0].action_index} (deliver, Hal/yellow): This delivery to Genoa scores 8, more than "
        "the 5 of the one before it; a port's later spaces usually score less."]


def test_a_lower_or_unnamed_delivery_is_no_warning() -> None:
    state = before(TWO, nth=1, type="deliver", player="orange")  # Lisbon took tea for 4 earlier
    assert state.port_prestige == {"Lisbon": 4}
    state.player("orange").ship_place = None
    state.player("orange").ship.append("tea")
    lower = {"type": "deliver", "player": "orange", "good": "tea", "prestige": 3, "port": "Lisbon"}
    higher = dict(lower, prestige=5)
    assert action_cautions(state, lower) == [] and action_cautions(state, dict(higher, port="Seville")) == []
    assert len(action_cautions(state, higher)) == 1


def test_check_prints_the_warnings_and_still_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(higher_second_delivery()), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    warnings = [line for line in lines if line.startswith("warning: ")]
    assert any("(deliver, Hal/yellow): This delivery to Genoa scores 8" in line for line in warnings)
    assert lines[-1].startswith("valid: ")
    assert main(["check", "--json", str(RECORDS / f"{TWO}.json")]) == 0
    assert len(json.loads(capsys.readouterr().out)["warnings"]) == 2

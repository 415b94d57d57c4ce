"""An action or a question naming a player the table does not have ("nobody", or a colour no one
plays) is refused in words that name the action and the player, never a bare KeyError."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.games import game, read_document
from app.games.base import RulesError
from tests.games.golden import RECORDS, before, position

TWO = "two_players"
MACAO = game("macao")
ROOT = Path(__file__).resolve().parents[2]


def _record_with_player(who: str) -> tuple[str, int]:
    """The two-player golden record with its first activation's player replaced by `who`."""
    document = json.loads((RECORDS / f"{TWO}.json").read_text(encoding="utf-8"))
    index = position(TWO, type="activate")
    document["actions"][index]["player"] = who
    return json.dumps(document), index


@pytest.mark.parametrize("who", ["nobody", "yellow"])
def test_a_record_naming_an_unknown_player_is_refused_at_the_action(who: str) -> None:
    text, index = _record_with_player(who)
    rules, document = read_document(text)
    with pytest.raises(RulesError) as refused:
        rules.replay(document)
    assert str(refused.value).startswith(f"action {index} (activate, {who}): ")


def test_the_command_line_names_the_action_and_the_unknown_player(tmp_path: Path) -> None:
    text, index = _record_with_player("nobody")
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "app", "check", str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    assert f"action {index} (activate, nobody): " in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("who", ["nobody", "yellow"])
def test_the_options_of_an_unknown_player_are_refused_in_words(who: str) -> None:
    state = before(TWO, type="activate")
    with pytest.raises(RulesError, match=f"There is no {who} player in this game"):
        MACAO.options(state, who)


def test_an_action_of_an_unknown_player_is_still_described_in_words() -> None:
    state = before(TWO, type="activate")
    for action in ({"type": "activate", "player": "nobody", "card": 0},
                   {"type": "take_card", "player": "yellow", "card": 0, "discard": 1}):
        assert MACAO.describe(state, action, state).render().startswith(f"{action['player']} ")

"""A sheet game kept by the session: every entry journalled, undo, a restart that resumes where the
table was, the finished game scored, and its backup file read back as the same sheet."""

from __future__ import annotations

import json
from pathlib import Path

from app.games import read_document
from app.session import Session

HERE = Path(__file__).parent
STARTED = "2026-12-05T20:15:00+01:00"


def test_marco_polo_rounds_survive_a_restart_and_end_scored(tmp_path: Path) -> None:
    worked = json.loads((HERE / "marcopolo2" / "three_players.json").read_text(encoding="utf-8"))
    _rules, document = read_document(json.dumps(worked))
    rolls = [a for a in document.actions if a["type"] == "round_dice"]
    ends = [a for a in document.actions if a["type"] == "end"]
    header = {"started": STARTED, "players": [{"name": p["name"], "colour": p["colour"], "rolls": []}
                                              for p in worked["players"]]}
    with Session.open(tmp_path / "windrose.db") as session:
        session.new_game("marcopolo2", header)
        for action in rolls[:7]:
            session.act(action)
        session.act({"type": "round_dice", "player": "Ben", "round": 3, "dice": [6, 6]})  # a slip of the finger
        session.undo()
        assert session.progress().label.render() == "Round 3"
        assert session.waiting_for().player == "Ben"
        assert session.waiting_for().actions == ("round_dice",)  # a camera's "roll" is not taken for it
        lines = [entry.message.render() for entry in session.history()]
        assert lines[0] == "Round 1, dice of Ann: 3 1 2 6 2"
        assert any("Round 3, dice of Ben: 6 6" in line for line in lines[-2:])  # the slip, then its undo
    with Session.open(tmp_path / "windrose.db") as session:  # the power came back
        assert session.resume_last()
        assert [a["dice"] for a in session.actions] == [a["dice"] for a in rolls[:7]]
        for action in rolls[7:] + ends:
            session.act(action)
        assert session.is_over
        table = session.score()
        assert (table.winner, [line.name for line in table.lines]) == ("Cy", ["Cy", "Ann", "Ben"])
        assert json.loads(session.record_text()) == {"format": "marcopolo2-score/1", "started": STARTED,
                                                     "players": worked["players"]}


def test_a_columns_game_is_listed_as_finished_with_its_winner(tmp_path: Path) -> None:
    with Session.open(tmp_path / "windrose.db") as session:
        game_id = session.new_game("guild_columns", {"started": STARTED, "players": [{"name": "Ann"}, {"name": "Ben"}]})
        session.act({"type": "columns", "player": "Ann", "columns": [3, 1, 4]})
        session.act({"type": "columns", "player": "Ben", "columns": [2, 5]})
        assert session.is_over and session.score().winner == "Ben"
        listed = [g for g in session.games() if g.id == game_id]
        assert [(g.game, g.players, g.finished, g.winner) for g in listed] == [
            ("guild_columns", [("Ann", "Ann"), ("Ben", "Ben")], True, "Ben")]

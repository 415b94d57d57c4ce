"""Session, journal, backups, past games, exports and the command line serve any registered
game: a small test game (`tests/seam/tally.py`) is registered beside Macao and played through them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.games.base import RecordError
from app.session import Session, SessionError
from app.ui.exports import export_game
from app.ui.past import past_game
from app.ui.stats import player_stats

HEADER = {"started": "2026-12-05T10:00:00+01:00", "players": [{"name": "Ann"}, {"name": "Ben"}]}
PLAY = [
    {"type": "points", "player": "Ann", "points": 7},
    {"type": "points", "player": "Ben", "points": 12},
    {"type": "points", "player": "Ann", "points": 3},
    {"type": "end"},
]


def test_a_second_game_plays_through_the_session(tally_registered: None, session: Session, tmp_path: Path) -> None:
    game_id = session.new_game("tally", HEADER)
    assert session.journal.game(game_id).game_type == "tally"
    assert session.journal.game(game_id).header["format"] == "tally-score/1"
    for action in PLAY[:2]:
        session.act(action)
    session.undo()
    assert session.state.points == {"Ann": 7, "Ben": 0}
    session.redo()
    for action in PLAY[2:]:
        session.act(action)
    assert session.is_over
    table = session.score()
    assert [(line.name, line.total, line.rank) for line in table.lines] == [("Ben", 12, 1), ("Ann", 10, 2)]
    assert [entry.message.render() for entry in session.history()][:2] == ["Ann scores 7", "Ben scores 12"]
    # The finished game's backup is the tally sheet, which the CLI reads back by its format.
    [backup] = (tmp_path / "backups").iterdir()
    assert json.loads(backup.read_text())["actions"] == PLAY
    summary = session.games()[0]
    assert (summary.game, summary.finished, summary.winner, summary.players) == (
        "tally", True, "Ben", [("Ann", "Ann"), ("Ben", "Ben")])
    past = past_game(session, game_id)
    assert past.table == table and [seat.name for seat in past.seats] == ["Ann", "Ben"]
    assert player_stats([table])[0].name == "Ben"
    written = export_game(tmp_path / "out", "tally", "Tally", game_id, HEADER["started"],
                          session.record_text(), table, None)
    assert [p.name for p in written] == ["tally-1-202612051000.json", "tally-1-202612051000.csv",
                                         "tally-1-202612051000.bgstats.json"]
    assert written[1].read_text().splitlines()[0] == "started,colour,name,points,total,rank,winner"


def test_the_cli_scores_imports_and_exports_a_second_game(
    tally_registered: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"format": "tally-score/1", **HEADER, "actions": PLAY}))
    assert main(["score", str(sheet)]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == "Ben"
    db = tmp_path / "windrose.db"
    assert main(["import", str(sheet), "--db", str(db)]) == 0
    assert main(["export", "--db", str(db), "--out", str(tmp_path / "back.json")]) == 0
    assert json.loads((tmp_path / "back.json").read_text()) == json.loads(sheet.read_text())


def test_a_stored_game_of_an_unknown_kind_is_listed_with_its_problem(session: Session) -> None:
    stored = session.journal.create_game({"format": "chess/1", "players": []}, "chess")
    [summary] = session.games()
    assert summary.game == "chess" and "chess" in (summary.problem or "")
    with pytest.raises(SessionError, match="'chess' game"):
        session.load(stored)
    assert "chess" in (past_game(session, stored).problem or "")
    with pytest.raises(SessionError, match="chess"):
        session.new_game("chess", {})


def test_a_bad_header_stores_nothing(tally_registered: None, session: Session) -> None:
    with pytest.raises(RecordError) as caught:
        session.new_game("tally", {"players": [{"name": "Ann"}, {"name": " Ben"}]})
    assert caught.value.where == "players[1].name"
    assert session.journal.games() == []


def test_an_unknown_format_is_refused_by_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "sheet.json"
    sheet.write_text('{"format": "chess/1", "players": []}')
    assert main(["score", str(sheet)]) == 2
    err = capsys.readouterr().err
    assert "format" in err and "chess/1" in err and "Traceback" not in err

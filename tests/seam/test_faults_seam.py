"""The fault handling serves any registered game, shown with the seam's small test game: names
held to the one rule, a game that stops replaying set aside and exported up to there, a lost
games file given back from the backups, a record file imported through its own game."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import app.games
from app.cli import main
from app.games.base import RulesError
from app.session import Session, SessionError, read_game_file
from tests.seam.tally import Tally, TallyState
from tests.seam.test_session_seam import HEADER, PLAY


class UncheckedNames(Tally):
    """Tally with a reader that lets any name pass: the session still holds names to the one rule."""

    id = "unchecked"

    def new_state(self, header: Mapping[str, Any]) -> TallyState:
        names = tuple(player["name"] for player in header["players"])
        return TallyState(names, dict.fromkeys(names, 0))


UNCHECKED = UncheckedNames()


@pytest.fixture
def unchecked_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(app.games.GAMES, "unchecked", app.games.Registered("tests.seam.test_faults_seam:UNCHECKED",
                                                                       UNCHECKED.formats))
    app.games.game.cache_clear()
    yield
    app.games.game.cache_clear()


def test_the_session_holds_every_games_names_to_the_one_rule(unchecked_registered: None, session: Session) -> None:
    with pytest.raises(SessionError, match="contains control characters"):
        session.new_game("unchecked", {"players": [{"name": "Ann"}, {"name": "Ben\x1b[31m"}]})
    assert session.journal.games() == [] and session.game_id is None
    session.new_game("unchecked", HEADER)


def test_a_game_that_stops_replaying_is_set_aside_and_exported_up_to_there(
    tally_registered: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "windrose.db"
    with Session.open(db) as session:
        game_id = session.new_game("tally", HEADER)
        for action in PLAY[:3]:
            session.act(action)
    with sqlite3.connect(db) as raw:  # the second action now names nobody at the table
        raw.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = 2",
                    (json.dumps({"type": "points", "player": "Zed", "points": 1}), game_id))
    with Session.open(db) as session:
        assert list(session.set_aside) == [game_id]
        assert not session.resume_last()
        stored = session.readable_game(game_id)
        assert stored.game.id == "tally" and stored.document.actions == PLAY[:1]
        assert "action 1" in (stored.problem or "") and stored.state.points == {"Ann": 7, "Ben": 0}
    out = tmp_path / "out.json"
    assert main(["export", "--db", str(db), "--game", str(game_id), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["actions"] == PLAY[:1]
    assert "stops replaying" in capsys.readouterr().err


def test_a_lost_games_file_gives_the_game_back_from_its_backup(tally_registered: None, tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    with Session.open(db) as session:
        session.new_game("tally", HEADER)
        for action in PLAY:
            session.act(action)
    db.write_bytes(b"")  # a 0-byte games file
    with Session.open(db) as session:
        [offer] = session.backup_offers
        assert (offer.game.id, offer.in_journal, offer.document.actions) == ("tally", None, PLAY)
        assert "#1 Ann, Ben: 4/0" in session.notices[-1]
        [restored] = session.restore_backups()
        assert session.journal.game(restored).game_type == "tally"
        assert session.actions == PLAY and session.is_over
    with Session.open(db) as again:
        assert again.backup_offers == [] and len(again.games()) == 1


def test_a_sheet_file_is_imported_through_its_own_game_or_refused_whole(
    tally_registered: None, session: Session, tmp_path: Path
) -> None:
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"format": "tally-score/1", **HEADER, "actions": PLAY}))
    game_id = session.import_document(*read_game_file(sheet))
    assert session.journal.game(game_id).game_type == "tally" and session.actions == PLAY
    sheet.write_text(json.dumps({"format": "tally-score/1", **HEADER, "actions": [*PLAY, PLAY[0]]}))
    with pytest.raises(RulesError, match="action 4"):
        session.import_document(*read_game_file(sheet))
    assert len(session.journal.games()) == 1

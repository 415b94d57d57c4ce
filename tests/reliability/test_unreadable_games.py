"""A stored game that no longer replays (a row of bytes that are not UTF-8, a payload that is not JSON,
an action the rules refuse) passes `PRAGMA quick_check`. At start it is replayed, set aside and the
table told; its rows stay, it is never resumed, and it exports up to where it stops.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.games.macao import load_record, replay
from app.session import Session
from tests.reliability.helpers import seeded_game, start

REPO = Path(__file__).resolve().parents[2]
PLAYED = 40
BROKEN_SEQ = 25  # the 25th event: the 25th action, as the game has no undo

DAMAGES = {
    "not UTF-8": "CAST(X'7B2274797065223A2280FF227D' AS TEXT)",  # {"type":"<0x80 0xff>"}
    "not JSON": "'{\"type\": \"roll\", '",
    "refused by the rules": None,  # filled in below: a valid action by the wrong player
}


def journal_with_a_broken_game(db: Path, damage: str, finished_first: bool = True) -> int:
    """A finished game 1 (whole) and an unfinished game 2 whose event BROKEN_SEQ is damaged."""
    with Session.open(db) as session:
        if finished_first:
            whole = seeded_game(3)
            start(session, whole)
            for action in whole.actions:
                session.act(action)
        record = seeded_game(11)
        game = start(session, record)
        for action in record.actions[:PLAYED]:
            session.act(action)
    with sqlite3.connect(db) as raw:
        if damage == "refused by the rules":
            payload = {"type": "end_turn", "player": "nobody"}
            raw.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
                        (json.dumps(payload), game, BROKEN_SEQ))
        else:
            raw.execute(f"UPDATE events SET payload = {DAMAGES[damage]} WHERE game_id = ? AND seq = ?",
                        (game, BROKEN_SEQ))
        assert raw.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    return game


def stored_rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as raw:
        return raw.execute("SELECT game_id, seq, kind, CAST(payload AS BLOB) FROM events ORDER BY game_id, seq").fetchall()


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_game_that_does_not_replay_is_set_aside_and_told(tmp_path: Path, damage: str) -> None:
    db = tmp_path / "windrose.db"
    game = journal_with_a_broken_game(db, damage)
    rows_before = stored_rows(db)
    with Session.open(db) as session:
        assert list(session.set_aside) == [game]
        assert any(f"Game {game} (" in notice and "set aside" in notice for notice in session.notices)
        assert not session.resume_last()  # never resumed, and no older game in its place
        summaries = {summary.id: summary for summary in session.games()}
        assert summaries[game].problem is not None and summaries[1].problem is None
        stored = session.readable_game(game)
        assert stored.problem is not None
        assert f"event {BROKEN_SEQ}:" in stored.problem or f"action {BROKEN_SEQ - 1}" in stored.problem
        assert len(stored.document.actions) == BROKEN_SEQ - 1  # everything before the damaged row
        assert stored.state.to_json() == replay(seeded_game(11), upto=BROKEN_SEQ - 1).to_json()
        session.load(1)  # the other games play on
    assert stored_rows(db) == rows_before  # its rows are kept as they were


def test_export_of_a_set_aside_game_writes_what_replays_and_says_why(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    game = journal_with_a_broken_game(db, "not UTF-8")
    result = subprocess.run([sys.executable, "-m", "app", "export", "--db", str(db), "--game", str(game)],
                            cwd=REPO, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "WINDROSE_CONFIG": ""})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "OperationalError" not in result.stderr
    assert f"event {BROKEN_SEQ}: the stored payload is not UTF-8 text" in result.stderr
    assert len(load_record(result.stdout).actions) == BROKEN_SEQ - 1


def test_a_broken_header_still_lists_the_games(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    journal_with_a_broken_game(db, "not JSON", finished_first=True)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET header = CAST(X'80' AS TEXT) WHERE id = 1")
    with Session.open(db) as session:
        assert sorted(session.set_aside) == [1, 2]
        assert "header is not UTF-8 text" in session.set_aside[1]
        assert len(session.games()) == 2

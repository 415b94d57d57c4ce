"""Another program holding the games file's lock: a tap's write gives up within a second (it waited
10 s, freezing the screen) and says in words that the games file is busy; nothing is half-written,
and the next write after the lock is gone goes through."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.journal import Journal, JournalError
from app.session import Session
from tests.test_journal import HEADER, act

MOST_A_TAP_MAY_WAIT_MS = 1000


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """A second, real connection to the same file, as another program would open it."""
    connection = sqlite3.connect(tmp_path / "windrose.db", isolation_level=None)
    yield connection
    connection.close()


def test_a_write_waits_briefly_for_a_foreign_lock_and_says_the_file_is_busy(
    tmp_path: Path, holder: sqlite3.Connection
) -> None:
    with Journal.open(tmp_path / "windrose.db") as journal:
        assert 0 < journal.lock_wait_ms() <= MOST_A_TAP_MAY_WAIT_MS
        game = journal.create_game(HEADER, "macao")
        journal.append(game, "action", act(1))
        holder.execute("BEGIN IMMEDIATE")  # the other program is writing
        with pytest.raises(JournalError, match="the games file is busy"):
            journal.append(game, "action", act(2))
        holder.execute("ROLLBACK")
        assert [e.payload for e in journal.events(game)] == [act(1)]  # nothing half-written
        journal.append(game, "action", act(2))
        assert len(journal.events(game)) == 2


def test_the_session_refuses_a_tap_on_a_busy_file_and_keeps_the_game(
    tmp_path: Path, holder: sqlite3.Connection
) -> None:
    with Session.open(tmp_path / "windrose.db") as session:
        session.new_game("guild_columns", {"players": [{"name": "Ann"}, {"name": "Ben"}]})
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(JournalError, match="busy"):
            session.act({"type": "columns", "player": "Ann", "columns": [3, 1, 4]})
        holder.execute("ROLLBACK")
        assert session.actions == []
        session.act({"type": "columns", "player": "Ann", "columns": [3, 1, 4]})
        assert len(session.actions) == 1

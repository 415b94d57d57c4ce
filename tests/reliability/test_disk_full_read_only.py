"""A full disk or a read-only data folder: the action is refused in plain words and nothing moves.

What is real and what is simulated:
- Disk full is simulated with SQLite's own size cap (`PRAGMA max_page_count` set
  to the file's current size through the connection seam). SQLite then fails a
  growing write with SQLITE_FULL, the same error code a real ENOSPC gives.
- Read-only in the middle of a game (an SD card remounted read-only) is
  simulated by opening the connection with the URI `mode=ro`: the file is
  opened O_RDONLY and every write fails with SQLITE_READONLY.
- A read-only data folder at start is real: the folder and file have no write
  permission and the check runs as an unprivileged user (the test forks and
  drops to uid 65534 when it runs as root, since root ignores permissions).
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.games.macao import Record, replay
from app.journal import JournalError, JournalOpenError, connect_file
from app.session import Session
from tests.reliability.helpers import seeded_game, start

NOBODY = 65534
PLAYED_BEFORE = 60


def size_capped(path: Path) -> sqlite3.Connection:
    """A connection that may not grow the file past its current size: a full disk, to SQLite."""
    connection = connect_file(path)
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")
    return connection


def read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, timeout=10.0)


def event_count(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as other:
        return other.execute("SELECT COUNT(*) FROM events").fetchone()[0]


@pytest.fixture
def game_under_way(tmp_path: Path) -> Iterator[tuple[Path, Record]]:
    record = seeded_game(11)
    db = tmp_path / "windrose.db"
    with Session.open(db) as session:
        start(session, record)
        for action in record.actions[:PLAYED_BEFORE]:
            session.act(action)
    yield db, record


def snapshot(session: Session) -> tuple[object, ...]:
    return session.state.to_json(), session.actions, len(session.history()), session.can_undo, session.can_redo


def test_a_full_disk_refuses_the_action_and_nothing_moves(game_under_way: tuple[Path, Record]) -> None:
    db, record = game_under_way
    with Session.open(db, connect=size_capped) as session:
        assert session.resume_last()
        refused_at = None
        for index in range(PLAYED_BEFORE, len(record.actions)):
            before, stored = snapshot(session), event_count(db)
            try:
                session.act(record.actions[index])
            except JournalError as err:
                assert str(err) == "the game could not be saved: the disk is full (nothing was written)"
                assert snapshot(session) == before and event_count(db) == stored
                with pytest.raises(JournalError, match="disk is full"):  # still full: still refused
                    session.act(record.actions[index])
                assert snapshot(session) == before and event_count(db) == stored
                refused_at = index
                break
        assert refused_at is not None, "the capped file never filled up"

    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with Session.open(db) as session:  # room again: the game goes on from the refused action
        assert session.resume_last() and session.actions == record.actions[:refused_at]
        for action in record.actions[refused_at:]:
            session.act(action)
        assert session.state.to_json() == replay(record).to_json()


def test_a_read_only_file_mid_game_refuses_every_change(game_under_way: tuple[Path, Record]) -> None:
    db, record = game_under_way
    before_bytes = db.read_bytes()
    with Session.open(db, connect=read_only) as session:
        assert session.resume_last()
        before, stored = snapshot(session), event_count(db)
        refusal = "the game could not be saved: the data folder is read-only (nothing was written)"
        changes: list[Callable[[], object]] = [
            lambda: session.act(record.actions[PLAYED_BEFORE]),
            session.undo,
            lambda: session.go_back(3),
            lambda: start(session, seeded_game(13)),
        ]
        for change in changes:
            with pytest.raises(JournalError) as caught:
                change()
            assert str(caught.value) == refusal
            assert snapshot(session) == before and event_count(db) == stored
        assert session.state.to_json() == replay(record, upto=PLAYED_BEFORE).to_json()
    assert db.read_bytes() == before_bytes


def run_unprivileged(task: Callable[[], str]) -> str:
    """Run task as an ordinary user and return its text (forked and dropped to nobody when root)."""
    if os.geteuid() != 0:
        return task()
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        try:
            os.close(reader)
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            text = task()
        except BaseException as err:  # report, never return into pytest
            text = f"the task raised {type(err).__name__}: {err}"
        finally:
            try:
                os.write(writer, text.encode())
            finally:
                os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        text = pipe.read().decode()
    os.waitpid(child, 0)
    return text


@pytest.fixture
def read_only_folder() -> Iterator[Path]:
    """A data folder holding a journal, with write permission taken away (reachable by any user)."""
    base = Path(tempfile.mkdtemp(prefix="windrose-ro-"))
    base.chmod(0o755)
    data = base / "data"
    record = seeded_game(14)
    with Session.open(data / "windrose.db") as session:
        start(session, record)
        session.act(record.actions[0])
    (data / "windrose.db").chmod(0o444)
    data.chmod(0o555)
    try:
        yield data
    finally:
        data.chmod(0o755)
        shutil.rmtree(base)


def open_session(db: Path) -> str:
    """Open and close a Session on `db`: "opened", or the JournalOpenError's text."""
    try:
        Session.open(db).close()
    except JournalOpenError as err:
        return str(err)
    return "opened"


def test_a_read_only_data_folder_at_start_is_a_clear_refusal_and_the_file_stays(read_only_folder: Path) -> None:
    db = read_only_folder / "windrose.db"
    before = db.read_bytes()
    assert stat.S_IMODE(read_only_folder.stat().st_mode) == 0o555

    message = run_unprivileged(functools.partial(open_session, db))
    assert message == f"cannot open the game journal {db}: the data folder is read-only"
    assert db.read_bytes() == before
    assert sorted(path.name for path in read_only_folder.iterdir()) == ["backups", "windrose.db"]


def test_a_damaged_file_in_a_read_only_folder_is_reported_and_left_in_place(read_only_folder: Path) -> None:
    db = read_only_folder / "windrose.db"
    read_only_folder.chmod(0o755)
    db.chmod(0o644)
    db.write_text("not a database any more", encoding="utf-8")
    db.chmod(0o444)
    read_only_folder.chmod(0o555)

    message = run_unprivileged(functools.partial(open_session, db))
    assert message.startswith(f"cannot open the game journal {db}: the file is not a SQLite database")
    assert message.endswith("and it cannot be set aside (Permission denied)")
    assert db.read_text(encoding="utf-8") == "not a database any more"

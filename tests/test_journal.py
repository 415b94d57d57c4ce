"""The SQLite journal: durability settings, the event fold, several games, reopening."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.journal import SCHEMA_VERSION, Event, Journal, JournalError, JournalOpenError, Timeline, fold
from app.paths import default_db_path

HEADER = {
    "format": "macao-record/1",
    "started": "2026-11-29T19:30:00+01:00",
    "players": [{"colour": "orange", "name": "Ann"}, {"colour": "white", "name": "Ben"}],
    "wall": ["white", "orange"],
}


def backwards_clock() -> Iterator[str]:
    """A clock that runs backwards from 1970: ordering must never rely on it."""
    for second in range(59, -1, -1):
        yield f"1970-01-01T00:00:{second:02d}+00:00"


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    ticks = backwards_clock()
    with Journal.open(tmp_path / "data" / "windrose.db", clock=lambda: next(ticks)) as opened:
        yield opened


def act(n: int) -> dict[str, object]:
    return {"type": "adjust", "player": "orange", "gold": n, "note": f"step {n}"}


def test_durability_settings_are_wal_and_full_sync(journal: Journal) -> None:
    settings = journal.durability()
    assert settings["journal_mode"] == "wal"
    assert settings["synchronous"] == 2  # FULL
    with sqlite3.connect(journal.path) as other:
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_events_fold_into_live_actions_with_undo_redo_and_goto(journal: Journal) -> None:
    game = journal.create_game(HEADER, "macao")
    timeline = Timeline()

    def record(kind: str, payload: dict[str, object]) -> None:
        timeline.check(kind, payload)
        event = journal.append(game, kind, payload)
        timeline.apply(event.seq, kind, payload)

    for n in range(5):
        record("action", act(n))
    record("undo", {})
    record("undo", {})
    assert timeline.actions == [act(0), act(1), act(2)]
    record("redo", {})
    assert timeline.actions == [act(0), act(1), act(2), act(3)]
    record("goto", {"keep": 1})
    assert timeline.actions == [act(0)]
    assert timeline.reachable == 5
    record("goto", {"keep": 4})  # forward again through the redo stack
    assert timeline.actions == [act(0), act(1), act(2), act(3)]
    record("undo", {})
    record("action", act(9))  # a new action clears the redo stack
    assert not timeline.can_redo
    assert timeline.actions == [act(0), act(1), act(2), act(9)]

    stored = journal.timeline(game)
    assert stored.actions == timeline.actions
    assert [entry.origin_seq for entry in stored.live] == [1, 2, 3, 12]
    kinds = [event.kind for event in journal.events(game)]
    assert kinds == ["action"] * 5 + ["undo", "undo", "redo", "goto", "goto", "undo", "action"]


def test_impossible_undo_redo_and_goto_are_refused() -> None:
    timeline = Timeline()
    with pytest.raises(JournalError, match="nothing to undo"):
        timeline.apply(1, "undo", {})
    timeline.apply(1, "action", act(0))
    with pytest.raises(JournalError, match="nothing to redo"):
        timeline.apply(2, "redo", {})
    with pytest.raises(JournalError, match="only 0..1"):
        timeline.apply(2, "goto", {"keep": 2})
    with pytest.raises(JournalError, match="unknown event kind"):
        timeline.apply(2, "rewind", {})
    assert timeline.actions == [act(0)] and not timeline.can_redo


def test_fold_names_the_event_of_a_damaged_history() -> None:
    events = [Event(7, 1, "action", act(0), ""), Event(7, 2, "undo", {}, ""), Event(7, 3, "undo", {}, "")]
    with pytest.raises(JournalError, match="game 7, event 3: nothing to undo"):
        fold(events)


def test_several_games_and_the_last_unfinished_one_ignore_the_clock(journal: Journal) -> None:
    assert journal.last_unfinished() is None
    first = journal.create_game(HEADER, "macao")
    second = journal.create_game(HEADER, "macao")
    journal.append(first, "action", act(1))  # first played after second was created
    assert journal.last_unfinished() == first
    journal.append(first, "action", act(2), finished=True)
    assert journal.last_unfinished() == second
    assert journal.last_game() == first
    assert [(row.id, row.finished) for row in journal.games()] == [(first, True), (second, False)]
    assert journal.timeline(second).actions == []
    assert journal.game(first).header == HEADER
    # The clock ran backwards all along; the display text is stored as given.
    assert journal.game(first).created_at > journal.game(second).created_at


def test_unknown_game_is_refused_and_writes_nothing(journal: Journal) -> None:
    with pytest.raises(JournalError, match="no game 42"):
        journal.append(42, "action", act(0))
    with pytest.raises(JournalError, match="no game 42"):
        journal.events(42)
    with sqlite3.connect(journal.path) as other:
        assert other.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


def test_reopen_after_close_keeps_every_game(tmp_path: Path) -> None:
    path = tmp_path / "windrose.db"
    with Journal.open(path) as journal:
        game = journal.create_game(HEADER, "macao")
        for n in range(3):
            journal.append(game, "action", act(n))
        journal.append(game, "undo", {"index": 2})
    with Journal.open(path) as journal:
        assert journal.timeline(game).actions == [act(0), act(1)]
        assert journal.timeline(game).can_redo
        assert journal.last_unfinished() == game
        assert journal.durability()["synchronous"] == 2


def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "windrose.db"
    path.write_bytes(b"these are not the bytes of a database\n" * 200)
    with pytest.raises(JournalOpenError, match="not a SQLite database") as caught:
        Journal.open(path)
    assert caught.value.path == path
    assert str(path) in str(caught.value)


def test_a_folder_in_place_of_the_database_gives_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(JournalOpenError, match="is a folder"):
        Journal.open(tmp_path)


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "windrose.db"
    with sqlite3.connect(path) as other:
        other.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(JournalOpenError, match="newer Windrose"):
        Journal.open(path)


def test_default_database_lives_in_the_xdg_data_dir(tmp_path: Path) -> None:
    assert default_db_path({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "windrose" / "windrose.db"
    relative_ignored = default_db_path({"XDG_DATA_HOME": "rel", "HOME": str(tmp_path)})
    assert relative_ignored == tmp_path / ".local" / "share" / "windrose" / "windrose.db"


def test_a_failed_write_is_a_journal_error_and_leaves_nothing_behind(journal: Journal) -> None:
    game = journal.create_game(HEADER, "macao")
    journal.append(game, "action", act(0))
    with sqlite3.connect(journal.path) as other:
        other.execute("CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
    with pytest.raises(JournalError, match="could not be saved: disk says no"):
        journal.append(game, "action", act(1), finished=True)
    assert journal.timeline(game).actions == [act(0)]
    assert not journal.game(game).finished
    assert journal.last_game() == game

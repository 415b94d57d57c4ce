"""The start cache: a start replays only the stored games whose bytes changed since the last one,
reads only the backup files that changed, and a cache that is damaged, stale or cannot be written
never changes what a start finds."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import app.session
import app.start_cache
from app.backup import BACKUP_FOLDER
from app.game_summary import GameSummary
from app.journal import GameRow, Journal
from app.session import Session
from app.start_cache import start_cache_path
from tests.reliability.helpers import seeded_game, start

PLAYED = 30


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The ids of the games summarised by replaying them, in order, while the test runs."""
    summarised: list[int] = []
    replay_game = Session._summarise

    def counting(session: Session, row: GameRow) -> GameSummary:
        summarised.append(row.id)
        return replay_game(session, row)

    monkeypatch.setattr(Session, "_summarise", counting)
    yield summarised


@pytest.fixture
def backups_read(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the backup files read while the test runs."""
    read: list[str] = []
    read_file = app.session.read_game_file

    def counting(path: Path) -> tuple[object, object]:
        read.append(path.name)
        return read_file(path)

    monkeypatch.setattr(app.session, "read_game_file", counting)
    yield read


def three_games(db: Path) -> None:
    """Games 1 and 2 finished, game 3 under way, each with its backup file."""
    with Session.open(db) as session:
        for seed in (3, 4):
            record = seeded_game(seed)
            start(session, record)
            for action in record.actions:
                session.act(action)
        record = seeded_game(11)
        start(session, record)
        for action in record.actions[:PLAYED]:
            session.act(action)


def summaries_without_cache(db: Path) -> list[GameSummary]:
    with Journal.open(db) as journal:
        bare = Session(journal)
        bare.check_games()
        return bare.games()


def test_an_unchanged_journal_is_not_replayed_and_lists_the_same_games(
        tmp_path: Path, replays: list[int], backups_read: list[str]) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    replays.clear()
    backups_read.clear()
    with Session.open(db) as session:
        assert replays == [1, 2, 3]  # the last session left new events: each game replayed once
        first = session.games()
    assert len(backups_read) == 3
    replays.clear()
    backups_read.clear()
    with Session.open(db) as session:
        again = session.games()
        assert session.set_aside == {} and session.backup_offers == []
    assert replays == [] and backups_read == []
    assert again == first == summaries_without_cache(db)
    assert [summary.finished for summary in first] == [True, True, False] and first[0].winner is not None


def test_a_game_with_new_events_is_replayed_alone(tmp_path: Path, replays: list[int]) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    with Session.open(db) as session:
        session.load(3)
        round_before = session.games()[2].round
        for action in seeded_game(11).actions[PLAYED:PLAYED + 60]:
            session.act(action)
    replays.clear()
    with Session.open(db) as session:
        assert replays == [3]
        listed = session.games()
    assert listed == summaries_without_cache(db) and listed[2].round > round_before


def test_a_flipped_byte_in_a_stored_action_is_replayed_and_set_aside(tmp_path: Path, replays: list[int]) -> None:
    """A payload of the same length that is no longer JSON: the cache must not vouch for the game."""
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    with sqlite3.connect(db) as raw:
        (payload,) = raw.execute("SELECT payload FROM events WHERE game_id = 2 AND seq = 10").fetchone()
        raw.execute("UPDATE events SET payload = ? WHERE game_id = 2 AND seq = 10", ("[" + payload[1:],))
    replays.clear()
    with Session.open(db) as session:
        assert replays == [2]
        assert list(session.set_aside) == [2]
        assert any("Game 2 (" in str(notice) for notice in session.notices)
    with Session.open(db) as session:  # and at every start after, from the cache
        assert list(session.set_aside) == [2]


def test_other_code_replays_every_game(tmp_path: Path, replays: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    monkeypatch.setattr(app.start_cache, "code_fingerprint", lambda: "another version of the rules")
    replays.clear()
    Session.open(db).close()
    assert replays == [1, 2, 3]
    replays.clear()
    Session.open(db).close()
    assert replays == []


@pytest.mark.parametrize("damage", [b"", b"{not json", b"[]", b'{"format": "windrose start cache 1", "code": "CODE"}',
                                    b"\xff\xfe garbage"])
def test_a_damaged_cache_is_ignored_and_written_again(
        tmp_path: Path, replays: list[int], damage: bytes, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    start_cache_path(db).write_bytes(damage.replace(b"CODE", str(app.start_cache.code_fingerprint()).encode()))
    replays.clear()
    with caplog.at_level(logging.WARNING, logger="app.start_cache"), Session.open(db) as session:
        listed = session.games()
    assert replays == [1, 2, 3]
    assert listed == summaries_without_cache(db)
    assert str(start_cache_path(db)) in caplog.text
    assert json.loads(start_cache_path(db).read_bytes())["format"] == "windrose start cache 1"


def test_a_cache_entry_of_the_wrong_shape_is_ignored(tmp_path: Path, replays: list[int]) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    cache = json.loads(start_cache_path(db).read_bytes())
    cache["games"]["2"]["summary"]["players"] = "Anna"
    start_cache_path(db).write_text(json.dumps(cache))
    replays.clear()
    with Session.open(db) as session:
        listed = session.games()
    assert replays == [1, 2, 3]
    assert listed == summaries_without_cache(db)


def test_a_cache_the_disk_refuses_leaves_the_start_as_it_was(
        tmp_path: Path, replays: list[int], caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    start_cache_path(db).unlink(missing_ok=True)
    start_cache_path(db).mkdir()  # a folder where the file goes: the rename over it fails
    replays.clear()
    with caplog.at_level(logging.WARNING, logger="app.start_cache"), Session.open(db) as session:
        assert replays == [1, 2, 3]
        listed = session.games()
        session.load(3)
        session.act(seeded_game(11).actions[PLAYED])  # the table plays on
    assert "not written" in caplog.text
    assert listed[:2] == summaries_without_cache(db)[:2]
    assert [name for name in os.listdir(tmp_path) if name.endswith(".partial")] == []


def test_another_journal_under_the_same_name_is_not_taken_for_the_cached_one(
        tmp_path: Path, replays: list[int]) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    cache = start_cache_path(db).read_bytes()
    shutil.rmtree(tmp_path)
    tmp_path.mkdir()
    with Session.open(db) as session:  # a new journal: its game 1 is another game
        record = seeded_game(5)
        start(session, record)
        for action in record.actions[:PLAYED]:
            session.act(action)
    start_cache_path(db).write_bytes(cache)
    replays.clear()
    with Session.open(db) as session:
        assert replays == [1]
        listed = session.games()
    assert listed == summaries_without_cache(db)


def test_a_backup_ahead_of_the_journal_is_offered_at_every_start(tmp_path: Path, backups_read: list[str]) -> None:
    """The backup of a game whose journal rows were lost is read and offered each time; the quiet ones are not read."""
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM events WHERE game_id = 2 AND seq > 20")
    for _ in range(2):
        backups_read.clear()
        with Session.open(db) as session:
            assert [(offer.game_id, offer.in_journal) for offer in session.backup_offers] == [(2, 20)]
        assert [name.split("-")[0] for name in backups_read] == ["2"]


def test_a_changed_backup_file_is_read_again(tmp_path: Path, backups_read: list[str]) -> None:
    db = tmp_path / "windrose.db"
    three_games(db)
    Session.open(db).close()
    (backup,) = [path for path in (tmp_path / BACKUP_FOLDER).iterdir() if path.name.startswith("3-")]
    record = json.loads(backup.read_text())
    record["actions"] = seeded_game(11).actions[:PLAYED + 40]  # a copy that got further than the journal
    backup.write_text(json.dumps(record))
    os.utime(backup, ns=(1, 1))
    backups_read.clear()
    with Session.open(db) as session:
        assert [(offer.game_id, offer.in_journal) for offer in session.backup_offers] == [(3, PLAYED)]
    assert backups_read == [backup.name]

"""When the journal holds less than the backups (its -wal lost, the file emptied), the table is offered the
backups, and one call brings the games back; after each round the WAL is folded into the database, so a
lost -wal costs at most the round under way."""

from __future__ import annotations

import json
import shutil
import sqlite3
import weakref
from pathlib import Path

from app.backup import BACKUP_FOLDER
from app.games.macao import replay
from app.journal import Journal, Timeline
from app.session import Session
from tests.reliability.helpers import seeded_game, start

PLAYED = 120


def played(db: Path, seeds: tuple[int, ...] = (11,), upto: int = PLAYED) -> list[list[dict[str, object]]]:
    """Games played through a session that is closed properly; each game's actions."""
    games = []
    with Session.open(db) as session:
        for seed in seeds:
            record = seeded_game(seed)
            start(session, record)
            for action in record.actions[:upto]:
                session.act(action)
            games.append(session.actions)
    return games


def crash_copy_without_wal(session: Session, source: Path, target: Path) -> Path:
    """The files as a power cut that also lost the -wal would leave them (the session is still open)."""
    target.mkdir()
    shutil.copy2(source, target / source.name)
    shutil.copytree(source.parent / BACKUP_FOLDER, target / BACKUP_FOLDER)
    return target / source.name


def test_a_lost_wal_costs_at_most_the_round_under_way(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    record = seeded_game(11)
    with Session.open(db) as session:
        start(session, record)
        for action in record.actions[:PLAYED]:
            session.act(action)
        round_now = session.state.round
        copy = crash_copy_without_wal(session, db, tmp_path / "after")
    first_of_round = next(i for i in range(PLAYED + 1) if replay(record, upto=i).round == round_now)
    with Session.open(copy) as after:
        assert after.resume_last()
        assert first_of_round <= len(after.actions) <= PLAYED
        assert after.actions == record.actions[: len(after.actions)]


def test_an_emptied_journal_offers_the_backups_and_one_call_restores_them(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    games = played(db, seeds=(3, 11), upto=10_000)
    db.write_bytes(b"")  # a 0-byte journal file
    with Session.open(db) as session:
        assert [offer.in_journal for offer in session.backup_offers] == [None, None]
        assert any("Restore from the backups" in notice for notice in session.notices)
        restored = session.restore_backups()
        assert [session.journal.timeline(game).actions for game in restored] == games
        assert session.backup_offers == []
    with Session.open(db) as again:
        assert again.backup_offers == []  # the old copies are marked as restored
        assert len(again.games()) == 2


def test_a_journal_behind_its_backup_gets_the_missing_actions(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    [actions] = played(db)
    with sqlite3.connect(db) as raw:  # the last 30 events lost, as with a damaged -wal before this fix
        raw.execute("DELETE FROM events WHERE game_id = 1 AND seq > ?", (PLAYED - 30,))
    with Session.open(db) as session:
        [offer] = session.backup_offers
        assert offer.in_journal == PLAYED - 30 and len(offer.document.actions) == len(actions)
        assert session.restore_backups() == [1]
        assert session.actions == actions
        assert len(session.games()) == 1


def test_a_game_gone_back_on_purpose_is_not_offered(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    played(db)
    [copy] = (tmp_path / BACKUP_FOLDER).glob("*.json")
    ahead = copy.read_bytes()
    with Session.open(db) as session:
        assert session.resume_last()
        session.go_back(10)
    copy.write_bytes(ahead)  # as if the backup written after going back were lost
    with Session.open(db) as session:
        assert session.backup_offers == []  # the 110 actions are still there to redo


def test_one_flipped_bit_in_the_wal_costs_at_most_the_round_under_way(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    record = seeded_game(11)
    with Session.open(db) as session:
        start(session, record)
        for action in record.actions[:PLAYED]:
            session.act(action)
        round_now = session.state.round
        copy = crash_copy_without_wal(session, db, tmp_path / "after")
        wal = bytearray(Path(f"{db}-wal").read_bytes())
    assert len(wal) > 32 + 24 + 4096  # the WAL header, then at least one frame
    wal[32 + 24 + 100] ^= 0x10  # one bit of the first frame's page: its checksum no longer matches
    Path(f"{copy}-wal").write_bytes(bytes(wal))
    first_of_round = next(i for i in range(PLAYED + 1) if replay(record, upto=i).round == round_now)
    with Session.open(copy) as after:
        assert after.resume_last()
        assert first_of_round <= len(after.actions) <= PLAYED
        assert after.actions == record.actions[: len(after.actions)]


def test_a_copy_that_does_not_replay_is_kept_and_told_not_restored(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    played(db)
    [copy] = (tmp_path / BACKUP_FOLDER).glob("*.json")
    document = json.loads(copy.read_text(encoding="utf-8"))
    index = next(i for i, action in enumerate(document["actions"]) if action["type"] == "choose_dice")
    document["actions"][index]["player"] = next(p["colour"] for p in document["players"]
                                                if p["colour"] != document["actions"][index]["player"])
    copy.write_text(json.dumps(document), encoding="utf-8")
    db.write_bytes(b"")
    with Session.open(db) as session:
        assert len(session.backup_offers) == 1
        assert session.restore_backups() == []
        assert "could not be restored" in session.notices[-1] and copy.exists()
        assert session.journal.games() == []


def test_checking_the_backups_holds_one_games_timeline_at_a_time(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """At 200 stored games, every timeline held at once came to some 50 MB the process kept."""
    db = tmp_path / "windrose.db"
    with Session.open(db) as session:
        for day, seed in enumerate((3, 5, 7, 11), start=1):  # four evenings: four games, each its own header
            record = seeded_game(seed, started=f"2026-11-{day:02d}T20:00:00+01:00")
            start(session, record)
            for action in record.actions[:40]:
                session.act(action)
    alive: list[weakref.ref[Timeline]] = []
    most_at_once = 0
    timeline_of = Journal.timeline

    def counted(journal: Journal, game_id: int) -> Timeline:
        nonlocal most_at_once
        timeline = timeline_of(journal, game_id)
        alive.append(weakref.ref(timeline))
        most_at_once = max(most_at_once, sum(ref() is not None for ref in alive))
        return timeline

    monkeypatch.setattr(Journal, "timeline", counted)
    with Session.open(db) as session:
        assert session.backup_offers == [] and len(session.games()) == 4
    assert len(alive) >= 8  # each game's timeline read for its summary and for its backup
    assert most_at_once == 1

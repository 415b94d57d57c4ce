"""A damaged database at start: detected, set aside, the player told; the backups bring the games back.

The files are damaged for real (truncated, a page overwritten, replaced by a
picture or text, another program's or a newer schema); SQLite, the header check
and `PRAGMA quick_check` must catch each one at Session.open.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from app.backup import BACKUP_FOLDER, backup_path, safe_name_part
from app.cli import main
from app.games.base import RecordError
from app.games.macao import Record, load_record, replay
from app.journal import SCHEMA_VERSION, Journal
from app.session import Session
from tests.reliability.helpers import seeded_game, start, steady_clock

CLOCK_TEXT = "2026-11-29T21:15:00+01:00"
SET_ASIDE_NAME = "windrose.db.damaged-20261129T211500+0100"
PAGE = 4096


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, Record]]:
    """A finished 4-player game and an unfinished 2-player one, with their backups; and each game's record."""
    folder = tmp_path_factory.mktemp("played")
    games = {}
    with Session.open(folder / "windrose.db", clock=steady_clock(CLOCK_TEXT)) as session:
        for seed, players, upto in ((1, 4, None), (2, 2, 70)):
            record = seeded_game(seed, players, started=f"2026-11-29T19:3{seed}:00+01:00")
            game_id = start(session, record)
            for action in record.actions[:upto]:
                session.act(action)
            games[game_id] = load_record(session.record_text())
    return folder, games


def play_games(played: tuple[Path, dict[int, Record]], db: Path) -> dict[int, Record]:
    """Put a copy of the played database and its backups at db."""
    folder, games = played
    shutil.copyfile(folder / "windrose.db", db)
    shutil.copytree(folder / BACKUP_FOLDER, db.parent / BACKUP_FOLDER)
    return games


def truncate_half(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])


def truncate_inside_header(db: Path) -> None:
    db.write_bytes(db.read_bytes()[:60])


def garbage_page(db: Path) -> None:
    data = bytearray(db.read_bytes())
    middle = len(data) // PAGE // 2
    data[middle * PAGE:(middle + 1) * PAGE] = random.Random(7).randbytes(PAGE)
    db.write_bytes(bytes(data))


def a_photo(db: Path) -> None:
    encoded, picture = cv2.imencode(".jpg", np.full((48, 64, 3), (40, 120, 200), np.uint8))
    assert encoded
    db.write_bytes(picture.tobytes())


def a_text(db: Path) -> None:
    db.write_text("shopping list: rice, tea, dice\n" * 100, encoding="utf-8")


def newer_schema(db: Path) -> None:
    with sqlite3.connect(db) as other:
        other.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def another_programs_database(db: Path) -> None:
    db.unlink()
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
        other.execute("INSERT INTO photos (path) VALUES ('holiday.jpg')")


def our_version_number_but_other_tables(db: Path) -> None:
    db.unlink()
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
        other.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "truncated": (truncate_half, "damaged"),
    "cut inside the header": (truncate_inside_header, "cut short"),
    "garbage page": (garbage_page, "damaged"),
    "a JPEG": (a_photo, "not a SQLite database"),
    "a text file": (a_text, "not a SQLite database"),
    "newer schema": (newer_schema, "newer Windrose"),
    "another program's database": (another_programs_database, "some other program's database"),
    "wrong tables": (our_version_number_but_other_tables, "some other program's database"),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_damage_is_set_aside_and_a_new_database_opened(
    played: tuple[Path, dict[int, Record]], tmp_path: Path, kind: str
) -> None:
    db = tmp_path / "windrose.db"
    play_games(played, db)
    damage, reason = DAMAGE[kind]
    damage(db)
    damaged_bytes = db.read_bytes()

    with Session.open(db, clock=steady_clock(CLOCK_TEXT)) as session:
        notice, offer = session.notices
        assert "could not be used" in notice and reason in notice
        assert SET_ASIDE_NAME in notice and "import" in notice and str(tmp_path / BACKUP_FOLDER) in notice
        assert "Restore from the backups" in offer  # and the games the backups hold are offered
        assert len(session.backup_offers) == len(played[1])
        assert session.journal.games() == []
        record = seeded_game(3)
        start(session, record)
        session.act(record.actions[0])  # the new database works

    assert (tmp_path / SET_ASIDE_NAME).read_bytes() == damaged_bytes  # kept byte for byte
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_a_good_database_is_left_alone(played: tuple[Path, dict[int, Record]], tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    games = play_games(played, db)
    with Session.open(db, clock=steady_clock(CLOCK_TEXT)) as session:
        assert session.notices == []
        assert [row.id for row in session.journal.games()] == list(games)
    assert not list(tmp_path.glob("*.damaged-*"))


def test_setting_aside_never_replaces_an_earlier_damaged_file_and_takes_wal_and_shm_along(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    earlier = tmp_path / SET_ASIDE_NAME
    earlier.write_bytes(b"an earlier damaged file")
    db.write_bytes(b"\xff\xd8\xff\xe0 not a database")
    Path(f"{db}-wal").write_bytes(b"its wal")
    Path(f"{db}-shm").write_bytes(b"its shm")

    with Session.open(db, clock=steady_clock(CLOCK_TEXT)) as session:
        assert f"{SET_ASIDE_NAME}-2" in session.notices[0]

    assert earlier.read_bytes() == b"an earlier damaged file"
    assert (tmp_path / f"{SET_ASIDE_NAME}-2").read_bytes() == b"\xff\xd8\xff\xe0 not a database"
    assert (tmp_path / f"{SET_ASIDE_NAME}-2-wal").read_bytes() == b"its wal"
    assert (tmp_path / f"{SET_ASIDE_NAME}-2-shm").read_bytes() == b"its shm"


def test_backups_follow_each_round_and_the_end(tmp_path: Path) -> None:
    record = seeded_game(4, started="2026-11-29T19:30:00+01:00")
    with Session.open(tmp_path / "windrose.db", clock=steady_clock(CLOCK_TEXT)) as session:
        game_id = start(session, record)
        path = backup_path(tmp_path / BACKUP_FOLDER, game_id, record.started)
        rounds_seen = []
        for action in record.actions:
            round_before = session.state.round
            session.act(action)
            if session.state.round != round_before or session.is_over:
                rounds_seen.append(session.state.round)
                assert load_record(path.read_text(encoding="utf-8")).actions == session.actions
            elif path.exists():  # mid-round, the file still shows the end of the last round
                assert len(load_record(path.read_text(encoding="utf-8")).actions) < len(session.actions)
        assert len(rounds_seen) >= 12 and session.is_over
    assert not list((tmp_path / BACKUP_FOLDER).glob("*.partial"))


def test_leaving_or_closing_a_game_writes_its_backup(tmp_path: Path) -> None:
    first, second = seeded_game(5), seeded_game(6, started="second")
    with Session.open(tmp_path / "windrose.db") as session:
        first_id = start(session, first)
        for action in first.actions[:3]:
            session.act(action)
        second_id = start(session, second)  # leaving the first game writes it
        session.act(second.actions[0])
    folder = tmp_path / BACKUP_FOLDER
    assert load_record(backup_path(folder, first_id, first.started).read_text()).actions == first.actions[:3]
    assert load_record(backup_path(folder, second_id, "second").read_text()).actions == second.actions[:1]


def test_a_backup_that_cannot_be_written_is_a_notice_and_the_action_still_counts(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backup folder should be")
    record = seeded_game(8)
    with Session.open(tmp_path / "windrose.db", backup_dir=blocked) as session:
        start(session, record)
        for action in record.actions:
            session.act(action)
        assert session.is_over
        assert len(session.notices) == 1 and "backup copy of game 1 could not be written" in session.notices[0]
        assert "the game itself is saved" in session.notices[0]
    with Journal.open(tmp_path / "windrose.db") as journal:
        assert journal.timeline(1).actions == record.actions


def test_backup_names_from_user_text_stay_inside_the_folder(tmp_path: Path) -> None:
    hostile = "../../etc/passwd\x00\n\x1b[31m" + "x" * 10_000
    name = backup_path(tmp_path, 3, hostile).name
    assert name.startswith("3-") and name.endswith(".json") and len(name) <= 50
    assert set(name[:-5]) <= set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+-_")
    assert safe_name_part("...") == "undated"
    assert safe_name_part("2026-11-29T19:30:00+01:00") == "2026-11-29T19-30-00+01-00"
    with Session.open(tmp_path / "data" / "windrose.db") as session:
        with pytest.raises(RecordError, match="started"):  # control characters never reach the journal
            start(session, seeded_game(9, started=hostile))
        record = seeded_game(9, started="../../etc/passwd" + "x" * 40)
        start(session, record)
        session.act(record.actions[0])
    [written] = (tmp_path / "data" / BACKUP_FOLDER).iterdir()
    assert written.parent == tmp_path / "data" / BACKUP_FOLDER and written.name.startswith("1-etc-passwdxxx")


def test_a_damaged_database_and_its_backups_give_every_game_back_by_import(
    played: tuple[Path, dict[int, Record]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "windrose.db"
    games = play_games(played, db)
    originals = {path.name: path.read_bytes() for path in (tmp_path / BACKUP_FOLDER).iterdir()}
    assert len(originals) == len(games)
    garbage_page(db)

    with Session.open(db, clock=steady_clock(CLOCK_TEXT)) as session:
        assert session.notices and session.journal.games() == []
    for name in sorted(originals):
        assert main(["import", str(tmp_path / BACKUP_FOLDER / name), "--db", str(db)]) == 0
    new_ids = [int(line) for line in capsys.readouterr().out.split()]

    assert min(new_ids) > max(games)  # numbered past the old backups: no name is reused
    with Session.open(db) as session:
        assert session.notices == []
        for new_id, (old_id, record) in zip(new_ids, sorted(games.items()), strict=True):
            session.load(new_id)
            assert json.loads(session.record_text()) == record.to_json()
            assert session.state.to_json() == replay(record).to_json()
        assert session.resume_last() and json.loads(session.record_text()) == games[max(games)].to_json()
    for name, content in originals.items():  # the old backups are untouched
        assert (tmp_path / BACKUP_FOLDER / name).read_bytes() == content
        json.loads(content)

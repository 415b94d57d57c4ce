"""Power cut during play: SIGKILL the app at 200 seeded moments while it acts through the session.

One driver process per kill plays the scripted games through Session.act and
prints each action once act() has returned. The test reads a seeded number of
those lines, burns a seeded amount of busy work (a count, not a timed wait) so
the kill lands anywhere in the following commit, open, resume or backup write,
then SIGKILLs it. After every kill, a copy of the files as the kill left them
must pass integrity_check, hold every printed action, hold exactly a prefix of
the script, and resume in a fresh Session on the replayed state. The next driver
then starts on the files as the kill left them (WAL recovery included).
"""

from __future__ import annotations

import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from app.backup import BACKUP_FOLDER
from app.games.macao import load_record, replay, score
from app.journal import SIDE_FILES, Journal
from app.session import Session
from tests.reliability.power_cut_driver import game_number, scripted_game

REPO = Path(__file__).resolve().parents[2]
KILLS = 200
SEED = 1129


def run_until_killed(db: Path, lines_before_kill: int, spin: int) -> list[tuple[int, int]]:
    """Start the driver, SIGKILL it after that many action lines; returns every (game, index) it printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.power_cut_driver", str(db)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == "start\n", process.stderr.read()
    lines: list[str] = []
    while len(lines) < lines_before_kill:
        line = process.stdout.readline()
        assert line, f"the driver stopped by itself: {process.stderr.read()}"
        lines.append(line)
    for _ in range(spin):
        pass
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    lines += process.stdout.readlines()  # printed before it died, not yet read
    error = process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    assert process.returncode == -signal.SIGKILL, error
    whole = [line for line in lines if line.endswith("\n")]  # a line the kill cut short was never shown
    return [(int(game), int(index)) for game, index in (line.split() for line in whole)]


def copy_as_left(db: Path, folder: Path) -> Path:
    """The database, its -wal/-shm and backups exactly as the kill left them, in a fresh folder."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for suffix in ("", *SIDE_FILES):
        source = Path(f"{db}{suffix}")
        if source.exists():
            shutil.copyfile(source, folder / f"{db.name}{suffix}")
    if (db.parent / BACKUP_FOLDER).exists():
        shutil.copytree(db.parent / BACKUP_FOLDER, folder / BACKUP_FOLDER)
    return folder / db.name


def check_after_kill(copy: Path, done: dict[int, int], printed_now: list[tuple[int, int]]) -> None:
    with sqlite3.connect(copy) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with Journal.open(copy) as journal:
        rows = journal.games()
        assert [game_number(row.header["started"]) for row in rows] == list(range(len(rows)))
        for row in rows:
            game = game_number(row.header["started"])
            script = scripted_game(game).actions
            stored = journal.timeline(row.id).actions
            assert stored == script[: len(stored)], f"game {game}: the journal is not a prefix of the script"
            assert len(stored) >= done.get(game, -1) + 1, f"game {game}: an action shown as done is lost"
            assert row.finished == (len(stored) == len(script))
            if row is not rows[-1]:
                assert row.finished, f"game {game} was left unfinished before the next one started"
        if printed_now:  # at most the one action committed but not yet printed is extra
            game, index = printed_now[-1]
            last_stored = len(journal.timeline(rows[-1].id).actions)
            assert (game_number(rows[-1].header["started"]), last_stored) in {
                (game, index + 1), (game, index + 2), (game + 1, 0), (game + 1, 1)}

    with Session.open(copy) as session:
        assert session.notices == [], "a good file after a power cut was taken for damaged"
        last = rows[-1]
        prefix = len(session.journal.timeline(last.id).actions)
        resumed = session.resume_last()
        assert resumed == (not last.finished)
        if not resumed:
            session.load(last.id)
        expected = replay(scripted_game(game_number(last.header["started"])), upto=prefix)
        assert session.game_id == last.id
        assert session.state.to_json() == expected.to_json()

    for backup in (copy.parent / BACKUP_FOLDER).glob("*.json"):  # never half a file
        record = load_record(backup.read_text(encoding="utf-8"))
        script = scripted_game(game_number(record.started or "")).actions
        assert record.actions == script[: len(record.actions)], f"{backup.name} is not a prefix of its game"


def test_sigkill_while_playing_through_the_session_loses_nothing_shown(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    db = tmp_path / "data" / "windrose.db"
    db.parent.mkdir()
    done: dict[int, int] = {}  # game -> highest action index printed as done, over all runs
    mid_action_kills = 0
    for _ in range(KILLS):
        lines_before_kill = 0 if rng.random() < 0.15 else rng.randint(1, 12)
        printed = run_until_killed(db, lines_before_kill, spin=rng.randint(0, 400_000))
        for game, index in printed:
            done[game] = max(done.get(game, -1), index)
        mid_action_kills += bool(printed)
        check_after_kill(copy_as_left(db, tmp_path / "check"), done, printed)

    assert mid_action_kills > KILLS // 2
    assert max(done) >= 2, "the kills should span several whole games"
    # The game goes on: the last one is played to its end and scores as the script does.
    with Session.open(db) as session:
        assert session.notices == []
        if not session.resume_last():
            script = scripted_game(max(done) + 1)
            session.new_game("macao", {"started": f"scripted game {max(done) + 1}", "players": script.players,
                                       "wall": script.wall})
        record = scripted_game(game_number(session.document().header.get("started") or ""))
        for action in record.actions[len(session.actions):]:
            session.act(action)
        assert session.is_over
        assert session.game.score_document(session.state) == score(replay(record)).to_json()

"""SIGKILL during `python -m app import`: the journal must survive every kill.

The import commits action by action, as a table does, and (with --verbose)
reports each commit on stderr. The test kills the process at seeded random
points: right after start, or once it has reported k commits (the process is
then somewhere in the following commits, spread further by a random amount of
busy work before the kill). After every kill the database must
open, pass PRAGMA integrity_check, and hold exactly a prefix of the record at
least as long as what was reported committed.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from app.games.macao import dump_record
from app.games.macao.simulate import random_record
from app.journal import Journal

REPO = Path(__file__).resolve().parent.parent
KILLS = 30
SEED = 20261129


def import_until_killed(record_path: Path, db: Path, commits_before_kill: int, spin: int) -> int:
    """Start an import, kill it after that many reported commits; returns the commits seen.

    `spin` empty loop turns between the last report and the kill spread the kill
    over the following commits (a count of work, not a timed wait).
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "import", str(record_path), "--db", str(db), "--verbose"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    seen = 0
    while seen < commits_before_kill:
        line = process.stderr.readline()
        if not line:
            break
        assert line.startswith("committed action"), line
        seen += 1
    for _ in range(spin):
        pass
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    process.stderr.close()
    return seen


def test_sigkill_at_random_moments_leaves_a_valid_prefix(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    record = random_record(seed=5, players=4)
    total = len(record.actions)
    db = tmp_path / "windrose.db"
    reported: dict[str, int] = {}
    for attempt in range(KILLS):
        started = f"attempt {attempt}"
        path = tmp_path / f"record-{attempt}.json"
        path.write_text(dump_record(replace(record, started=started)), encoding="utf-8")
        wait_for = 0 if rng.random() < 0.15 else rng.randint(1, total)
        reported[started] = import_until_killed(path, db, wait_for, spin=int(10 ** rng.uniform(3, 6.3)))

        with sqlite3.connect(db) as check:
            assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]

    assert any(0 < seen < total for seen in reported.values())
    with Journal.open(db) as journal:
        games = journal.games()
        assert len({row.header["started"] for row in games}) == len(games)
        for row in games:
            started = row.header["started"]
            actions = journal.timeline(row.id).actions
            assert row.header["players"] == record.players and row.header["wall"] == record.wall
            assert actions == record.actions[: len(actions)], f"{started}: not a prefix of the record"
            assert len(actions) >= reported[started], f"{started}: lost a reported commit"
            assert row.finished == (len(actions) == total)
        missing = [s for s, seen in reported.items() if s not in {row.header["started"] for row in games}]
        assert all(reported[s] == 0 for s in missing), "a game that reported commits is missing"

    # The journal goes on working: a full import after all those kills completes.
    final = tmp_path / "record-final.json"
    final.write_text(dump_record(record), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "app", "import", str(final), "--db", str(db)],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    with Journal.open(db) as journal:
        assert journal.timeline(int(result.stdout)).actions == record.actions

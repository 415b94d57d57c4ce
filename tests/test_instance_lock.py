"""One Windrose per journal: a second process (the app or a writing CLI command) is refused, exit 2."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.games.macao import dump_record
from app.games.macao.simulate import random_record
from app.instance_lock import InstanceLock, InstanceLockError, lock_path

REPO = Path(__file__).resolve().parent.parent
HOLDER = """
import sys
from pathlib import Path
from app.instance_lock import InstanceLock
lock = InstanceLock(Path(sys.argv[1]))
lock.acquire()
print("held", flush=True)
sys.stdin.read()  # hold until the test closes our stdin (or kills us)
"""


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A journal whose lock another real process holds."""
    db = tmp_path / "windrose.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], cwd=REPO, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    yield db, holder
    if holder.poll() is None:
        holder.kill()
    holder.wait(timeout=30)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "WINDROSE_CONFIG": ""})


def test_a_second_lock_names_the_holder(held: tuple[Path, subprocess.Popen[str]]) -> None:
    db, holder = held
    with pytest.raises(InstanceLockError) as refused:
        InstanceLock(db).acquire()
    assert f"pid {holder.pid}" in str(refused.value)
    assert str(db) in str(refused.value)


def test_a_killed_holder_leaves_no_stale_lock(held: tuple[Path, subprocess.Popen[str]]) -> None:
    db, holder = held
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    assert lock_path(db).exists()
    with InstanceLock(db) as lock:  # the kernel dropped the dead process's lock
        assert lock.path.read_text(encoding="utf-8").startswith(f"pid {os.getpid()}:")


def test_the_app_and_import_exit_2_while_another_holds_the_journal(
    held: tuple[Path, subprocess.Popen[str]], tmp_path: Path
) -> None:
    db, holder = held
    record = tmp_path / "game.json"
    record.write_text(dump_record(random_record(seed=3, players=2)), encoding="utf-8")
    for args in (("import", str(record), "--db", str(db)), ("--db", str(db), "--manual-dice")):
        result = run(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert f"in use by another Windrose (pid {holder.pid}" in result.stderr
        assert "Traceback" not in result.stderr
    assert not db.exists()  # nothing was written meanwhile


def test_export_reads_while_the_app_holds_the_journal(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    record = tmp_path / "game.json"
    record.write_text(dump_record(random_record(seed=3, players=2)), encoding="utf-8")
    assert run("import", str(record), "--db", str(db)).returncode == 0
    with InstanceLock(db):
        result = run("export", "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert '"actions"' in result.stdout

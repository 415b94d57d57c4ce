"""The real app, started as the kiosk unit starts it, tells systemd it is ready.

Without READY=1 a Type=notify unit is killed and restarted after its start
timeout; without the watchdog pings a healthy app would be restarted too.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start_and_listen(tmp_path: Path) -> list[bytes]:
    """Start `python -m app` as the unit does; the first two sd_notify messages it sends."""
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(120)  # a bound on waiting, not a delay: the app answers as soon as it is up
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON",
               KIVY_HOME=str(tmp_path / "kivy"), NOTIFY_SOCKET=address, WATCHDOG_USEC="200000")
    env.pop("WATCHDOG_PID", None)
    app = subprocess.Popen([sys.executable, "-m", "app", "--db", str(tmp_path / "games.db"), "--manual-dice"],
                           cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        messages = [listener.recv(256), listener.recv(256)]
    finally:
        app.terminate()
        app.wait(timeout=60)
        listener.close()
    return messages


def test_the_app_says_ready_and_pings_the_watchdog(tmp_path: Path) -> None:
    messages = start_and_listen(tmp_path)
    assert messages[0].startswith(b"READY=1")
    assert messages[1] == b"WATCHDOG=1"


def test_a_damaged_journal_is_set_aside_and_the_app_still_starts(tmp_path: Path) -> None:
    (tmp_path / "games.db").write_bytes(b"this is not a database" * 100)
    messages = start_and_listen(tmp_path)
    assert messages[0].startswith(b"READY=1")
    assert [p.name for p in tmp_path.glob("games.db.damaged-*")], "the damaged file was not set aside"

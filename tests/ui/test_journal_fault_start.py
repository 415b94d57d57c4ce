"""A games file that cannot be opened at all: the kiosk shows why on screen and tells systemd it is
up, instead of exiting into a black screen and a restart loop."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_unopenable_journal_gets_a_screen_not_a_restart_loop(tmp_path: Path) -> None:
    blocked = tmp_path / "data"
    blocked.write_text("a file where the data folder should be", encoding="utf-8")  # a real ENOTDIR
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(120)  # a bound on waiting, not a delay: the app answers as soon as it is up
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy"),
               NOTIFY_SOCKET=address, WINDROSE_CONFIG="")
    env.pop("WATCHDOG_USEC", None)
    app = subprocess.Popen([sys.executable, "-m", "app", "--db", str(blocked / "games.db"), "--manual-dice"],
                           cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        ready = listener.recv(256)
    finally:
        app.terminate()
        _, stderr = app.communicate(timeout=60)
        listener.close()
    assert ready.startswith(b"READY=1")
    assert f"cannot open the game journal {blocked / 'games.db'}" in stderr
    assert "Traceback" not in stderr

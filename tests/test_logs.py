"""Logging reaches stderr (journald) from the first line to the last, Kivy's lines and tracebacks included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.config import ConfigError, load_config

REPO = Path(__file__).resolve().parent.parent
AFTER_KIVY = """
import sys
from app.logs import start_logging
start_logging("info")
from app.ui.launch import configure_kivy
configure_kivy({"window_width": 800, "window_height": 480, "fullscreen": False})
from kivy.logger import Logger
from kivy.core.window import Window  # the window is up: Kivy would own stderr by now
Logger.error("Probe: a Kivy error after the window opened")
print("plain stderr after the window opened", file=sys.stderr)
raise RuntimeError("an unexpected fault")
"""


def test_kivy_lines_and_an_unexpected_traceback_reach_stderr(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_LOG_MODE": "KIVY"}
    result = subprocess.run([sys.executable, "-c", AFTER_KIVY], cwd=REPO, capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode == 1
    assert "ERROR kivy: Probe: a Kivy error after the window opened" in result.stderr
    assert "plain stderr after the window opened" in result.stderr
    assert "CRITICAL windrose: unexpected error, the app stops" in result.stderr
    assert "Traceback" in result.stderr and "RuntimeError: an unexpected fault" in result.stderr
    assert not list((tmp_path / "kivy").glob("logs/*"))  # nothing hidden in Kivy's own log file


def test_the_log_level_comes_from_the_settings(tmp_path: Path) -> None:
    settings = tmp_path / "config.toml"
    settings.write_text('[log]\nlevel = "warning"\n', encoding="utf-8")
    assert load_config(settings)["log"]["level"] == "warning"
    settings.write_text('[log]\nlevel = "loud"\n', encoding="utf-8")
    try:
        load_config(settings)
    except ConfigError as err:
        assert str(err).startswith(f"{settings}: [log] level: expected one of")
    else:
        raise AssertionError("an unknown level was accepted")

"""Where Windrose keeps its files on disk (XDG base directories)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP_DIR_NAME = "windrose"
DB_FILE_NAME = "windrose.db"


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's data directory for Windrose: $XDG_DATA_HOME/windrose.

    Falls back to ~/.local/share/windrose when XDG_DATA_HOME is unset or not an
    absolute path (the XDG spec says relative values must be ignored).
    """
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME", "")
    if not base or not os.path.isabs(base):
        home = env.get("HOME") or str(Path.home())
        base = os.path.join(home, ".local", "share")
    return Path(base) / APP_DIR_NAME


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    """The journal database used when neither --db nor the config names one."""
    return data_dir(env) / DB_FILE_NAME

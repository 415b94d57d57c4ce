"""Where Windrose keeps its files on disk (XDG base directories)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import suppress
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


def json_files(folder: Path) -> list[Path]:
    """The .json files of a folder, newest first (none when the folder is missing or unreadable):
    what the touchscreen's file lists offer, with no keyboard or file dialog."""
    dated: list[tuple[float, str, Path]] = []
    with suppress(OSError):  # no folder, or it (or a file in it) went away while being listed
        for path in folder.iterdir():
            if path.suffix.lower() == ".json" and path.is_file():
                dated.append((-path.stat().st_mtime, path.name, path))
    return [path for _age, _name, path in sorted(dated)]

"""The rolling backup: every game also kept as a record file the player can import.

The journal is the truth, but a damaged database file would take every game
with it. So after each round, and when a game ends, the session writes the game
as its game's plain record or sheet file (`python -m app import` reads it back) to
`<data dir>/backups/<game id>-<started>.json`. Each write goes to a temporary
file that is synced and then renamed over the old copy: a power cut leaves the
previous copy or the new one, never half a file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from vision.atomic_file import write_atomically

BACKUP_FOLDER = "backups"
MAX_NAME_PART = 40  # characters of user text kept in a file name
_LEADING_ID = re.compile(r"^(\d+)-")


def safe_name_part(text: str, limit: int = MAX_NAME_PART) -> str:
    """User text made safe for any file system: ASCII letters, digits, + - _ only; never empty.

    Slashes, dots, spaces and control characters become dashes, so a name can
    neither leave the folder nor hide itself.
    """
    cleaned = re.sub(r"[^0-9A-Za-z+_-]+", "-", text).strip("-_")[:limit].strip("-_")
    return cleaned or "undated"


def backup_path(folder: Path, game_id: int, started: str | None) -> Path:
    return folder / f"{game_id}-{safe_name_part(started or '')}.json"


def write_backup(folder: Path, game_id: int, started: str | None, record_text: str) -> Path:
    """Write (or replace) one game's backup record; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = backup_path(folder, game_id, started)
    write_atomically(path, record_text)
    return path


def backup_files(folder: Path) -> list[tuple[int, Path]]:
    """Each backup record in the folder with the game id its name starts with, by id."""
    try:
        entries = [Path(entry.path) for entry in os.scandir(folder) if entry.name.endswith(".json")]
    except OSError:
        return []
    found = [(int(match.group(1)), path) for path in entries if (match := _LEADING_ID.match(path.name))]
    return sorted(found)


def set_restored(path: Path, new_id: int) -> Path:
    """Rename a backup once its game is back in the journal under another id, so it is not offered again."""
    target = path.with_name(f"{path.name}.restored-as-{new_id}")
    os.replace(path, target)
    return target


def highest_backup_id(folder: Path) -> int:
    """The largest game id among the backup files (0 if none): new games are numbered past it."""
    try:
        names = [entry.name for entry in os.scandir(folder) if entry.name.endswith(".json")]
    except OSError:
        return 0
    ids = [int(match.group(1)) for name in names if (match := _LEADING_ID.match(name))]
    return max(ids, default=0)

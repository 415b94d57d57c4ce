"""Replacing a file whole: what the table keeps must survive a crash, a power cut or a full disk.

A file is written beside its place under another name, synced, renamed over the old one, and
the folder synced, so that after any of those the old file or the new one is there, never half
of one and never an empty one. The reader's files (empty tray, looks, calibration, kept rolls,
refits) and the app's (backups, exports, settings, the card catalogue) all go this way.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

PARTIAL_SUFFIX = ".partial"


def write_atomically(path: Path, data: bytes | str) -> None:
    """Replace `path` with `data` (text as UTF-8). OSError when the disk refuses: the old file is
    left as it was and the partial one removed. Each writer (process and thread) writes its own
    partial file, so two writing one file at once leave one whole file, whichever came last."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}{PARTIAL_SUFFIX}")
    try:
        with temporary.open("wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make the renames in `folder` durable: a power cut must not undo them."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)

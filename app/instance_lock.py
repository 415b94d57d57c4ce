"""One Windrose per journal: an OS-level lock on a file beside the database.

Two processes writing one journal (the kiosk plus a copy started over SSH)
interleave their actions until the game no longer replays. SQLite's own
locking only orders single writes, so the app and the command-line commands
that write take `fcntl.flock` on `<journal>.lock` for as long as they run. The
kernel drops the lock when the process ends, however it ends (power cut,
SIGKILL), so a stale lock file never blocks a restart. The file holds the
holder's pid and command line, for the message the second instance prints.
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

LOCK_SUFFIX = ".lock"
MAX_HOLDER_TEXT = 300  # bytes of the holder's description read back


class InstanceLockError(Exception):
    """The journal is in use by another process, or its lock file cannot be made."""


class InstanceLockHeld(InstanceLockError):
    """Another process holds the journal's lock."""


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + LOCK_SUFFIX)


def this_process() -> str:
    """Who takes the lock, as the second instance will read it: pid and command line."""
    command = " ".join(getattr(sys, "orig_argv", sys.argv))
    return f"pid {os.getpid()}: {command}"


class InstanceLock:
    """Held from `acquire` until `release` (or the process ends)."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = Path(db_path)
        self.path = lock_path(self.db_path)
        self._descriptor: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise InstanceLockError naming who holds it."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as err:
            raise InstanceLockError(
                f"{self.path}: the lock file for the game journal cannot be made ({err.strerror or err})"
            ) from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(descriptor)
            os.close(descriptor)
            raise InstanceLockHeld(
                f"the game journal {self.db_path} is in use by another Windrose ({holder}); "
                "close that one first (only one may write a journal at a time)"
            ) from None
        except OSError as err:
            os.close(descriptor)
            raise InstanceLockError(f"{self.path}: cannot be locked ({err.strerror or err})") from None
        self._descriptor = descriptor
        _write_holder(descriptor)

    def release(self) -> None:
        """Let go of the lock; the file stays (removing it would race with a newcomer)."""
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the last descriptor releases the flock
            self._descriptor = None

    def __enter__(self) -> InstanceLock:
        self.acquire()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def _read_holder(descriptor: int) -> str:
    try:
        text = os.pread(descriptor, MAX_HOLDER_TEXT, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "a process that has not yet written its name"


def _write_holder(descriptor: int) -> None:
    """Best effort: the lock is what counts, the text only helps the message."""
    data = (this_process() + "\n").encode("utf-8", "replace")
    try:
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, data, 0)
    except OSError:
        pass

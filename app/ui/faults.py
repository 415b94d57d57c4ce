"""What the table reads when a tap could not be saved: the fault in its words, and what to do.

A tap that reaches the journal, the settings file or the exports may meet a
full or read-only memory card, or another program holding the games file. The
session has then changed nothing, so the notice says so, names the likely
cause and the next step, in the table's language; the app carries on.
"""

from __future__ import annotations

import errno
import sqlite3

from app.journal import JournalError
from app.session import SessionError
from app.sticks import Stick
from app.ui.i18n import _

# What a tap may meet on the way to the disk; anything else is a bug (logged with its traceback).
TAP_FAULTS: tuple[type[Exception], ...] = (JournalError, SessionError, OSError, sqlite3.Error)

_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
_READ_ONLY_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}


def fault_kind(error: BaseException) -> str:
    """"full", "read_only", "locked", "refused" (a request the session turned down) or "other"."""
    if isinstance(error, SessionError):
        return "refused"
    cause = error if isinstance(error, OSError | sqlite3.Error) else error.__cause__
    if isinstance(cause, OSError):
        if cause.errno in _FULL_ERRNOS:
            return "full"
        if cause.errno in _READ_ONLY_ERRNOS:
            return "read_only"
    code = getattr(cause, "sqlite_errorcode", 0) & 0xFF
    text = str(error)
    if code == sqlite3.SQLITE_FULL or "disk is full" in text:
        return "full"
    if code == sqlite3.SQLITE_READONLY or "read-only" in text or "readonly" in text:
        return "read_only"
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in text:
        return "locked"
    return "other"


def fault_text(error: BaseException, game_saved: bool = False) -> str:
    """The notice for a tap that failed on a fault, in the active language. `game_saved`: the
    action itself was committed and only a file written after it (the card list) failed."""
    if game_saved:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return _("The game is saved, but a file beside it could not be written ({reason}). "
                 "Free some space, or restart the Pi if it keeps failing.").format(reason=reason)
    kind = fault_kind(error)
    if kind == "full":
        return _("The memory card is full, so this was not saved; the game is as it was. "
                 "Free some space (old exports or photos) and tap again.")
    if kind == "read_only":
        return _("The memory card cannot be written just now, so this was not saved; the game is as it was. "
                 "Restart the Pi; if this comes back, check or replace the card.")
    if kind == "locked":
        return _("Another program holds the saved games, so this was not saved; the game is as it was. "
                 "Close the other Windrose or restart the Pi, then tap again.")
    if kind == "refused":
        return _("That cannot be done: {reason}").format(reason=error)
    return _("This could not be saved ({reason}); the game is as it was. "
             "Tap again, or restart the Pi if it keeps failing.").format(reason=error)


def stick_fault_text(stick: Stick, error: OSError) -> str:
    """Why an export to a USB stick wrote nothing, in the table's words."""
    if error.errno in _FULL_ERRNOS:
        return _("The stick {label} is full: nothing was written. Make room on it or use another stick.").format(
            label=stick.label)
    if error.errno in _READ_ONLY_ERRNOS:
        return _("The stick {label} cannot be written (it is read-only, or locked for Windrose): "
                 "nothing was written.").format(label=stick.label)
    return _("The stick {label} could not be written ({reason}): nothing was written. "
             "Is it still plugged in?").format(label=stick.label, reason=error.strerror or error)

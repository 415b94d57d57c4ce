"""Logging to stderr from the first line to the last, where journald (and a terminal) reads it.

Kivy, left to itself, swaps `sys.stderr` for a stream into its own log file;
`configure_kivy` therefore runs Kivy in its PYTHON log mode, so Kivy's lines
and any traceback after the window opened come here too. Unexpected
exceptions (any thread) are logged with their traceback before the process
goes on or ends.
"""

from __future__ import annotations

import logging
import sys
import threading
from types import TracebackType

LEVELS = ("debug", "info", "warning", "error")
FORMAT = "%(levelname)s %(name)s: %(message)s"  # journald stamps the time itself
_HANDLER_NAME = "windrose-stderr"


def start_logging(level: str = "info") -> None:
    """One stderr handler on the root logger (once per process), and hooks for uncaught exceptions."""
    root = logging.getLogger()
    if not any(handler.get_name() == _HANDLER_NAME for handler in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(handler)
    set_level(level)
    sys.excepthook = _log_uncaught
    threading.excepthook = _log_uncaught_in_thread


def set_level(level: str) -> None:
    """The level named in config.toml's [log] level."""
    logging.getLogger().setLevel(level.upper() if level in LEVELS else logging.INFO)


def _log_uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, trace)
        return
    logging.getLogger("windrose").critical("unexpected error, the app stops", exc_info=(kind, error, trace))


def _log_uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    name = args.thread.name if args.thread is not None else "?"
    error = args.exc_value  # may be None (threading's documentation); then there is no traceback to log
    logging.getLogger("windrose").error(
        "unexpected error in thread %s", name,
        exc_info=(args.exc_type, error, args.exc_traceback) if error is not None else False)

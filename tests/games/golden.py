"""Finding moments inside the golden records, for tests that start mid-game."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from app.games.macao import GameState, Record, load_record, replay

RECORDS = Path(__file__).resolve().parents[1] / "records"


@lru_cache(maxsize=None)
def _text(name: str) -> str:
    return (RECORDS / f"{name}.json").read_text()


def record(name: str) -> Record:
    """A fresh copy of a golden record (callers may change it)."""
    return load_record(_text(name))


def position(name: str, nth: int = 0, **match: Any) -> int:
    """Index of the nth action whose fields equal `match` (e.g. type="wall", player="white")."""
    actions = record(name).actions
    hits = [i for i, a in enumerate(actions) if all(a.get(k) == v for k, v in match.items())]
    if len(hits) <= nth:
        raise LookupError(f"{name}: fewer than {nth + 1} actions match {match}")
    return hits[nth]


def before(name: str, nth: int = 0, **match: Any) -> GameState:
    """The state just before the nth matching action."""
    return replay(record(name), upto=position(name, nth, **match))


def after(name: str, nth: int = 0, **match: Any) -> GameState:
    """The state just after the nth matching action."""
    return replay(record(name), upto=position(name, nth, **match) + 1)

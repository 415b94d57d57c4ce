"""Small shared pieces of the reliability tests: seeded games and injected clocks."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from app.games.macao import Record
from app.games.macao.simulate import random_record
from app.session import Session


def seeded_game(seed: int, players: int = 2, started: str | None = None) -> Record:
    record = random_record(seed=seed, players=players)
    if started is not None:
        record.started = started
    return record


def start(session: Session, record: Record) -> int:
    return session.new_game("macao", {"started": record.started, "players": record.players, "wall": record.wall})


def clock_from(times: Iterator[str]) -> Callable[[], str]:
    """A clock that reads the given display times one call after another."""
    return lambda: next(times)


def steady_clock(text: str = "2026-11-29T21:15:00+01:00") -> Callable[[], str]:
    return lambda: text

"""Fixtures of the seam tests: a small test game registered beside the real ones, and a session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import app.games
from app.session import Session
from tests.seam.tally import FORMAT


@pytest.fixture
def tally_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(app.games.GAMES, "tally", app.games.Registered("tests.seam.tally:GAME", (FORMAT,)))
    app.games.game.cache_clear()
    yield
    app.games.game.cache_clear()


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Session.open(tmp_path / "windrose.db") as opened:
        yield opened

"""Fixtures for the UI tests: a fresh app on the offscreen window, and a way to fast-forward a game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.macao.simulate import RandomTable
from tests.ui.harness import UiHarness, make_context


@pytest.fixture
def ui(tmp_path: Path) -> Iterator[UiHarness]:
    harness = UiHarness(make_context(tmp_path))
    # These tests type each card whole ("check costs"); tests/ui/test_cards_by_tribute.py plays
    # the default, one tribute tap a card.
    harness.app.context.settings.check_costs = True
    yield harness
    harness.close()


class Table:
    """A seeded game whose actions are fed straight to the session (no taps), to reach a state fast."""

    def __init__(self, ui: UiHarness, seed: int = 5, players: int = 2) -> None:
        self.ui = ui
        self.random = RandomTable(seed, players=players, activity=0.7)
        session = ui.app.session
        session.new_game("macao", {"started": "2026-11-29T19:30:00+01:00", "players": self.random.players,
                                   "wall": list(self.random.wall)})

    def advance(self, until: Callable[[Any], bool]) -> None:
        while not until(self.random.state):
            self.random.step()
            self.ui.app.session.act(self.random.actions[-1])
        self.ui.app.go("game")
        self.ui.idle()


@pytest.fixture
def table(ui: UiHarness) -> Table:
    return Table(ui)

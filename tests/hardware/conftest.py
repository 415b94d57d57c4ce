"""Fixtures for the hardware tests: gpiozero's MockFactory and a hand-driven clock."""

from __future__ import annotations


import pytest


class ManualClock:
    """A clock the test moves by hand; no sleeps anywhere."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()

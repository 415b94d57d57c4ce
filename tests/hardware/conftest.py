"""Fixtures for the hardware tests: gpiozero's MockFactory and a hand-driven clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


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
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default factory, with the previous factory restored after."""
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()

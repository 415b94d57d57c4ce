"""The roll button: a gpiozero Button whose bounce and hold are judged on an injected clock.

gpiozero's own bounce and hold handling run on wall-clock threads, which tests
cannot drive; judging edges here on the app's clock keeps the behaviour the
same on the Pi and under gpiozero's MockFactory.

A press counts the moment it arrives, if the contact had been quiet for
`debounce_s` before it (so the chatter of one press, or of its release, adds
nothing). Keeping the button down for `hold_time_s` then reports a hold.
Callbacks run on the thread that saw the edge (gpiozero's) or called `poll`;
the UI must post them to its own thread.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

from gpiozero import Button, Factory

from hardware.gpio import GpioUnavailable, open_device

__all__ = ["RollButton", "GpioUnavailable"]


class RollButton:
    """Turns the edges of one GPIO button into 'pressed' and 'held' callbacks."""

    def __init__(self, pin: int, pull_up: bool, debounce_s: float, hold_time_s: float,
                 clock: Callable[[], float], on_press: Callable[[], None],
                 on_hold: Callable[[], None], pin_factory: Factory | None = None) -> None:
        """Open the pin; raises GpioUnavailable when it is busy or there is no GPIO."""
        self._debounce_s = debounce_s
        self._hold_time_s = hold_time_s
        self._clock = clock
        self._on_press = on_press
        self._on_hold = on_hold
        self._lock = threading.Lock()
        self._last_edge = -math.inf
        self._down_since: float | None = None
        self._hold_reported = False
        self._device = open_device(
            "roll button", pin,
            # hold_time=0: gpiozero's own hold thread (unused here) then never sits in a
            # wall-clock wait, so closing right after a press, or with the button stuck
            # down, does not block for a second.
            lambda: Button(pin, pull_up=pull_up, bounce_time=None, hold_time=0, pin_factory=pin_factory))
        self._device.when_pressed = self._pressed
        self._device.when_released = self._released

    def _pressed(self) -> None:
        now = self._clock()
        with self._lock:
            quiet = now - self._last_edge >= self._debounce_s
            self._last_edge = now
            if not quiet:
                return
            self._down_since = now
            self._hold_reported = False
        self._on_press()

    def _released(self) -> None:
        now = self._clock()
        with self._lock:
            self._last_edge = now
            fire = self._hold_due(now)
        if fire:
            self._on_hold()

    def poll(self, now: float) -> None:
        """Report a hold once the button has been down long enough (call a few times a second)."""
        with self._lock:
            if self._device.is_pressed:
                fire = self._hold_due(now)
            else:
                fire = False
                if now - self._last_edge >= self._debounce_s:
                    self._down_since = None  # released for good: this press is over
        if fire:
            self._on_hold()

    def _hold_due(self, now: float) -> bool:
        """True once per press when it has lasted hold_time_s (caller holds the lock)."""
        if self._down_since is None or self._hold_reported:
            return False
        if now - self._down_since < self._hold_time_s:
            return False
        self._hold_reported = True
        return True

    def close(self) -> None:
        self._device.close()

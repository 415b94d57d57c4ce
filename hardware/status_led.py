"""The status light: off when idle, blinking while the dice settle, on while a reading waits.

Blinking is timed by `poll(now)` on the app's clock rather than by gpiozero's
blink thread, so the light changes exactly with the roll flow's state and
tests can check every step without waiting.
"""

from __future__ import annotations

from typing import Literal

from gpiozero import LED, Factory

from hardware.gpio import open_device

LightPattern = Literal["off", "blink", "on"]


class StatusLed:
    """One LED on a GPIO pin showing a LightPattern."""

    def __init__(self, pin: int, active_high: bool, blink_period_s: float,
                 pin_factory: Factory | None = None) -> None:
        """Open the pin; raises GpioUnavailable when it is busy or there is no GPIO."""
        self._half_period = blink_period_s / 2
        self._pattern: LightPattern = "off"
        self._blink_started = 0.0
        self._device = open_device(
            "status light", pin,
            lambda: LED(pin, active_high=active_high, initial_value=False, pin_factory=pin_factory))

    @property
    def pattern(self) -> LightPattern:
        return self._pattern

    @property
    def lit(self) -> bool:
        return bool(self._device.is_lit)

    def show(self, pattern: LightPattern, now: float) -> None:
        """Switch to a pattern; blinking starts with the light on."""
        if pattern == self._pattern:
            return
        self._pattern = pattern
        self._blink_started = now
        self._apply(pattern != "off")

    def poll(self, now: float) -> None:
        """Advance the blinking (call at least twice per blink period)."""
        if self._pattern != "blink":
            return
        half_periods = int((now - self._blink_started) // self._half_period)
        self._apply(half_periods % 2 == 0)

    def _apply(self, lit: bool) -> None:
        if lit:
            self._device.on()
        else:
            self._device.off()

    def close(self) -> None:
        self._device.close()

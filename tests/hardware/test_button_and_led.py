"""The roll button and status light on gpiozero's MockFactory pins, with a hand-driven clock."""

from __future__ import annotations

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from hardware.button import GpioUnavailable, RollButton
from hardware.status_led import StatusLed

PIN = 17
LED_PIN = 27


class Events:
    def __init__(self) -> None:
        self.log: list[str] = []

    def press(self) -> None:
        self.log.append("press")

    def hold(self) -> None:
        self.log.append("hold")


def make_button(clock, events: Events, debounce_s: float = 0.05, hold_time_s: float = 1.5) -> RollButton:
    return RollButton(PIN, pull_up=True, debounce_s=debounce_s, hold_time_s=hold_time_s, clock=clock,
                      on_press=events.press, on_hold=events.hold)


def edges(pin, clock, steps: list[tuple[float, str]]) -> None:
    """Drive the pin: (seconds after the previous edge, 'down' or 'up'); pull-up, so down is low."""
    for delay, level in steps:
        clock.advance(delay)
        pin.drive_low() if level == "down" else pin.drive_high()


def test_a_clean_press_is_one_roll(mock_factory: MockFactory, clock) -> None:
    events = Events()
    make_button(clock, events)
    edges(mock_factory.pin(PIN), clock, [(0, "down"), (0.2, "up")])
    assert events.log == ["press"]


def test_a_bouncing_contact_gives_exactly_one_roll(mock_factory: MockFactory, clock) -> None:
    events = Events()
    make_button(clock, events)
    chatter = [(0.001, "up"), (0.002, "down"), (0.001, "up"), (0.003, "down")]
    release_chatter = [(0.002, "down"), (0.001, "up"), (0.004, "down"), (0.002, "up")]
    edges(mock_factory.pin(PIN), clock, [(0, "down"), *chatter, (0.25, "up"), *release_chatter])
    assert events.log == ["press"]
    edges(mock_factory.pin(PIN), clock, [(0.5, "down"), *chatter, (0.2, "up")])
    assert events.log == ["press", "press"]


def test_a_press_within_the_debounce_time_after_release_is_ignored(mock_factory: MockFactory, clock) -> None:
    events = Events()
    make_button(clock, events, debounce_s=0.05)
    edges(mock_factory.pin(PIN), clock, [(0, "down"), (0.2, "up"), (0.049, "down"), (0.2, "up"),
                                         (0.051, "down")])
    assert events.log == ["press", "press"]


def test_holding_reports_one_hold_while_still_down(mock_factory: MockFactory, clock) -> None:
    events = Events()
    button = make_button(clock, events, hold_time_s=1.5)
    pin = mock_factory.pin(PIN)
    edges(pin, clock, [(0, "down"), (0.001, "up"), (0.001, "down")])  # bouncing, then held
    button.poll(clock.advance(1.0))
    assert events.log == ["press"]
    button.poll(clock.advance(0.6))
    button.poll(clock.advance(0.5))
    assert events.log == ["press", "hold"]
    edges(pin, clock, [(0.3, "up")])
    assert events.log == ["press", "hold"]


def test_a_long_press_released_before_any_poll_still_counts_as_hold(mock_factory: MockFactory, clock) -> None:
    events = Events()
    button = make_button(clock, events, hold_time_s=1.5)
    edges(mock_factory.pin(PIN), clock, [(0, "down"), (1.6, "up")])
    button.poll(clock.advance(5))
    assert events.log == ["press", "hold"]


def test_short_press_is_never_a_hold(mock_factory: MockFactory, clock) -> None:
    events = Events()
    button = make_button(clock, events)
    edges(mock_factory.pin(PIN), clock, [(0, "down"), (0.3, "up")])
    for _ in range(5):
        button.poll(clock.advance(1.0))
    assert events.log == ["press"]


def test_a_busy_pin_is_reported_with_its_number(mock_factory: MockFactory, clock) -> None:
    other = Button(PIN)  # held open by someone else
    with pytest.raises(GpioUnavailable, match="roll button on GPIO17: the pin is busy"):
        make_button(clock, Events())
    other.close()
    make_button(clock, Events())  # free again: opens


def test_no_gpio_at_all_is_reported_plainly(monkeypatch: pytest.MonkeyPatch, clock) -> None:
    from gpiozero import Device
    previous = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    monkeypatch.setitem(__import__("sys").modules, "lgpio", None)  # as on a machine without it
    try:
        with pytest.raises(GpioUnavailable, match="GPIO17: this machine has no usable GPIO"):
            make_button(clock, Events())
    finally:
        Device.pin_factory = previous


def test_led_is_off_idle_blinks_while_settling_and_stays_on_for_a_proposal(
        mock_factory: MockFactory, clock) -> None:
    led = StatusLed(LED_PIN, active_high=True, blink_period_s=0.6)
    pin = mock_factory.pin(LED_PIN)
    assert pin.state is False or pin.state == 0
    led.show("blink", clock.now)
    seen = []
    for _ in range(6):
        led.poll(clock.advance(0.15))
        seen.append(bool(pin.state))
    assert seen == [True, False, False, True, True, False]
    led.show("on", clock.now)
    led.poll(clock.advance(0.3))
    assert pin.state and led.lit
    led.show("off", clock.now)
    led.poll(clock.advance(0.3))
    assert not pin.state and led.pattern == "off"


def test_active_low_led_drives_the_pin_low_to_light(mock_factory: MockFactory, clock) -> None:
    led = StatusLed(LED_PIN, active_high=False, blink_period_s=0.6)
    led.show("on", clock.now)
    assert not mock_factory.pin(LED_PIN).state and led.lit


def test_busy_led_pin_is_reported(mock_factory: MockFactory, clock) -> None:
    first = StatusLed(LED_PIN, active_high=True, blink_period_s=0.6)
    with pytest.raises(GpioUnavailable, match="status light on GPIO27: the pin is busy"):
        StatusLed(LED_PIN, active_high=True, blink_period_s=0.6)
    first.close()

"""Builds the dice station from the settings: camera, reader, settling, button, light, ticker.

The UI calls `build_dice_station` once, wraps its two callbacks in
Clock.schedule_once (they arrive on the ticker thread or gpiozero's), binds
the space bar and its on-screen button to `station.service.roll` (and a long
press to `reread`), then `start()`s it and `stop()`s it on exit.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpiozero import Factory

from app.config import Config
from app.dice_service import DiceService, DiceStatus, RollTimings, TickThread
from hardware.button import RollButton
from hardware.camera import CameraSettings, make_camera
from hardware.gpio import GpioUnavailable, LgpioChip
from hardware.status_led import StatusLed
from vision.calibrate import Calibration, CalibrationError, default_calibration_path, load_calibration
from vision.params import VisionParams
from vision.learned_params import LearnedParams
from vision.reader import read_dice
from vision.settle import SettleDetector, SettleParams, vote


def camera_settings(config: Config) -> CameraSettings:
    camera = config["camera"]
    return CameraSettings(
        source=camera["source"], device=camera["device"], folder=camera["folder"], loop=camera["loop"],
        main_size=(camera["width"], camera["height"]),
        motion_size=(camera["motion_width"], camera["motion_height"]),
        frame_rate=camera["frame_rate"], exposure_settle_frames=camera["exposure_settle_frames"],
        focus_dioptres=camera["focus_dioptres"])


def roll_timings(config: Config) -> RollTimings:
    settle = config["vision.settle"]
    return RollTimings(motion_timeout_s=config["camera"]["motion_timeout_s"],
                       settle_timeout_s=settle["max_wait_s"], vote_frames=settle["min_vote_frames"],
                       motion_fraction=settle["changed_fraction"],
                       retry_initial_s=config["camera"]["retry_initial_s"],
                       retry_max_s=config["camera"]["retry_max_s"])


def load_table_calibration(params: VisionParams, report: Callable[[str], None]) -> Calibration | None:
    """The stored colour calibration; None (built-in colours) when there is none or it is broken."""
    path = default_calibration_path(params)
    if not path.exists():
        return None
    try:
        return load_calibration(path)
    except CalibrationError as exc:
        report(f"{exc}; using the built-in dice colours until the table is calibrated again")
        return None


@dataclass
class DiceStation:
    """Everything that turns a physical roll into a `roll` action, started and stopped as one."""

    service: DiceService
    ticker: TickThread
    button: RollButton | None = None
    led: StatusLed | None = None
    problems: list[str] = field(default_factory=list)

    def start(self) -> None:
        self.ticker.start()

    def stop(self) -> bool:
        """End the ticker thread and release camera, light and button; True when all ended."""
        stopped = self.ticker.stop()
        self.service.close()
        for device in (self.button, self.led):
            if device is not None:
                device.close()
        return stopped


def build_dice_station(config: Config, on_status: Callable[[DiceStatus], None],
                       on_roll: Callable[[dict[str, Any]], None], report: Callable[[str], None],
                       clock: Callable[[], float] = time.monotonic,
                       pin_factory: Factory | None = None) -> DiceStation:
    """Wire the parts named by the settings. Each part that cannot start is reported once
    through `report` and left out; the on-screen button and manual entry always remain.
    """
    problems: list[str] = []

    def note(problem: str) -> None:
        problems.append(problem)
        report(problem)

    vision_params = VisionParams.from_table(dict(config["vision"]))
    settle_params = SettleParams.from_table(config["vision.settle"])
    learned_params = LearnedParams.from_table(dict(config["vision.learned"]))
    calibration = load_table_calibration(vision_params, note)
    if pin_factory is None:
        try:
            pin_factory = LgpioChip.pin_factory(config["button"]["gpio_chip"])
        except GpioUnavailable as exc:
            note(str(exc))
    led = _open_led(config, pin_factory, note)
    settings = camera_settings(config)
    service = DiceService(
        make_camera=lambda: make_camera(settings),
        reader=functools.partial(read_dice, params=vision_params, expect="macao", calibration=calibration,
                                 learned=learned_params),
        new_settler=lambda: SettleDetector(settle_params),
        vote=functools.partial(vote, params=settle_params),
        timings=roll_timings(config), clock=clock,
        on_status=on_status, on_roll=on_roll, led=led)
    button = _open_button(config, service, clock, pin_factory, note)

    def tick(now: float) -> None:
        if button is not None:
            button.poll(now)
        service.tick(now)

    ticker = TickThread(tick, config["camera"]["tick_interval_s"], clock)
    return DiceStation(service=service, ticker=ticker, button=button, led=led, problems=problems)


def _open_led(config: Config, pin_factory: Factory | None,
              note: Callable[[str], None]) -> StatusLed | None:
    table = config["led"]
    if not table["enabled"]:
        return None
    try:
        return StatusLed(table["pin"], table["active_high"], table["blink_period_s"], pin_factory)
    except GpioUnavailable as exc:
        note(f"{exc}; running without the status light")
        return None


def _open_button(config: Config, service: DiceService, clock: Callable[[], float],
                 pin_factory: Factory | None, note: Callable[[str], None]) -> RollButton | None:
    table = config["button"]
    if not table["enabled"]:
        return None
    try:
        return RollButton(table["pin"], table["pull_up"], table["debounce_s"], table["hold_time_s"],
                          clock, on_press=service.roll, on_hold=service.reread, pin_factory=pin_factory)
    except GpioUnavailable as exc:
        note(f"{exc}; use the on-screen roll button (or the space bar)")
        return None

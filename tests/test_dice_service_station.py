"""The station as the app builds it from settings: GPIO on MockFactory pins, camera from a folder."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import DiceStatus, RollState
from app.dice_station import build_dice_station
from vision.reader import learned_models


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def folder_config(tmp_path: Path, extra: str = ""):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), np.full((120, 160, 3), 90, np.uint8))
    override = tmp_path / "config.toml"
    override.write_text(f'[camera]\nsource = "folder"\nfolder = "{frames}"\n{extra}')
    return load_config(override, env={}, home=Path("/nonexistent"))


def test_button_press_on_the_pin_starts_a_roll_and_stop_leaves_no_thread(tmp_path: Path, mock_factory) -> None:
    clock = Clock()
    statuses: list[DiceStatus] = []
    reports: list[str] = []
    station = build_dice_station(folder_config(tmp_path), on_status=statuses.append, on_roll=lambda a: None,
                                 report=reports.append, clock=clock, pin_factory=mock_factory)
    assert reports == [] and station.button is not None and station.led is not None
    station.service.tick(clock.now)
    assert station.service.state is RollState.IDLE
    mock_factory.pin(17).drive_low()
    assert station.service.state is RollState.WAITING_FOR_MOTION
    assert mock_factory.pin(27).state  # the light blinks, starting lit
    station.start()
    assert station.stop()
    assert not any(thread.name == "windrose-dice" for thread in threading.enumerate())
    assert not mock_factory.pin(27).state


def test_busy_button_pin_is_reported_once_and_rolling_by_screen_still_works(tmp_path: Path, mock_factory) -> None:
    clock = Clock()
    reports: list[str] = []
    holder = Button(17, pin_factory=mock_factory)
    station = build_dice_station(folder_config(tmp_path), on_status=lambda s: None, on_roll=lambda a: None,
                                 report=reports.append, clock=clock, pin_factory=mock_factory)
    assert station.button is None
    assert len(reports) == 1
    assert reports[0].startswith("roll button on GPIO17: the pin is busy")
    assert "on-screen roll button" in reports[0]
    station.service.tick(clock.now)
    station.service.roll()  # what the on-screen button and the space bar call
    assert station.service.state is RollState.WAITING_FOR_MOTION
    clock.now += 1
    station.service.tick(clock.now)
    assert reports == station.problems and len(reports) == 1
    station.stop()
    holder.close()


def test_disabled_gpio_parts_are_simply_absent(tmp_path: Path, mock_factory) -> None:
    reports: list[str] = []
    config = folder_config(tmp_path, "[button]\nenabled = false\n[led]\nenabled = false\n")
    station = build_dice_station(config, on_status=lambda s: None, on_roll=lambda a: None,
                                 report=reports.append, clock=Clock(), pin_factory=mock_factory)
    assert station.button is None and station.led is None and reports == []
    station.stop()


def test_a_broken_calibration_file_is_reported_and_the_builtin_colours_used(tmp_path: Path, mock_factory) -> None:
    broken = tmp_path / "calibration.json"
    broken.write_text("{ not json")
    reports: list[str] = []
    config = folder_config(tmp_path, f'[vision]\ncalibration_path = "{broken}"\n')
    station = build_dice_station(config, on_status=lambda s: None, on_roll=lambda a: None,
                                 report=reports.append, clock=Clock(), pin_factory=mock_factory)
    assert len(reports) == 1 and "calibration.json" in reports[0] and "built-in dice colours" in reports[0]
    station.stop()


def test_snapshot_saves_a_frame_from_the_configured_camera(tmp_path: Path, capsys) -> None:
    from app.camera_snapshot import main

    folder_config(tmp_path)  # writes frames/0.png and config.toml
    out = tmp_path / "snap.png"
    assert main([str(out), "--config", str(tmp_path / "config.toml")]) == 0
    saved = cv2.imread(str(out))
    assert saved is not None and saved.shape == (120, 160, 3) and int(saved[0, 0, 0]) == 90
    assert main([str(tmp_path / "no-folder" / "x.png"), "--config", str(tmp_path / "config.toml")]) == 1
    assert "cannot write this file" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera]\nsource = 3\n")
    assert main([str(out), "--config", str(bad)]) == 2
    assert "[camera] source: expected one of" in capsys.readouterr().err


def test_a_gpio_chip_that_cannot_be_opened_is_reported_once(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "lgpio", None)  # as on a machine without lgpio
    reports: list[str] = []
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()  # what the button and light fall back to here
    try:
        config = folder_config(tmp_path, "[button]\ngpio_chip = 4\n")
        station = build_dice_station(config, on_status=lambda s: None, on_roll=lambda a: None,
                                     report=reports.append, clock=Clock())
        assert reports[0].startswith("GPIO chip 4 cannot be opened")
        station.stop()
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous


@pytest.mark.parametrize("enabled, path", [(True, "learned reader"), (False, "classical reader")])
def test_the_users_learned_reader_setting_reaches_the_reader(tmp_path: Path, mock_factory, enabled: bool,
                                                              path: str) -> None:
    clock = Clock()
    statuses: list[DiceStatus] = []
    config = folder_config(tmp_path, f"[vision.learned]\nenabled = {str(enabled).lower()}\n")
    station = build_dice_station(config, on_status=statuses.append, on_roll=lambda a: None,
                                 report=lambda problem: None, clock=clock, pin_factory=mock_factory)
    station.service.tick(clock.now)
    station.service.roll()
    for _ in range(400):  # the still folder frame: no motion, so the roll times out into reading
        clock.now += 0.1
        station.service.tick(clock.now)
        if station.service.state is RollState.PROPOSED:
            break
    assert station.service.state is RollState.PROPOSED
    reading = statuses[-1].reading
    assert reading is not None and reading.message.startswith(f"the mean of 3 still frame(s) read: {path}")
    assert station.stop()


def test_the_learned_models_are_let_go_once_the_roll_is_read(tmp_path: Path, mock_factory) -> None:
    clock = Clock()
    station = build_dice_station(folder_config(tmp_path), on_status=lambda s: None, on_roll=lambda a: None,
                                 report=lambda problem: None, clock=clock, pin_factory=mock_factory)
    held = learned_models(station.reader.learned)
    assert not isinstance(held, str)
    station.service.tick(clock.now)
    station.service.roll()
    while station.service.state is not RollState.PROPOSED:  # no motion: read after the timeout
        clock.now += 0.1
        station.service.tick(clock.now)
    again = learned_models(station.reader.learned)
    assert not isinstance(again, str) and again[0] is not held[0]  # the next read loads them anew
    assert station.stop()

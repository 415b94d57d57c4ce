"""A camera read that never returns: the roll gives up after read_timeout_s and falls back to the
hand entry, and closing the dice station (a Settings change) never waits for the hung read. And
the timed camera's calls, hung or not, all run on one thread that ends with the camera.

The hang is real: the folder camera's only image is a FIFO with no writer, so OpenCV's read of it
blocks in the kernel, as a read from a half-unplugged USB camera does.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import RollState
from app.dice_station import build_dice_station
from app.ui.dice_link import DiceLink
from hardware.camera import CameraError, FolderCamera, TimedCamera

TIMEOUT_S = 0.2  # the smallest read_timeout_s the settings allow
BOUND_S = 30.0  # a bound on waiting for what must happen at once, never a delay


@pytest.fixture
def hanging_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder whose one frame is a FIFO: reading it blocks until the test opens the other end."""
    folder = tmp_path / "frames"
    folder.mkdir()
    fifo = folder / "000.jpg"
    os.mkfifo(fifo)
    yield folder
    # Let the stuck read end (an empty picture) so its thread finishes: open the other end, close it.
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:  # ENXIO: nobody reads it (any more)
        pass
    for thread in threading.enumerate():
        if thread.name.startswith("windrose-camera"):
            thread.join(BOUND_S)


def test_a_read_that_hangs_is_given_up_and_not_repeated(hanging_folder: Path) -> None:
    camera = TimedCamera(FolderCamera(hanging_folder, (32, 24), loop=True), TIMEOUT_S)
    camera.open()
    with pytest.raises(CameraError, match=r"gave no answer within 0\.2 s \(the camera hangs\)"):
        camera.read_motion()
    with pytest.raises(CameraError, match="still has not answered an earlier request"):
        camera.read_main()  # refused at once: the driver is not called beside the hung call
    camera.close()  # returns, the read still hangs


def test_a_hung_camera_leaves_hand_entry_and_closing_never_waits(
    hanging_folder: Path, tmp_path: Path, mock_factory: MockFactory
) -> None:
    override = tmp_path / "config.toml"
    override.write_text(f'[camera]\nsource = "folder"\nfolder = "{hanging_folder}"\nloop = true\n'
                        f'read_timeout_s = {TIMEOUT_S}\n', encoding="utf-8")
    config = load_config(override, env={}, home=Path("/nonexistent"))
    link = DiceLink()
    link.attach(lambda **callbacks: build_dice_station(config, pin_factory=mock_factory, **callbacks),
                start=False)
    service = link.station.service
    clock = 100.0
    service.tick(clock)  # opens the folder camera
    service.watch(True)  # a live view asks for pictures: the next look reads the FIFO
    service.tick(clock + 1)
    assert service.status.state is RollState.CAMERA_UNAVAILABLE
    assert "the camera hangs" in service.status.message
    closing = threading.Thread(target=link.close)
    closing.start()
    closing.join(BOUND_S)
    assert not closing.is_alive(), "closing the dice station waited on the hung read"
    assert link.station is None


def _camera_threads(before: set[threading.Thread] = frozenset()) -> list[threading.Thread]:
    """The camera threads alive now, leaving out those of `before` (another test's hung camera)."""
    return [thread for thread in threading.enumerate()
            if thread.name.startswith("windrose-camera") and thread not in before]


def test_every_call_runs_on_one_thread_that_ends_with_the_camera(tmp_path: Path) -> None:
    """A thread per call would leave OpenCV's per-thread memory behind on every frame."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for index in range(3):
        cv2.imwrite(str(folder / f"{index}.png"), np.full((90, 160, 3), 40 * index, np.uint8))
    callers: set[int] = set()
    before = set(threading.enumerate())

    class WhoCalls(FolderCamera):
        def _grab(self) -> np.ndarray:
            callers.add(threading.get_ident())
            return super()._grab()

    camera = TimedCamera(WhoCalls(folder, (32, 18), loop=True), BOUND_S)
    camera.open()
    frames = [camera.read_motion() if index % 2 else camera.read_main() for index in range(20)]
    assert [frame.shape for frame in frames[:2]] == [(90, 160, 3), (18, 32, 3)]
    assert len(callers) == 1 and threading.get_ident() not in callers
    assert len(_camera_threads(before)) == 1
    camera.close()
    assert _camera_threads(before) == []
    camera.open()  # reopened after a close: a new worker, ended by the next close
    assert camera.read_motion().shape == (18, 32, 3)
    camera.close()
    assert _camera_threads(before) == []


def test_the_worker_ends_once_the_call_that_hung_returns(hanging_folder: Path) -> None:
    before = set(threading.enumerate())
    camera = TimedCamera(FolderCamera(hanging_folder, (32, 24), loop=True), TIMEOUT_S)
    camera.open()
    with pytest.raises(CameraError, match="the camera hangs"):
        camera.read_main()
    camera.close()
    assert [thread.name for thread in _camera_threads(before)].count("windrose-camera-call") == 1  # still in the read
    os.close(os.open(hanging_folder / "000.jpg", os.O_WRONLY | os.O_NONBLOCK))  # the read returns
    for thread in _camera_threads(before):
        thread.join(BOUND_S)
    assert _camera_threads(before) == []


def test_a_camera_that_does_not_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    """The dice service tries a missing camera again and again, each time with a new one."""
    before = set(threading.enumerate())
    for _ in range(5):
        camera = TimedCamera(FolderCamera(tmp_path / "unplugged", (32, 18), loop=True), BOUND_S)
        with pytest.raises(CameraError, match="unplugged"):
            camera.open()
    assert _camera_threads(before) == []


def test_a_camera_dropped_without_closing_ends_its_worker(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), np.zeros((18, 32, 3), np.uint8))
    before = set(threading.enumerate())
    camera = TimedCamera(FolderCamera(folder, (32, 18), loop=True), BOUND_S)
    camera.open()
    (worker,) = _camera_threads(before)
    del camera
    gc.collect()
    worker.join(BOUND_S)
    assert not worker.is_alive()

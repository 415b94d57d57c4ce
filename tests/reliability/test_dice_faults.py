"""Dice hardware faults: a camera lost or delivering garbage mid-roll, a button stuck down,
and the ticker thread stopping while the camera blocks or fails.

Everything runs on a hand-moved clock over scripted frame sequences and gpiozero
MockFactory pins; threads are only started where the thread itself is under
test, and they are coordinated with events, never sleeps.
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import ROLLING, DiceService, DiceStatus, RollState, TickThread
from app.dice_station import roll_timings
from hardware.button import RollButton
from hardware.camera import CameraError, shrink
from tests.test_dice_service import MOTION, ROLL, label_reader, moving_frame, still_frame
from vision.params import VisionParams
from vision.reader import read_dice
from vision.settle import SettleDetector, SettleParams

DT = 0.1
BUTTON_PIN = 17
FRAME_SHAPE = still_frame(ROLL).shape


class ManualClock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


class ScriptedCamera:
    """A camera (hardware.camera.Camera protocol) playing a script of frames.

    Each motion read takes the next entry (the last one repeats): a BGR uint8
    frame is shrunk for the motion stream as the real sources do, an exception
    is raised, anything else (garbage) is handed over unchanged. A main read
    returns the entry of the latest motion read. Once a read has raised, the
    camera is gone: opening it again fails too, as with an unplugged cable.
    """

    def __init__(self, script: list[Any]) -> None:
        self.script = script
        self.reads = 0
        self.closed = False
        self.lost: CameraError | None = None
        self._current: Any = None

    def open(self) -> None:
        if self.lost is not None:
            raise self.lost
        self.closed = False

    def read_motion(self) -> Any:
        entry = self.script[min(self.reads, len(self.script) - 1)]
        self.reads += 1
        if isinstance(entry, CameraError):
            self.lost = entry
            raise entry
        self._current = entry
        usable = isinstance(entry, np.ndarray) and entry.dtype == np.uint8 and entry.shape == FRAME_SHAPE
        return shrink(entry, MOTION) if usable else entry

    def read_main(self) -> Any:
        return self._current

    def relock_exposure(self) -> None:
        """Nothing to adapt: the script is fixed."""

    def close(self) -> None:
        self.closed = True


@pytest.fixture(scope="module")
def config():
    return load_config(env={}, home=Path("/nonexistent"))


class Rig:
    """A DiceService over one scripted camera, recording what it reports."""

    def __init__(self, config, camera: ScriptedCamera, reader=label_reader) -> None:
        self.clock = ManualClock()
        self.camera = camera
        self.statuses: list[DiceStatus] = []
        self.rolls: list[dict[str, Any]] = []
        params = SettleParams.from_table(config["vision.settle"])
        self.timings = roll_timings(config)
        self.service = DiceService(
            make_camera=lambda: self.camera, reader=reader,
            new_settler=lambda: SettleDetector(params),
            timings=self.timings, clock=self.clock, on_status=self.statuses.append, on_roll=self.rolls.append)

    def tick(self, count: int = 1) -> RollState:
        for _ in range(count):
            self.clock.now = round(self.clock.now + DT, 6)
            self.service.tick(self.clock.now)
        return self.service.state

    def tick_until_settled(self, limit: int = 400) -> RollState:
        """Tick until the roll leaves the waiting states (or give up after `limit` ticks)."""
        for _ in range(limit):
            if self.tick() not in ROLLING:
                break
        return self.service.state

    def assert_manual_entry_works(self) -> None:
        self.service.confirm(ROLL)
        assert self.rolls[-1] == {"type": "roll", "dice": ROLL}


def assert_plain_message(status: DiceStatus) -> None:
    """A sentence for the player: not empty, no traceback, no Python internals."""
    message = status.message
    assert message.strip()
    assert "Traceback" not in message and "File \"" not in message


def roll_script(moving: int = 6, still: int = 30) -> list[Any]:
    return [still_frame(ROLL)] * 2 + [moving_frame(seed) for seed in range(moving)] + [still_frame(ROLL)] * still


# ---------------------------------------------------------------- camera lost mid-roll

def frames_until(config, state: RollState) -> int:
    """How many frames of `roll_script` a roll takes to first reach `state`."""
    rig = Rig(config, ScriptedCamera(roll_script()))
    rig.tick()
    rig.service.roll()
    for frames in range(1, 100):
        if rig.tick() is state:
            return frames
    raise AssertionError(f"the clean roll never reached {state}")


@pytest.mark.parametrize("lost_in", [RollState.WAITING_FOR_MOTION, RollState.WAITING_FOR_STILL, RollState.READING])
def test_camera_lost_mid_roll_leaves_waiting_with_a_message_and_manual_entry_works(
        config, lost_in: RollState) -> None:
    frames = frames_until(config, lost_in)
    rig = Rig(config, ScriptedCamera(roll_script()[:frames] + [CameraError("the camera was unplugged")]))
    assert rig.tick() is RollState.IDLE
    rig.service.roll()
    assert rig.tick(frames) is lost_in
    assert rig.tick() is RollState.CAMERA_UNAVAILABLE
    assert rig.camera.closed
    assert "the camera was unplugged" in rig.service.status.message
    assert_plain_message(rig.service.status)
    rig.tick(50)  # reopening keeps failing: the notice stays, nothing crashes
    assert rig.service.state is RollState.CAMERA_UNAVAILABLE
    assert RollState.PROPOSED not in {status.state for status in rig.statuses}
    rig.assert_manual_entry_works()
    rig.service.close()


def test_camera_lost_mid_roll_under_the_ticker_thread_leaves_no_thread(config) -> None:
    failed = threading.Event()

    class LosingCamera(ScriptedCamera):
        def read_motion(self) -> Any:
            try:
                return super().read_motion()
            except CameraError:
                failed.set()
                raise

    rig = Rig(config, LosingCamera(roll_script()[:4] + [CameraError("the camera was unplugged")]))
    rig.tick()
    rig.service.roll()
    ticks = iter(range(10**6))
    ticker = TickThread(rig.service.tick, interval_s=0.001, clock=lambda: 600.0 + next(ticks) * DT)
    ticker.start()
    assert failed.wait(10)
    assert ticker.stop()
    rig.service.close()
    assert rig.service.state is RollState.CAMERA_UNAVAILABLE
    assert not any(thread.name == "windrose-dice" for thread in threading.enumerate())
    rig.assert_manual_entry_works()


# ---------------------------------------------------------------- garbage frames mid-roll

RNG_SEED = 7


def garbage_script(kind: str) -> list[Any]:
    rng = np.random.default_rng(RNG_SEED)
    good = roll_script(moving=3, still=0)
    match kind:
        case "noise":
            bad: list[Any] = [rng.integers(0, 256, (120, 160, 3), dtype=np.uint8) for _ in range(150)]
        case "black":
            bad = [np.zeros((120, 160, 3), np.uint8)]
        case "wrong shape":
            bad = [np.zeros((120, 160, 7), np.uint8)]
        case "flat vector":
            bad = [np.zeros(57600, np.uint8)]
        case "float":
            bad = [rng.random((120, 160, 3))]
        case "tiny":
            bad = [np.zeros((1, 1, 3), np.uint8)]
        case "empty":
            bad = [np.zeros((0, 0, 3), np.uint8)]
        case "None":
            bad = [None]
        case _:
            raise AssertionError(kind)
    return good + bad


@pytest.mark.parametrize("kind", ["noise", "black", "wrong shape", "flat vector", "float", "tiny", "empty", "None"])
def test_garbage_frames_mid_roll_end_the_wait_with_a_message(config, kind: str) -> None:
    params = VisionParams.from_table(dict(config["vision"]))
    reader = functools.partial(read_dice, params=params, expect="macao")
    rig = Rig(config, ScriptedCamera(garbage_script(kind)), reader=reader)
    rig.tick()
    rig.service.roll()
    final = rig.tick_until_settled()
    assert final not in ROLLING, f"{kind}: still {final} after 40 s of garbage"
    assert final in {RollState.ERROR, RollState.PROPOSED, RollState.CAMERA_UNAVAILABLE}
    assert_plain_message(rig.service.status)
    if final is RollState.CAMERA_UNAVAILABLE:  # the garbage is named, and the camera is tried again
        assert "unusable" in rig.service.status.message
        assert rig.camera.closed
    if final is RollState.PROPOSED:  # a frame without dice is never taken for a complete roll
        assert not rig.service.status.reading.complete
    rig.assert_manual_entry_works()
    rig.service.close()


def test_noise_never_settles_and_times_out_to_manual_entry(config) -> None:
    rig = Rig(config, ScriptedCamera(garbage_script("noise")))
    rig.tick()
    rig.service.roll()
    assert rig.tick_until_settled() is RollState.ERROR
    assert rig.service.status.message.startswith("The dice did not come to rest")
    assert RollState.PROPOSED not in {status.state for status in rig.statuses}


# ---------------------------------------------------------------- button stuck down

class CountingButtonRig:
    """The real RollButton on a mock pin, wired to a DiceService as the station wires it."""

    def __init__(self, config, factory: MockFactory) -> None:
        self.rig = Rig(config, ScriptedCamera(roll_script(still=2000)))
        self.presses = 0
        self.holds = 0
        table = config["button"]
        self.hold_time_s = table["hold_time_s"]
        self.debounce_s = table["debounce_s"]
        self.button = RollButton(BUTTON_PIN, table["pull_up"], self.debounce_s, self.hold_time_s,
                                 self.rig.clock, on_press=self.press, on_hold=self.hold, pin_factory=factory)
        self.pin = factory.pin(BUTTON_PIN)

    def press(self) -> None:
        self.presses += 1
        self.rig.service.roll()

    def hold(self) -> None:
        self.holds += 1
        self.rig.service.reread()

    def tick(self, count: int) -> None:
        for _ in range(count):
            self.rig.clock.now = round(self.rig.clock.now + DT, 6)
            self.button.poll(self.rig.clock.now)
            self.rig.service.tick(self.rig.clock.now)


def test_button_stuck_down_for_ten_minutes_gives_one_roll_and_one_reread(config, mock_factory) -> None:
    threads_before = set(threading.enumerate())
    station = CountingButtonRig(config, mock_factory)
    station.tick(1)
    station.pin.drive_low()
    assert (station.presses, station.holds) == (1, 0)
    assert station.rig.service.state is RollState.WAITING_FOR_MOTION
    station.tick(6000)  # ten minutes down, across the hold time many times over
    assert (station.presses, station.holds) == (1, 1)
    assert station.rig.service.state is RollState.PROPOSED  # the one reread ran to its end
    station.pin.drive_high()  # finally released: nothing more
    station.tick(20)
    assert (station.presses, station.holds) == (1, 1)
    station.rig.service.confirm()
    assert station.rig.rolls == [{"type": "roll", "dice": ROLL}]
    station.button.close()
    station.rig.service.close()
    assert set(threading.enumerate()) <= threads_before  # gpiozero's button threads are gone too


def test_chatter_on_a_button_stuck_down_adds_no_rolls(config, mock_factory) -> None:
    station = CountingButtonRig(config, mock_factory)
    station.tick(1)
    station.pin.drive_low()
    for _ in range(200):  # a worn contact flickers faster than the debounce time while held
        station.rig.clock.now += station.debounce_s / 4
        station.pin.drive_high()
        station.rig.clock.now += station.debounce_s / 4
        station.pin.drive_low()
    station.tick(3000)
    assert station.presses == 1
    assert station.holds <= 1
    station.button.close()
    station.rig.service.close()


def test_a_stuck_button_does_not_block_the_screen_button_or_manual_entry(config, mock_factory) -> None:
    station = CountingButtonRig(config, mock_factory)
    station.tick(1)
    station.pin.drive_low()
    station.tick(100)
    station.rig.service.roll()  # the on-screen button still starts a fresh roll
    assert station.rig.service.state is RollState.WAITING_FOR_MOTION
    station.tick(100)
    assert (station.presses, station.holds) == (1, 1)
    station.rig.assert_manual_entry_works()
    station.button.close()
    station.rig.service.close()


# ---------------------------------------------------------------- the ticker while the camera blocks or fails

def test_ticker_stops_cleanly_while_a_camera_read_blocks(config) -> None:
    entered = threading.Event()
    unblock = threading.Event()

    class BlockingCamera(ScriptedCamera):
        def read_motion(self) -> Any:
            entered.set()
            if not unblock.wait(10):
                raise CameraError("the camera stopped answering")
            return super().read_motion()

    rig = Rig(config, BlockingCamera(roll_script()))
    rig.tick()
    rig.service.roll()
    ticks = iter(range(10**6))
    ticker = TickThread(rig.service.tick, interval_s=0.001, clock=lambda: 600.0 + next(ticks) * DT)
    ticker.start()
    assert entered.wait(10)
    assert ticker.stop(timeout_s=0.05) is False  # honest: the read in progress still holds the thread
    reads_when_stopped = rig.camera.reads
    unblock.set()
    assert ticker.stop()
    assert rig.camera.reads <= reads_when_stopped + 1  # the blocked read finishes; no new tick starts
    rig.service.close()
    assert rig.camera.closed
    assert not any(thread.name == "windrose-dice" for thread in threading.enumerate())


def test_ticker_stops_cleanly_while_the_camera_keeps_failing(config) -> None:
    opened = threading.Event()

    class FailingCamera(ScriptedCamera):
        attempts = 0

        def open(self) -> None:
            FailingCamera.attempts += 1
            if FailingCamera.attempts >= 3:
                opened.set()
            raise CameraError("no camera on the cable")

    rig = Rig(config, FailingCamera([still_frame(ROLL)]))
    ticks = iter(range(10**6))
    ticker = TickThread(rig.service.tick, interval_s=0.001, clock=lambda: 600.0 + next(ticks) * 5.0)
    ticker.start()
    assert opened.wait(10)
    assert ticker.stop()
    rig.service.close()
    assert rig.service.state is RollState.CAMERA_UNAVAILABLE
    assert not any(thread.name == "windrose-dice" for thread in threading.enumerate())
    rig.assert_manual_entry_works()


def test_a_garbage_frame_under_the_ticker_does_not_kill_the_thread(config) -> None:
    """The UI would wait forever on a ticker that died from one bad frame."""
    rig = Rig(config, ScriptedCamera(roll_script(moving=2, still=0) + [None]))
    rig.tick()
    rig.service.roll()
    done = threading.Event()
    ticks = iter(range(10**6))

    def tick(now: float) -> None:
        rig.service.tick(now)
        if rig.service.state not in ROLLING:
            done.set()

    ticker = TickThread(tick, interval_s=0.001, clock=lambda: 600.0 + next(ticks) * DT)
    ticker.start()
    assert done.wait(20), f"the roll is stuck in {rig.service.state}"
    assert ticker.stop()
    rig.service.close()
    assert_plain_message(rig.service.status)
    assert not any(thread.name == "windrose-dice" for thread in threading.enumerate())



def test_one_failing_tick_does_not_end_the_dice_thread(caplog: pytest.LogCaptureFixture) -> None:
    """A callback or the status light raising once must not stop the dice for the rest of the game."""
    calls: list[float] = []
    third_call = threading.Event()

    def tick(now: float) -> None:
        calls.append(now)
        if len(calls) == 1:
            raise RuntimeError("status light gone")
        if len(calls) >= 3:
            third_call.set()

    thread = TickThread(tick, interval_s=0.0, clock=lambda: float(len(calls)))
    thread.start()
    try:
        assert third_call.wait(timeout=30), "the thread stopped after the failing tick"
    finally:
        assert thread.stop()
    assert "dice service tick failed" in caplog.text

"""The roll flow, driven tick by tick over frame sequences stored as image files.

Frames are replayed by the real folder camera and watched by the real settling
detector and the still frames' mean; the dice reader is replaced by one that reads the label
each test frame carries in its first pixels, so every expected reading is
known exactly. No sleeps: time is a number the test moves.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import DiceService, DiceStatus, InvalidDice, RollState, TickThread
from app.dice_station import roll_timings
from hardware.camera import Camera, CameraError, FolderCamera
from hardware.status_led import StatusLed
from vision.settle import SettleDetector, SettleParams
from vision.types import DIE_COLOURS, DiceReading, DieReading

SIZE = (160, 120)
MOTION = (80, 60)
DT = 0.1
ROLL = {"red": 3, "blue": 6, "green": 1, "black": 4, "gray": 2, "violet": 5}
OTHER = {"red": 1, "blue": 1, "green": 2, "black": 2, "gray": 3, "violet": 3}


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def still_frame(dice: dict[str, int | None]) -> np.ndarray:
    """A quiet tray whose first six pixels carry the dice (0 = a die the reader cannot read)."""
    frame = np.full((SIZE[1], SIZE[0], 3), 110, np.uint8)
    for index, colour in enumerate(DIE_COLOURS):
        frame[0, index] = (dice[colour] or 0) * 40
    return frame


def moving_frame(seed: int) -> np.ndarray:
    """Dice tumbling: squares somewhere new in every frame."""
    rng = np.random.default_rng(seed)
    frame = np.full((SIZE[1], SIZE[0], 3), 110, np.uint8)
    for _ in range(6):
        x, y = rng.integers(10, 130), rng.integers(10, 90)
        frame[y:y + 18, x:x + 18] = rng.integers(0, 255, 3)
    return frame


def label_reader(frame: np.ndarray) -> DiceReading:
    dice = []
    for index, colour in enumerate(DIE_COLOURS):
        value = int(round(frame[0, index, 0] / 40))
        dice.append(DieReading(x=20 + 20 * index, y=60, w=16, h=16, colour=colour, value=value or None,
                               confidence=0.95 if value else 0.1, unsure=not value))
    return DiceReading(dice=tuple(dice), message="labelled frame")


def write_frames(folder: Path, frames: list[np.ndarray]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for index, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"frame{index}.png"), frame)
    return folder


@pytest.fixture(scope="module")
def config():
    return load_config(env={}, home=Path("/nonexistent"))


class Harness:
    """A DiceService over a folder of frames, recording everything it reports."""

    def __init__(self, config, folder: Path | None, led: StatusLed | None = None,
                 reader=label_reader, loop: bool = False, rest_reader=None, look_at_empty_tray=None) -> None:
        self.clock = ManualClock()
        self.statuses: list[DiceStatus] = []
        self.rolls: list[dict[str, Any]] = []
        self.camera_requests: list[float] = []
        self.folder = folder
        self.loop = loop
        params = SettleParams.from_table(config["vision.settle"])
        self.timings = roll_timings(config)
        self.service = DiceService(
            make_camera=self.make_camera, reader=reader,
            new_settler=lambda: SettleDetector(params),
            timings=self.timings, clock=self.clock, on_status=self.statuses.append,
            on_roll=self.rolls.append, led=led, rest_reader=rest_reader, look_at_empty_tray=look_at_empty_tray)

    def make_camera(self) -> Camera | None:
        self.camera_requests.append(self.clock.now)
        return None if self.folder is None else FolderCamera(self.folder, MOTION, self.loop)

    def tick(self, count: int = 1) -> RollState:
        for _ in range(count):
            self.clock.now = round(self.clock.now + DT, 6)
            self.service.tick(self.clock.now)
        return self.service.state

    def run_until(self, state: RollState, limit: int = 200) -> int:
        for ticks in range(1, limit + 1):
            if self.tick() is state:
                return ticks
        raise AssertionError(f"never reached {state}; stuck in {self.service.state}: {self.service.status.message}")

    def states(self) -> list[RollState]:
        seen: list[RollState] = []
        for status in self.statuses:
            if not seen or seen[-1] is not status.state:
                seen.append(status.state)
        return seen


def roll_sequence(dice: dict[str, int | None] = ROLL, before: int = 2, moving: int = 6, after: int = 20,
                  previous: dict[str, int | None] = OTHER) -> list[np.ndarray]:
    return ([still_frame(previous)] * before + [moving_frame(s) for s in range(moving)]
            + [still_frame(dice)] * after)


def test_a_roll_goes_from_press_to_a_confirmed_roll_action(tmp_path: Path, config) -> None:
    harness = Harness(config, write_frames(tmp_path, roll_sequence()))
    assert harness.tick() is RollState.IDLE
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    status = harness.service.status
    assert status.proposed_dice == ROLL
    assert status.message == "Check the dice and confirm"
    harness.service.confirm()
    assert harness.rolls == [{"type": "roll", "dice": ROLL}]
    assert harness.states() == [RollState.IDLE, RollState.WAITING_FOR_MOTION, RollState.WAITING_FOR_STILL,
                                RollState.READING, RollState.PROPOSED, RollState.CONFIRMED]


def test_dice_rolled_before_the_press_are_read_after_the_motion_timeout(tmp_path: Path, config) -> None:
    harness = Harness(config, write_frames(tmp_path, [still_frame(ROLL)] * 60))
    harness.tick()
    harness.service.roll()
    started = harness.clock.now
    harness.run_until(RollState.WAITING_FOR_STILL)
    assert harness.clock.now - started == pytest.approx(harness.timings.motion_timeout_s, abs=DT + 1e-6)
    harness.run_until(RollState.PROPOSED)
    assert harness.service.status.proposed_dice == ROLL


def test_motion_while_reading_discards_the_frames_and_waits_again(tmp_path: Path, config) -> None:
    frames = roll_sequence(after=7) + [moving_frame(99)] + [still_frame(ROLL)] * 15
    harness = Harness(config, write_frames(tmp_path, frames))
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.READING)
    harness.run_until(RollState.PROPOSED)
    assert harness.states()[-3:] == [RollState.WAITING_FOR_STILL, RollState.READING, RollState.PROPOSED]
    assert harness.states().count(RollState.READING) == 2
    assert harness.service.status.proposed_dice == ROLL


def test_dice_that_never_settle_end_in_an_error_with_a_message(tmp_path: Path, config) -> None:
    harness = Harness(config, write_frames(tmp_path, [moving_frame(s) for s in range(150)]))
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.ERROR)
    assert "did not come to rest within 8 s" in harness.service.status.message
    harness.service.confirm(ROLL)  # the game goes on by hand
    assert harness.rolls == [{"type": "roll", "dice": ROLL}]


def test_an_unsure_die_must_be_corrected_before_confirming(tmp_path: Path, config) -> None:
    unsure = dict(ROLL, violet=None)
    harness = Harness(config, write_frames(tmp_path, roll_sequence(dice=unsure)))
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    assert harness.service.status.proposed_dice["violet"] is None
    assert harness.service.status.note.startswith("Some dice are unclear")
    with pytest.raises(InvalidDice, match="not read for sure: violet"):
        harness.service.confirm()
    assert harness.rolls == []
    harness.service.confirm(dict(ROLL, violet=2))
    assert harness.rolls == [{"type": "roll", "dice": dict(ROLL, violet=2)}]


@pytest.mark.parametrize("dice, problem", [
    ({**ROLL, "red": 7}, "the red die needs 1 to 6 pips, not 7"),
    ({**ROLL, "red": True}, "the red die needs 1 to 6 pips, not True"),
    ({k: v for k, v in ROLL.items() if k != "gray"}, "missing: gray"),
    ({**ROLL, "orange": 2}, "unknown: orange"),
])
def test_bad_manual_dice_are_refused_with_the_reason(config, dice, problem) -> None:
    harness = Harness(config, None)
    with pytest.raises(InvalidDice, match=problem):
        harness.service.confirm(dice)
    assert harness.rolls == []


def test_cancel_stops_the_roll_and_a_new_press_starts_over(tmp_path: Path, config) -> None:
    harness = Harness(config, write_frames(tmp_path, roll_sequence(after=40)))
    harness.tick()
    harness.service.roll()
    harness.tick(3)
    harness.service.cancel()
    assert harness.service.state is RollState.CANCELLED
    harness.tick(3)
    assert harness.service.state is RollState.CANCELLED
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    assert harness.service.status.proposed_dice == ROLL


def test_hold_rereads_the_dice_as_they_lie(tmp_path: Path, config) -> None:
    frames = roll_sequence(after=12) + [still_frame(OTHER)] * 20
    harness = Harness(config, write_frames(tmp_path, frames))
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    harness.tick(2)  # someone turns a die over meanwhile
    harness.service.reread()
    assert harness.service.state is RollState.WAITING_FOR_STILL
    harness.run_until(RollState.PROPOSED)
    assert harness.service.status.proposed_dice == OTHER


def test_each_roll_shows_the_tray_as_it_starts_to_the_reader_once(tmp_path: Path, config) -> None:
    """The tray before the dice fall, for the reader to keep as its empty tray: one main frame at
    a roll's first look, none for a re-read of dice lying still."""
    frames = roll_sequence(after=12) + [still_frame(OTHER)] * 20
    looked: list[np.ndarray] = []
    harness = Harness(config, write_frames(tmp_path, frames), look_at_empty_tray=looked.append)
    harness.tick()
    assert looked == []
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    assert [label_reader(frame).values_by_colour() for frame in looked] == [OTHER]
    assert looked[0].shape == (SIZE[1], SIZE[0], 3)  # the main frame, not the small motion one
    assert harness.service.status.proposed_dice == ROLL
    harness.service.reread()
    harness.run_until(RollState.PROPOSED)
    assert len(looked) == 1
    harness.service.roll()
    harness.tick()
    assert len(looked) == 2


def test_a_fault_while_looking_at_the_tray_costs_the_roll_nothing(tmp_path: Path, config) -> None:
    def failing(_frame: np.ndarray) -> None:
        raise RuntimeError("the reader broke")

    harness = Harness(config, write_frames(tmp_path, roll_sequence()), look_at_empty_tray=failing)
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    assert harness.service.status.proposed_dice == ROLL


def test_missing_camera_retries_with_growing_pauses_and_manual_entry_works(tmp_path: Path, config) -> None:
    harness = Harness(config, tmp_path / "not-yet")
    harness.tick(1)
    assert harness.service.state is RollState.CAMERA_UNAVAILABLE
    assert "does not exist" in harness.service.status.message
    harness.tick(90)
    pauses = np.diff(harness.camera_requests).round(3).tolist()
    assert pauses == [1.0, 2.0, 4.0]
    harness.service.roll()  # pressing asks for an immediate retry
    harness.tick()
    assert harness.camera_requests[-1] == harness.clock.now
    harness.service.confirm(ROLL)
    assert harness.rolls == [{"type": "roll", "dice": ROLL}]
    write_frames(tmp_path / "not-yet", roll_sequence())
    harness.tick(300)
    assert harness.service.state is RollState.IDLE


def test_camera_unplugged_mid_roll_recovers_when_it_returns(tmp_path: Path, config) -> None:
    folder = write_frames(tmp_path / "camera", roll_sequence(after=40))
    harness = Harness(config, folder)
    harness.tick()
    harness.service.roll()
    harness.tick(4)
    folder.rename(tmp_path / "unplugged")
    harness.tick()
    assert harness.service.state is RollState.CAMERA_UNAVAILABLE
    assert harness.service.status.params["problem"]
    harness.tick(30)
    assert harness.service.state is RollState.CAMERA_UNAVAILABLE
    (tmp_path / "unplugged").rename(folder)
    harness.tick(40)
    assert harness.service.state is RollState.IDLE
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    assert harness.service.status.proposed_dice == ROLL


def test_no_camera_configured_means_manual_entry_only(config) -> None:
    harness = Harness(config, None)
    harness.tick(50)
    assert harness.camera_requests == [harness.camera_requests[0]]
    assert harness.service.status.message == "No camera is configured: enter the dice by hand"
    harness.service.confirm(ROLL)
    assert harness.rolls == [{"type": "roll", "dice": ROLL}]


def test_a_failing_reader_costs_one_roll_not_the_game(tmp_path: Path, config) -> None:
    def broken_reader(frame: np.ndarray) -> DiceReading:
        raise RuntimeError("model file damaged")

    harness = Harness(config, write_frames(tmp_path, roll_sequence()), reader=broken_reader)
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.ERROR)
    assert "model file damaged" in harness.service.status.message


def test_relock_is_done_on_the_ticker_not_the_caller(config) -> None:
    class CountingCamera(FolderCamera):
        relocks = 0

        def open(self) -> None:
            """Always opens: this camera only counts relocks."""

        def relock_exposure(self) -> None:
            CountingCamera.relocks += 1

    harness = Harness(config, None)
    harness.service._make_camera = lambda: CountingCamera(Path("."), MOTION, True)  # noqa: SLF001
    harness.tick()
    harness.service.relock_exposure()
    assert CountingCamera.relocks == 0
    harness.tick()
    harness.tick()
    assert CountingCamera.relocks == 1


def test_the_light_follows_the_flow(tmp_path: Path, config) -> None:
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        led = StatusLed(27, active_high=True, blink_period_s=0.6)
        harness = Harness(config, write_frames(tmp_path, roll_sequence()), led=led)
        harness.tick()
        assert led.pattern == "off" and not led.lit
        harness.service.roll()
        lit = []
        while harness.tick() is not RollState.PROPOSED:
            assert led.pattern == "blink"
            lit.append(led.lit)
        assert True in lit and False in lit
        assert led.pattern == "on" and led.lit
        harness.service.confirm()
        assert led.pattern == "off" and not led.lit
        led.close()
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous


def test_callbacks_may_call_back_into_the_service(tmp_path: Path, config) -> None:
    harness = Harness(config, write_frames(tmp_path, roll_sequence()))

    def confirm_at_once(status: DiceStatus) -> None:
        harness.statuses.append(status)
        if status.state is RollState.PROPOSED:
            harness.service.confirm()

    harness.service._on_status = confirm_at_once  # noqa: SLF001
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.CONFIRMED)
    assert harness.rolls == [{"type": "roll", "dice": ROLL}]


def test_tick_thread_runs_and_stops_without_leaving_a_thread() -> None:
    ticked = threading.Event()
    times: list[float] = []

    def tick(now: float) -> None:
        times.append(now)
        ticked.set()

    ticker = TickThread(tick, interval_s=0.01)
    ticker.start()
    assert ticked.wait(5)
    assert ticker.stop()
    count = len(times)
    assert not any(t.name == "windrose-dice" for t in threading.enumerate())
    assert len(times) == count


def test_camera_error_while_reading_is_unavailable_not_a_crash(config) -> None:
    class FlakyCamera(FolderCamera):
        def open(self) -> None:
            """Opens fine; the first frame fails."""

        def read_motion(self) -> np.ndarray:
            raise CameraError("USB camera disconnected")

    harness = Harness(config, None)
    harness.service._make_camera = lambda: FlakyCamera(Path("."), MOTION, True)  # noqa: SLF001
    harness.tick()
    harness.service.roll()
    harness.tick()
    assert harness.service.state is RollState.CAMERA_UNAVAILABLE
    assert harness.service.status.params == {"problem": "USB camera disconnected"}


def test_a_command_arriving_while_a_frame_is_read_wins_over_that_frame(tmp_path: Path, config) -> None:
    harness: Harness

    def reader_interrupted_by_cancel(frame: np.ndarray) -> DiceReading:
        harness.service.cancel()  # the player taps "cancel" while the reader works
        return label_reader(frame)

    harness = Harness(config, write_frames(tmp_path, roll_sequence(after=40)), reader=reader_interrupted_by_cancel)
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.CANCELLED)
    harness.tick(20)
    assert harness.service.state is RollState.CANCELLED
    assert RollState.PROPOSED not in harness.states()


def test_latest_frame_follows_the_roll_and_the_live_view_only_when_watched(tmp_path: Path, config) -> None:
    frames = [still_frame(OTHER)] * 3 + roll_sequence(before=0)
    harness = Harness(config, write_frames(tmp_path, frames))
    harness.tick(5)
    assert harness.service.latest_frame() is None  # idle and unwatched: the replay does not run on
    harness.service.watch(True)
    harness.tick(3)
    preview = harness.service.latest_frame()
    assert preview is not None and preview.shape == (MOTION[1], MOTION[0], 3)
    harness.service.watch(False)
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    latest = harness.service.latest_frame()
    assert latest is not None and latest.shape == (SIZE[1], SIZE[0], 3)  # the last frame read in full
    assert harness.service.status.proposed_dice == ROLL
    harness.service.confirm()
    assert harness.service.latest_frame() is None  # the roll is over: its full frame is let go


def test_a_cancelled_roll_lets_its_frame_go(tmp_path: Path, config) -> None:
    harness = Harness(config, write_frames(tmp_path, roll_sequence()))
    harness.tick()
    harness.service.roll()
    harness.run_until(RollState.PROPOSED)
    assert harness.service.latest_frame() is not None
    harness.service.cancel()
    assert harness.service.latest_frame() is None


def test_the_reader_rests_once_a_roll_is_read_on_the_ticking_thread(tmp_path: Path, config) -> None:
    rests: list[RollState] = []
    frames = write_frames(tmp_path, roll_sequence() + roll_sequence(OTHER, previous=ROLL))
    harness = Harness(config, frames, rest_reader=lambda: rests.append(harness.service.state))
    harness.tick(5)
    assert rests == []  # nothing read yet: nothing to let go
    harness.service.roll()
    harness.run_until(RollState.READING)
    harness.tick()
    assert rests == []  # still reading: the reader keeps its models
    harness.run_until(RollState.PROPOSED)
    assert rests == [RollState.PROPOSED]  # in the tick that read the last frame
    harness.tick(3)
    harness.service.confirm()
    harness.tick(3)
    assert rests == [RollState.PROPOSED]  # once a roll
    harness.service.roll()
    harness.run_until(RollState.READING)
    harness.tick()  # one still frame taken of the ones averaged: nothing read yet
    harness.service.cancel()
    harness.tick()
    assert rests == [RollState.PROPOSED]  # the reader did not run this roll: nothing to let go

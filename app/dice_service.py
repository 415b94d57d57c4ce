"""The roll flow: from "roll now" to a confirmed `roll` action, whatever the camera does.

    idle -> waiting_for_motion -> waiting_for_still -> reading -> proposed -> confirmed
                 (or the timeout, if the dice were rolled before the press)

plus `cancelled`, `error` (with a message) and `camera_unavailable` (retried
with a growing pause). Manual entry works in every state, so the game never
depends on the camera. Nothing here knows about Kivy: the service is driven by
`tick(now)` with an injected clock, and reports through two callbacks
(`on_status`, `on_roll`) that run on the thread calling it. In the app a
`TickThread` calls `tick`; the UI wraps both callbacks in Clock.schedule_once.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from typing import Any, Protocol

import numpy as np

from hardware.camera import Camera, CameraError, to_bgr_uint8
from hardware.status_led import LightPattern, StatusLed
from vision.settle import one_die_per_colour, still_picture
from vision.table_rolls import Confirmed
from vision.types import DiceReading, DiceSpec, DieReading, MotionState

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray], DiceReading]
# Keeps a confirmed proposal: its frame, the reading, the players' values by colour (one die's
# value, or a list where the game's colours repeat) and the dice the game rolls.
RollKeeper = Callable[[np.ndarray, DiceReading, Confirmed, DiceSpec], object]
CameraFactory = Callable[[], Camera | None]


class Settler(Protocol):
    """Tells moving from still over a stream of small frames (vision.settle.SettleDetector)."""

    def update(self, t: float, small_frame: np.ndarray) -> MotionState: ...


class RollState(StrEnum):
    IDLE = "idle"
    WAITING_FOR_MOTION = "waiting_for_motion"
    WAITING_FOR_STILL = "waiting_for_still"
    READING = "reading"
    PROPOSED = "proposed"
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"
    ERROR = "error"
    CAMERA_UNAVAILABLE = "camera_unavailable"


ROLLING = frozenset({RollState.WAITING_FOR_MOTION, RollState.WAITING_FOR_STILL, RollState.READING})

LIGHT_FOR_STATE: dict[RollState, LightPattern] = {
    RollState.WAITING_FOR_MOTION: "blink",
    RollState.WAITING_FOR_STILL: "blink",
    RollState.READING: "blink",
    RollState.PROPOSED: "on",
}


class _Job(Enum):
    OPEN = "open"
    RELOCK = "relock"
    LOOK = "look"
    PREVIEW = "preview"


@dataclass(frozen=True)
class _Look:
    """What one tick saw: its newest frame, the motion verdict, and a reading (or why there is none)."""

    frame: np.ndarray
    motion: MotionState
    reading: DiceReading | None = None
    problem: str = ""


class InvalidDice(ValueError):
    """Dice given to `confirm` that are not the game's dice (its DiceSpec) with 1-6 pips each."""


@dataclass(frozen=True)
class RollTimings:
    """The [camera] keys that pace the roll flow (defaults in config.toml)."""

    motion_timeout_s: float
    settle_timeout_s: float  # [vision.settle] max_wait_s
    still_frames: int  # [vision.settle] still_frames: averaged into the picture read
    motion_fraction: float  # [vision.settle] changed_fraction: this much change is a roll
    retry_initial_s: float
    retry_max_s: float


@dataclass(frozen=True)
class DiceStatus:
    """What the screen shows about the dice. `note` is an English template for gettext."""

    state: RollState
    note: str
    params: Mapping[str, Any] = field(default_factory=dict)
    reading: DiceReading | None = None
    spec: DiceSpec = DiceSpec()  # the dice the game rolls

    @property
    def message(self) -> str:
        return self.note.format(**self.params)

    @property
    def proposed_dice(self) -> dict[str, int | None]:
        """Colour -> pips of the proposal (None where the reader was unsure)."""
        if self.reading is None:
            return {colour: None for colour in self.spec.colours}
        return self.reading.values_by_colour(self.spec)

    @property
    def proposed_groups(self) -> dict[str, tuple[DieReading, ...]]:
        """Where the game's colours repeat: colour -> the dice read in it (sure or not), each
        colour of the game's (none where none was read)."""
        if self.reading is None:
            return {colour: () for colour in self.spec.colours}
        return self.reading.by_colour(self.spec)


def checked_groups(groups: Mapping[str, Any], spec: DiceSpec) -> dict[str, list[int]]:
    """Dice of a game whose colours repeat, as colour -> the pips of each die of that colour (a
    colour without dice may be left out), or InvalidDice saying what is wrong."""
    unknown = sorted(set(groups) - set(spec.colours))
    if unknown:
        raise InvalidDice(f"the game's dice are {', '.join(spec.colours)}; unknown: {', '.join(unknown)}")
    checked: dict[str, list[int]] = {}
    for colour in spec.colours:
        values = groups.get(colour, [])
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise InvalidDice(f"the {colour} dice need a list of pips, not {values!r}")
        for pips in values:
            if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
                raise InvalidDice(f"each {colour} die needs 1 to 6 pips, not {pips!r}")
        checked[colour] = list(values)
    total = sum(len(values) for values in checked.values())
    if total > spec.count:
        raise InvalidDice(f"{total} dice, but the game rolls at most {spec.count}")
    return checked


def checked_dice(dice: Mapping[str, Any], spec: DiceSpec = DiceSpec()) -> dict[str, int]:
    """The game's dice (one of each colour of `spec`) as colour -> pips, or InvalidDice saying
    what is wrong."""
    missing = [colour for colour in spec.colours if colour not in dice]
    unknown = sorted(set(dice) - set(spec.colours))
    if missing or unknown:
        raise InvalidDice(f"need exactly the dice {', '.join(spec.colours)}; "
                          f"missing: {', '.join(missing) or 'none'}, unknown: {', '.join(unknown) or 'none'}")
    checked: dict[str, int] = {}
    for colour in spec.colours:
        pips = dice[colour]
        if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
            raise InvalidDice(f"the {colour} die needs 1 to 6 pips, not {pips!r}")
        checked[colour] = pips
    return checked


class DiceService:
    """The roll flow as a state machine; thread-safe, every step driven by `tick(now)`."""

    def __init__(self, make_camera: CameraFactory, reader: Reader, new_settler: Callable[[], Settler],
                 timings: RollTimings, clock: Callable[[], float],
                 on_status: Callable[[DiceStatus], None], on_roll: Callable[[dict[str, Any]], None],
                 led: StatusLed | None = None, rest_reader: Callable[[], None] | None = None,
                 dice: DiceSpec = DiceSpec(), keep_roll: RollKeeper | None = None,
                 look_at_empty_tray: Callable[[np.ndarray], object] | None = None) -> None:
        """`rest_reader` runs on the ticking thread once a roll's reading is over (proposed,
        failed, cancelled), so the reader can let go of what it keeps only for reading.
        `dice`: the dice the game rolls, which `confirm` accepts.
        `keep_roll(frame, reading, confirmed, dice)` runs there too after the players confirm a
        proposal (as it was or corrected): the frame read last, the proposal, the confirmed values
        and the dice the game rolls.
        `look_at_empty_tray(frame)` runs there with a main frame taken at a roll's first look,
        before the dice fall, for the reader to keep as its empty tray where it shows one."""
        self.dice = dice
        self._make_camera = make_camera
        self._reader = reader
        self._rest_reader = rest_reader
        self._reader_busy = False  # read since the last rest; only the ticking thread touches it
        self._keep_roll = keep_roll
        self._look_at_empty_tray = look_at_empty_tray
        self._tray_look_due = False  # a roll began and its first look has not been taken yet
        self._proposal_frame: np.ndarray | None = None  # the frame read last for the proposal shown
        self._roll_to_keep: tuple[np.ndarray, DiceReading, Confirmed, DiceSpec] | None = None
        self._new_settler = new_settler
        self._timings = timings
        self._clock = clock
        self._on_status = on_status
        self._on_roll = on_roll
        self._led = led
        self._lock = threading.RLock()
        self._flush_lock = threading.RLock()
        self._outbox: list[Callable[[], None]] = []
        self._camera: Camera | None = None
        self._camera_configured = True
        self._settler: Settler | None = None
        self._still_frames: list[np.ndarray] = []  # this roll's still frames, until enough to read
        self._frames_seen = 0
        self._phase_started = 0.0
        self._next_retry = -math.inf
        self._retry_pause = timings.retry_initial_s
        self._relock_requested = False
        self._watching = False
        self._latest_frame: np.ndarray | None = None
        self._status = DiceStatus(RollState.CAMERA_UNAVAILABLE, "Starting the camera", spec=dice)

    # ------------------------------------------------------------------ reading state

    @property
    def status(self) -> DiceStatus:
        with self._lock:
            return self._status

    @property
    def state(self) -> RollState:
        return self.status.state

    # ------------------------------------------------------------------ commands (any thread)

    def roll(self) -> None:
        """The roll button, space bar or on-screen button: a fresh roll starts now."""
        with self._lock:
            now = self._clock()
            if self._status.state is RollState.CAMERA_UNAVAILABLE:
                self._next_retry = now  # the player wants the camera: try again at once
            else:
                self._settler = self._new_settler()
                self._proposal_frame = None  # a proposal not confirmed is not the table's roll
                self._tray_look_due = self._look_at_empty_tray is not None
                self._enter(RollState.WAITING_FOR_MOTION, now, "Roll the dice")
        self._flush()

    def reread(self) -> None:
        """A held button: read the dice as they lie, without waiting for a roll."""
        with self._lock:
            now = self._clock()
            if self._status.state is RollState.CAMERA_UNAVAILABLE:
                self._next_retry = now
            else:
                if self._status.state is not RollState.WAITING_FOR_MOTION or self._settler is None:
                    self._settler = self._new_settler()
                self._enter(RollState.WAITING_FOR_STILL, now, "Waiting for the dice to lie still")
        self._flush()

    def cancel(self) -> None:
        """Stop the roll in progress or drop the proposal; the dice can still be typed in."""
        with self._lock:
            if self._status.state in ROLLING or self._status.state is RollState.PROPOSED:
                self._settler = None
                self._latest_frame = self._proposal_frame = None  # a full frame (9 MB at 2304x1296) nobody looks at now
                self._enter(RollState.CANCELLED, self._clock(), "Roll cancelled")
        self._flush()

    def confirm(self, dice: Mapping[str, int] | None = None) -> None:
        """Accept the proposal as it is (dice=None) or the player's own dice (a fix or manual entry).

        Own dice are accepted in every state, so a game goes on without a camera.
        Raises InvalidDice when the proposal is incomplete or the dice are not the
        game's dice with 1-6 pips.
        """
        with self._lock:
            if dice is None:
                if self._status.state is not RollState.PROPOSED or self._status.reading is None:
                    raise InvalidDice("there is no reading to confirm; enter the dice by hand")
                values = self._status.reading.values_by_colour(self.dice)
                unread = [colour for colour, pips in values.items() if pips is None]
                if unread:
                    raise InvalidDice(f"not read for sure: {', '.join(unread)}; correct these dice first")
                dice = {colour: int(pips) for colour, pips in values.items() if pips is not None}
            rolled = checked_dice(dice, self.dice)
            action = {"type": "roll", "dice": rolled}
            self._keep_if_proposed(rolled)
            if self._status.state is not RollState.CAMERA_UNAVAILABLE:  # that notice (and its retries) stay
                self._settler = None
                self._latest_frame = None  # as for cancel: the roll's frame is done with
                self._enter(RollState.CONFIRMED, self._clock(), "Dice confirmed")
            self._outbox.append(lambda: self._on_roll(action))
        self._flush()

    def confirm_groups(self, groups: Mapping[str, Sequence[int]] | None = None) -> dict[str, list[int]]:
        """For a game whose colours repeat: accept the proposal as it is (groups=None) or the
        players' own dice (fixed or typed in) as colour -> pips of each die, and return them
        checked. The game's own screen records them as its actions, so no roll is emitted; a
        confirmed proposal is kept (`keep_roll`) as in `confirm`.

        Own dice are accepted in every state. Raises InvalidDice when the proposal has dice not
        read for sure, or the dice are not the game's with 1-6 pips each.
        """
        with self._lock:
            if groups is None:
                reading = self._status.reading
                if self._status.state is not RollState.PROPOSED or reading is None:
                    raise InvalidDice("there is no reading to confirm; enter the dice by hand")
                unread = [d for d in reading.dice if d.unsure or d.colour not in self.dice.colours]
                if unread:
                    raise InvalidDice(f"{len(unread)} dice not read for sure; correct these dice first")
                groups = {colour: [int(d.value) for d in dice if d.value is not None]
                          for colour, dice in reading.by_colour(self.dice).items()}
            checked = checked_groups(groups, self.dice)
            self._keep_if_proposed(checked)
            if self._status.state is not RollState.CAMERA_UNAVAILABLE:
                self._settler = None
                self._latest_frame = None
                self._enter(RollState.CONFIRMED, self._clock(), "Dice confirmed")
        self._flush()
        return checked

    def _keep_if_proposed(self, confirmed: Confirmed) -> None:
        """A confirmed camera proposal is handed to `keep_roll` on the next tick, with the frame it
        was read from; dice typed in without one are not (caller holds the lock)."""
        proposal = self._status.reading if self._status.state is RollState.PROPOSED else None
        if proposal is not None and self._proposal_frame is not None and self._keep_roll is not None:
            self._roll_to_keep = (self._proposal_frame, proposal, confirmed, self.dice)
        self._proposal_frame = None

    def relock_exposure(self) -> None:
        """Ask the camera to adapt to new light and lock again (done on the next tick)."""
        with self._lock:
            self._relock_requested = True

    def watch(self, on: bool) -> None:
        """Keep taking small frames between rolls too, for a live camera view (aiming, light).

        Off by default: a replayed folder or video would otherwise run on between rolls.
        """
        with self._lock:
            self._watching = on

    def latest_frame(self) -> np.ndarray | None:
        """The newest frame the service took (BGR uint8); None before the first one and once a
        roll is confirmed or cancelled, until the next frame."""
        with self._lock:
            return self._latest_frame

    # ------------------------------------------------------------------ the clock's side

    def tick(self, now: float) -> None:
        """Advance the flow: open or retry the camera, or take one look while a roll goes on.

        Call it from one thread only. The slow parts (opening the camera, taking
        frames, reading dice) run outside the lock, so commands from the UI never
        wait for them; when a command changes the state meanwhile, the look is dropped.
        """
        with self._lock:
            before = self._status
            camera, settler = self._camera, self._settler
            job = self._job_for(now, before.state, camera, settler)
            gathered = tuple(self._still_frames)
            tray_look = None  # the roll's first look: the tray before the dice fall
            if job is _Job.LOOK and before.state is RollState.WAITING_FOR_MOTION and self._tray_look_due:
                tray_look, self._tray_look_due = self._look_at_empty_tray, False
        try:
            if job is _Job.OPEN:
                opened = self._open_camera()
            elif job is _Job.RELOCK and camera is not None:
                camera.relock_exposure()
            elif job is _Job.LOOK and camera is not None and settler is not None:
                look = self._look(now, before.state, camera, settler, gathered)
                if tray_look is not None:  # the main frame of this first motion frame
                    self._look_at_tray(camera, tray_look)
            elif job is _Job.PREVIEW and camera is not None:
                preview = to_bgr_uint8(np.asarray(camera.read_motion()), "the camera's motion frame")
        except Exception as exc:  # a camera fault, or garbage it delivered: never the end of the ticker
            problem = str(exc) if isinstance(exc, CameraError) else f"{type(exc).__name__}: {exc}"
            with self._lock:
                if job is _Job.OPEN:
                    self._open_failed(now, problem)
                elif self._camera is camera:
                    self._camera_lost(now, problem)
        else:
            with self._lock:
                if job is _Job.OPEN:
                    self._opened(now, opened)
                elif job is _Job.PREVIEW:
                    self._latest_frame = preview
                elif job is _Job.LOOK:
                    self._latest_frame = look.frame
                    if self._status is before:
                        self._apply_look(now, before.state, look)
        with self._lock:
            if self._led is not None:
                self._led.poll(now)
            rest = self._reader_busy and self._status.state not in ROLLING
            to_keep, self._roll_to_keep = self._roll_to_keep, None
        if rest and self._rest_reader is not None:
            self._reader_busy = False
            self._rest_reader()
        if to_keep is not None and self._keep_roll is not None:
            try:
                self._keep_roll(*to_keep)
            except Exception:  # a full disk costs the table's dataset a roll, never the game
                log.exception("confirmed roll not kept")
        self._flush()

    def _job_for(self, now: float, state: RollState, camera: Camera | None,
                 settler: Settler | None) -> _Job | None:
        """What this tick should do (caller holds the lock)."""
        if state is RollState.CAMERA_UNAVAILABLE:
            return _Job.OPEN if self._camera_configured and now >= self._next_retry else None
        if camera is None:
            return None
        if self._relock_requested and state not in ROLLING:
            self._relock_requested = False
            return _Job.RELOCK
        if state in ROLLING and settler is not None:
            return _Job.LOOK
        return _Job.PREVIEW if self._watching else None

    def _open_camera(self) -> Camera | None:
        camera = self._make_camera()
        if camera is not None:
            camera.open()
        return camera

    def _look_at_tray(self, camera: Camera, look_at: Callable[[np.ndarray], object]) -> None:
        """The tray as the roll starts (the main frame of its first motion frame, where the camera
        grabs them together), handed to `look_at` (`look_at_empty_tray`); a fault of the reader's
        costs the table that look, never the roll (a camera fault is the camera's)."""
        frame = to_bgr_uint8(np.asarray(camera.read_main()), "the camera's main frame")
        self._reader_busy = True
        try:
            look_at(frame)
        except Exception:
            log.exception("the tray as the roll started was not looked at")

    def _look(self, now: float, state: RollState, camera: Camera, settler: Settler,
              gathered: Sequence[np.ndarray]) -> _Look:
        """One motion frame, and while reading a still tray one main frame: kept with the ones
        `gathered` before it until there are `still_frames`, whose mean the reader then reads."""
        small = to_bgr_uint8(np.asarray(camera.read_motion()), "the camera's motion frame")
        try:
            motion = settler.update(now, small)
        except ValueError as exc:  # e.g. a frame too small to compare
            raise CameraError(f"the camera's motion frame is unusable: {exc}") from exc
        if state is not RollState.READING or not motion.still:
            return _Look(small, motion)
        frame = to_bgr_uint8(np.asarray(camera.read_main()), "the camera's main frame")
        frames = [*gathered, frame]
        if len(frames) < self._timings.still_frames:
            return _Look(frame, motion)
        self._reader_busy = True
        try:
            picture = still_picture(frames)
            return _Look(picture, motion, reading=self._reader(picture))
        except Exception as exc:  # a reader fault must cost one roll, never the game
            return _Look(frame, motion, problem=f"{type(exc).__name__}: {exc}")

    def _apply_look(self, now: float, state: RollState, look: _Look) -> None:
        self._frames_seen += 1
        motion = look.motion
        if state is RollState.WAITING_FOR_MOTION:
            # The first frame has nothing to be compared with, so it cannot show a roll.
            moved = self._frames_seen > 1 and motion.motion > self._timings.motion_fraction
            if moved or now - self._phase_started >= self._timings.motion_timeout_s:
                self._enter(RollState.WAITING_FOR_STILL, now, "Waiting for the dice to lie still")
        elif not motion.still:
            if state is RollState.READING:
                self._still_frames = []
                self._set(RollState.WAITING_FOR_STILL, "Waiting for the dice to lie still")
            elif now - self._phase_started >= self._timings.settle_timeout_s:
                self._settler = None
                self._enter(RollState.ERROR, now,
                            "The dice did not come to rest within {seconds:g} s: roll again or enter them by hand",
                            {"seconds": self._timings.settle_timeout_s})
        elif state is RollState.WAITING_FOR_STILL:
            self._still_frames = []
            self._set(RollState.READING, "Reading the dice")
        else:
            self._take_reading(now, look)

    def _take_reading(self, now: float, look: _Look) -> None:
        """A still frame kept for later, or the reading of the still frames' mean proposed."""
        if look.reading is None and not look.problem:
            self._still_frames.append(look.frame)
            return
        frames = len(self._still_frames) + 1
        self._settler = None
        if look.reading is None:
            self._enter(RollState.ERROR, now, "The dice reader failed ({problem}): enter the dice by hand",
                        {"problem": look.problem})
            return
        read = one_die_per_colour(look.reading, self.dice.repeats)
        note = f"the mean of {frames} still frame(s) read"
        read = replace(read, message=f"{note}: {read.message}" if read.message else note)
        complete = self._repeats_complete(read) if self.dice.repeats else self._complete(read)
        self._proposal_frame = look.frame
        self._enter(RollState.PROPOSED, now,
                    "Check the dice and confirm" if complete else "Some dice are unclear: correct them, then confirm",
                    {"detail": read.message}, reading=read)

    def _complete(self, reading: DiceReading) -> bool:
        """Each of the game's dice read for sure, one of each colour."""
        read = reading.values_by_colour(self.dice)
        return len(reading.dice) == self.dice.count and None not in read.values()

    def _repeats_complete(self, reading: DiceReading) -> bool:
        """Colours repeat, so how many dice lie in the tray is the table's to say: every die
        found is read for sure in one of the game's colours."""
        return bool(reading.dice) and not any(d.unsure or d.colour not in self.dice.colours for d in reading.dice)

    def _open_failed(self, now: float, problem: str) -> None:
        self._next_retry = now + self._retry_pause
        self._retry_pause = min(self._retry_pause * 2, self._timings.retry_max_s)
        self._set(RollState.CAMERA_UNAVAILABLE,
                  "Camera unavailable ({problem}); trying again. Enter the dice by hand meanwhile",
                  {"problem": problem})

    def _opened(self, now: float, camera: Camera | None) -> None:
        if camera is None:
            self._camera_configured = False
            self._set(RollState.CAMERA_UNAVAILABLE, "No camera is configured: enter the dice by hand")
            return
        self._camera = camera
        self._retry_pause = self._timings.retry_initial_s
        self._enter(RollState.IDLE, now, "Ready: press the button and roll")

    def _camera_lost(self, now: float, problem: str) -> None:
        if self._camera is not None:
            self._camera.close()
            self._camera = None
        self._settler = None
        self._still_frames = []
        self._next_retry = now + self._retry_pause
        self._enter(RollState.CAMERA_UNAVAILABLE, now,
                    "Camera unavailable ({problem}); trying again. Enter the dice by hand meanwhile",
                    {"problem": problem})

    # ------------------------------------------------------------------ plumbing

    def _enter(self, state: RollState, now: float, note: str,
               params: Mapping[str, Any] | None = None, reading: DiceReading | None = None) -> None:
        self._phase_started = now
        self._still_frames = []
        if state is not RollState.WAITING_FOR_STILL:
            self._frames_seen = 0
        self._set(state, note, params, reading)

    def _set(self, state: RollState, note: str, params: Mapping[str, Any] | None = None,
             reading: DiceReading | None = None) -> None:
        status = DiceStatus(state, note, dict(params or {}), reading, self.dice)
        if status == self._status:
            return
        self._status = status
        if self._led is not None:
            self._led.show(LIGHT_FOR_STATE.get(state, "off"), self._clock())
        self._outbox.append(lambda: self._on_status(status))

    def _flush(self) -> None:
        """Run queued callbacks outside the state lock, so they may call back in.

        One thread flushes at a time, so the UI receives the states in the order
        they happened even when the ticker and a command finish together.
        """
        with self._flush_lock:
            while True:
                with self._lock:
                    pending, self._outbox = self._outbox, []
                if not pending:
                    return
                for callback in pending:
                    callback()

    def close(self) -> None:
        """Release the camera and the light (the button belongs to whoever opened it)."""
        with self._lock:
            if self._camera is not None:
                self._camera.close()
                self._camera = None
            if self._led is not None:
                self._led.show("off", self._clock())


class TickThread:
    """Calls `tick(now)` every `interval_s` on a worker thread until `stop()`.

    Camera reads and the reader take tens of milliseconds, too long for the UI
    thread; `stop()` ends and joins the thread, so nothing is left behind.
    """

    def __init__(self, tick: Callable[[float], None], interval_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._tick = tick
        self._interval_s = interval_s
        self._clock = clock
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="windrose-dice", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._tick(self._clock())
            except Exception:  # one bad tick (a callback, the status light) must not end the dice for the game
                log.exception("dice service tick failed; going on")
            self._stopping.wait(self._interval_s)

    def stop(self, timeout_s: float = 5.0) -> bool:
        """Ask the thread to end and wait for it; True when it has ended."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
        return not self._thread.is_alive()

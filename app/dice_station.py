"""Builds the dice station from the settings: camera, reader, settling, button, light, ticker.

The UI calls `build_dice_station` once, wraps its two callbacks in
Clock.schedule_once (they arrive on the ticker thread or gpiozero's), binds
the space bar and its on-screen button to `station.service.roll` (and a long
press to `reread`), then `start()`s it and `stop()`s it on exit. The camera
check calibrates the dice colours through `calibrate_now` and `keep_calibration`;
the reader uses a kept calibration from the next roll on. The reader's refits on the table's own
rolls (app.reader_adaptation), one per reader mode, are read at start and by `use_adaptation`;
the one of the game's dice (`use_dice`) is applied.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from gpiozero import Factory

from app.config import Config
from app.dice_service import DiceService, DiceStatus, RollTimings, TickThread
from app.games.base import Message
from app.reader_adaptation import ReaderAdaptation
from app.session import PlayerNotice
from hardware.button import RollButton
from hardware.camera import Camera, CameraError, CameraSettings, TimedCamera, make_camera, to_bgr_uint8
from hardware.gpio import GpioUnavailable, LgpioChip
from hardware.status_led import StatusLed
from vision.calibrate import (
    Calibration,
    CalibrationError,
    calibrate,
    calibrate_set,
    colour_set_path,
    default_calibration_path,
    load_calibration,
    save_calibration,
)
from vision.adapt import Adaptation
from vision.learned_params import LearnedParams
from vision.frame import tray_corner_pixels
from vision.params import VisionParams
from vision.perspective import CameraSlant, camera_slant
from vision.colour import CLASSICAL_MEASURE, LEARNED_MEASURE, default_models_for
from vision.reader import learned_models, read_dice, release_learned_models
from vision.reference import (
    EmptyTray,
    default_reference_path,
    load_reference,
    save_reference,
    seen_from_where_taken,
    shows_empty_tray,
    tray_unchanged,
)
from vision.remembered_looks import RememberedLooks, default_looks_path
from vision.settle import SettleDetector, SettleParams
from vision.table_rolls import Confirmed, default_rolls_folder, keep_roll
from vision.types import ANY_DICE_MODE, SIX_COLOURS_MODE, DiceReading, DiceSpec, ExpectMode

log = logging.getLogger(__name__)


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
                       settle_timeout_s=settle["max_wait_s"], still_frames=settle["still_frames"],
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
        report(PlayerNotice(Message("{problem}; using the built-in dice colours until the table is calibrated again",
                                    {"problem": str(exc)})))
        return None


def keep_table_roll(calibration_path: Path, limit: int, empty_tray: Callable[[], EmptyTray | None], frame: np.ndarray,
                    reading: DiceReading, confirmed: Confirmed, dice: DiceSpec) -> None:
    """Keep a confirmed roll among the table's rolls read in the same reader mode as it
    (`default_rolls_folder`): `vision adapt` refits each mode on its own rolls, judged as the
    reader read them, beside the empty tray it had then (`empty_tray`)."""
    tray = empty_tray()
    keep_roll(default_rolls_folder(calibration_path, dice.reader_mode), frame, reading, confirmed, limit,
              None if tray is None else tray.picture())


class TableReader:
    """`read_dice` for the game's dice with the table's current colour calibration, which a new
    calibration replaces while the game goes on (the next frame read uses it), and the picture
    of the empty tray (stored at `reference_path` by the camera check), replaced for the rest of
    the run whenever a still frame shows no die. The camera and the dice do not change between
    rolls, nor between runs: the scale the last complete reading looked at is given to the next
    (`look_scale`), which then looks there alone where it finds the game's dice (all of them:
    `DiceSpec.count`). Each kind of dice keeps its own look (another game's dice may lie at
    another size), stored at `looks_path` for the next start and forgotten by a camera check,
    and at the first frame of a run that the stored empty tray no longer matches (the camera was
    moved, e.g. packed away between two evenings, where a look of before would read its dice at
    the wrong size)."""

    def __init__(self, params: VisionParams, learned: LearnedParams, calibration: Calibration | None,
                 reference_path: Path | None = None, looks_path: Path | None = None) -> None:
        self.params = params
        self.learned = learned
        self.calibration = calibration
        self.dice = DiceSpec()  # the dice of the game on the table
        self.colour_sets: dict[tuple[str, ...], Calibration] = {}  # the game's colours -> their models
        self.reference_path = reference_path
        stored = load_reference(reference_path) if reference_path is not None else None
        self.reference = None if stored is None else EmptyTray.of(stored, params)
        # The empty tray in use came from the camera check, or from frames compared with its
        # picture; False where a reading alone made it, which a die the reader doubted may be in.
        self.tray_marked = stored is not None
        self.looks = RememberedLooks(looks_path)
        self._looks_on_trial = bool(self.looks.looks)  # stored by a run before, not yet seen to fit

    @property
    def look_scale(self) -> float | None:
        """The look the last complete reading of the game's dice at this table took, or None."""
        return self.looks.look_for(self.dice)

    def __call__(self, frame: np.ndarray) -> DiceReading:
        if self._looks_on_trial:
            self._looks_on_trial = False
            if self.reference is not None and not seen_from_where_taken(frame, self.reference, self.params):
                self.looks.forget_all()
        calibration = self.calibration if self.dice.names_jointly else self.colour_set()
        reading = read_dice(frame, params=self.params, expect=self.dice.reader_mode, calibration=calibration,
                            learned=self.learned, reference=self.reference, look_scale=self.look_scale,
                            dice_count=self.dice.count)
        if reading.complete_for(self.dice) and reading.look_scale is not None:
            self.looks.remember(self.dice, reading.look_scale)
        if shows_empty_tray(frame, len(reading.dice), self.params, self.reference):
            self.tray_marked = (self.tray_marked and self.reference is not None
                                and seen_from_where_taken(frame, self.reference, self.params))
            self.reference = EmptyTray.of(frame, self.params)  # the light drifts: the newest empty tray
        return reading

    def look_at_empty_tray(self, frame: np.ndarray) -> bool:
        """A frame taken as a roll starts, before the dice fall: kept as the empty tray (for this
        run) where it shows one, so a table that never marked its tray is read beside its empty
        tray from the first roll that finds it empty, and a kept one follows the light. The
        comparison with the empty tray in use decides where it can: a frame like it replaces it,
        and one unlike it leaves the camera check's picture. Else (no empty tray, the camera
        turned, or one a reading alone made, which may hold a die the reader doubted) a reading
        decides, and a die it only doubts (board art, a token) does not stop it: true for the
        frame kept."""
        empty = tray_unchanged(frame, self.params, self.reference) if self.reference is not None else None
        if empty is None or (not empty and not self.tray_marked):
            reading = read_dice(frame, params=self.params, expect=self.dice.reader_mode,
                                calibration=self.calibration if self.dice.names_jointly else self.colour_set(),
                                learned=self.learned, dice_count=self.dice.count)
            if shows_empty_tray(frame, sum(not die.unsure for die in reading.dice), self.params):
                self.reference, self.tray_marked = EmptyTray.of(frame, self.params), False
                return True
            return False
        if empty:
            self.reference = EmptyTray.of(frame, self.params)
        return empty

    def colour_set(self) -> Calibration:
        """The colours of the game's dice (which may repeat) as the camera check learnt them for
        this table (stored beside the six dice's calibration), else as built in."""
        colours = self.dice.colours
        if colours not in self.colour_sets:
            self.colour_sets[colours] = self._stored_set(colours)
        return self.colour_sets[colours]

    def _stored_set(self, colours: tuple[str, ...]) -> Calibration:
        built_in = Calibration(default_models_for(colours, self.params), self.measure, colours)
        path = colour_set_path(self.params, colours)
        if not path.exists():
            return built_in
        try:
            stored = load_calibration(path)
        except CalibrationError as exc:
            log.warning("learnt dice colours not used: %s", exc)
            return built_in
        return stored if stored.colours == colours else built_in

    def keep_reference(self, frame: np.ndarray) -> None:
        """Use `frame` as the empty tray from now on, and store it for the next start (a failed
        write only costs that: the reader keeps it for this run). The camera check takes it, so
        the camera may have moved: the looks remembered before are forgotten."""
        self.reference, self.tray_marked = EmptyTray.of(frame, self.params), True
        self.looks.forget_all()
        if self.reference_path is not None:
            try:
                save_reference(frame, self.reference_path)
            except OSError as exc:
                log.warning("empty-tray picture not stored: %s", exc)

    def rest(self) -> None:
        """Between rolls: the learned models go (some 13 MB), loaded again by the next read."""
        release_learned_models()

    @property
    def measure(self) -> str:
        """Which reader reads (the learned one when its models load): its colour measure."""
        return LEARNED_MEASURE if not isinstance(learned_models(self.learned), str) else CLASSICAL_MEASURE

    @property
    def calibration_applies(self) -> bool:
        """A stored calibration is used only by the reader whose measure made it (for a game
        whose colours repeat: the colours learnt for its dice)."""
        if not self.dice.names_jointly:
            path = colour_set_path(self.params, self.dice.colours)
            return path.exists() and self.colour_set().measure == self.measure
        return self.calibration is not None and self.calibration.measure == self.measure


class SharedCamera:
    """The station's camera, used by the ticker thread and by a calibration asked for on
    screen: one caller at a time, so neither gets half a frame."""

    def __init__(self, camera: Camera) -> None:
        self._camera = camera
        self._lock = threading.Lock()
        self.description = camera.description
        self.is_open = False

    def open(self) -> None:
        with self._lock:
            self._camera.open()
            self.is_open = True

    def read_main(self) -> np.ndarray:
        with self._lock:
            return self._camera.read_main()

    def read_motion(self) -> np.ndarray:
        with self._lock:
            return self._camera.read_motion()

    def relock_exposure(self) -> None:
        with self._lock:
            self._camera.relock_exposure()

    def close(self) -> None:
        with self._lock:
            self.is_open = False
            self._camera.close()


@dataclass
class DiceStation:
    """Everything that turns a physical roll into a `roll` action, started and stopped as one."""

    service: DiceService
    ticker: TickThread
    reader: TableReader
    calibration_path: Path
    button: RollButton | None = None
    led: StatusLed | None = None
    problems: list[str] = field(default_factory=list)
    cameras: list[SharedCamera] = field(default_factory=list)  # the camera last made (at most one)
    # The reader's refit on the table's own rolls, one per reader mode (each mode's rolls are its own).
    adaptations: dict[ExpectMode, ReaderAdaptation] = field(default_factory=dict)
    table_calibration: Calibration | None = None  # the camera check's, which the six dice's refit's colours replace
    frame_size: tuple[int, int] | None = None  # the camera's picture size as configured (width, height)

    @property
    def mode(self) -> ExpectMode:
        """The reader mode of the game's dice."""
        return self.reader.dice.reader_mode

    @property
    def adaptation(self) -> ReaderAdaptation | None:
        """The refit of the game's dice' reader mode (what Settings shows and acts on)."""
        return self.adaptations.get(self.mode)

    def camera_slant(self) -> CameraSlant | None:
        """What the tray's four corners (the camera check's taps) tell of the camera: how far from
        straight down it looks, or that they do not fit `[vision] camera_fov_deg`. None without
        corners. The picture's size is the empty tray's (the camera's own), else the configured one."""
        reference = self.reader.reference
        size = reference.frame_size if reference is not None else self.frame_size
        corners = None if size is None else tray_corner_pixels(self.reader.params, *size)
        if size is None or corners is None:
            return None
        return camera_slant(corners, size[0], size[1], self.reader.params.camera_fov_deg)

    def use_dice(self, dice: DiceSpec) -> None:
        """Read and accept the dice of the game now on the table, with its reader mode's refit."""
        self.service.dice = dice
        self.reader.dice = dice
        self._apply_adaptation()

    def take_frame(self) -> np.ndarray:
        """A full-size frame from the running camera; CameraError when none is open."""
        camera = self.cameras[0] if self.cameras else None
        if camera is None or not camera.is_open:
            raise CameraError("the camera is not running")
        return to_bgr_uint8(np.asarray(camera.read_main()), camera.description)

    def calibrate_now(self) -> Calibration:
        """Learn the dice colours from what the camera sees now (the six dice, or one die of each
        colour of a game whose colours repeat); nothing is stored yet.
        CameraError or CalibrationError say why it failed."""
        if not self.reader.dice.names_jointly:
            return calibrate_set(self.take_frame(), self.reader.dice.colours, self.reader.params, self.reader.learned)
        return calibrate(self.take_frame(), self.reader.params, self.reader.learned)

    def take_empty_tray(self) -> bool:
        """Take the camera's picture as the empty-tray reference, when the reader finds no die in
        it (True); with dice in the tray nothing changes (False). CameraError when no picture."""
        frame = self.take_frame()
        reading = read_dice(frame, params=self.reader.params, expect="any", learned=self.reader.learned)
        if not shows_empty_tray(frame, len(reading.dice), self.reader.params):
            return False
        self.reader.keep_reference(frame)
        return True

    def keep_calibration(self, calibration: Calibration) -> Path:
        """Store the calibration (atomically: a failed write leaves the old file) and read it
        back for the reader; OSError or CalibrationError leave the reader as it was."""
        if calibration.is_set:
            return self._keep_colour_set(calibration)
        save_calibration(calibration, self.calibration_path)
        self.table_calibration = load_calibration(self.calibration_path)
        self._drop_outdated_adaptation()
        return self.calibration_path

    def _keep_colour_set(self, calibration: Calibration) -> Path:
        """As keep_calibration, for the colours of a game whose dice repeat them (a file of their
        own). The any-mode refit was judged without colours: it stays in use."""
        path = colour_set_path(self.reader.params, calibration.colours)
        save_calibration(calibration, path)
        self.reader.colour_sets[calibration.colours] = load_calibration(path)
        return path

    def use_adaptation(self, mode: ExpectMode | None = None) -> str:
        """Read the refit of the reader's `mode` (None: every mode's) from disk again and read
        the game's dice with their mode's from the next frame on, or, when it cannot be applied,
        with the shipped models and the table's calibration; why `mode`'s (or, for None, the
        game's mode's) is not applied, or ""."""
        for expect, adaptation in self.adaptations.items():
            if mode is None or expect == mode:
                adaptation.load()
        self._apply_adaptation()
        asked = self.adaptations.get(mode if mode is not None else self.mode)
        return "" if asked is None else asked.problem

    def _apply_adaptation(self) -> None:
        """Read with the refit of the game's dice' mode (as loaded), else as shipped."""
        adaptation = self.adaptation
        if adaptation is None:
            self.reader.calibration = self.table_calibration
            return
        self.reader.learned, self.reader.calibration = adaptation.reading_with(self.table_calibration)

    def learn_from_rolls(self, mode: ExpectMode | None = None) -> Adaptation:
        """Refit the reader on the rolls kept of `mode` (None: the game's dice' mode; minutes:
        off the UI thread), written when better; `use_adaptation` applies it. AdaptError or
        OSError say why not."""
        adaptation = self.adaptations.get(mode if mode is not None else self.mode)
        if adaptation is None:
            raise OSError("the reader's adaptation has no place on this station")
        return adaptation.learn(self.table_calibration)

    def forget_adaptation(self, mode: ExpectMode | None = None) -> None:
        """Back to the shipped models for `mode`'s dice (None: the game's dice' mode); OSError
        when the refit cannot be deleted."""
        adaptation = self.adaptations.get(mode if mode is not None else self.mode)
        if adaptation is not None:
            adaptation.forget()
        self._apply_adaptation()

    def _drop_outdated_adaptation(self) -> None:
        """A new calibration of the six dice replaces their refit's colours: that refit,
        judged against the old one, goes (a new run can make another). The any-mode refit was
        judged without colours and stays."""
        adaptation = self.adaptations.get(SIX_COLOURS_MODE)
        if adaptation is not None and adaptation.in_use is not None:
            try:
                adaptation.forget()
            except OSError as exc:
                log.warning("outdated adaptation not deleted: %s", exc)
        self.use_adaptation(SIX_COLOURS_MODE)

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
    cameras: list[SharedCamera] = []

    def open_camera() -> Camera | None:
        camera = make_camera(settings)
        if camera is None:
            return None
        cameras[:] = [SharedCamera(TimedCamera(camera, config["camera"]["read_timeout_s"]))]
        return cameras[0]

    reference_path = default_reference_path(default_calibration_path(vision_params))
    reader = TableReader(vision_params, learned_params, calibration, reference_path, default_looks_path(reference_path))
    adaptations: dict[ExpectMode, ReaderAdaptation] = {
        expect: ReaderAdaptation(default_calibration_path(vision_params), vision_params, learned_params, expect)
        for expect in (SIX_COLOURS_MODE, ANY_DICE_MODE)}
    service = DiceService(
        make_camera=open_camera,
        reader=reader,
        new_settler=lambda: SettleDetector(settle_params, vision_params.tray),
        timings=roll_timings(config), clock=clock,
        on_status=on_status, on_roll=on_roll, led=led, rest_reader=reader.rest,
        keep_roll=(functools.partial(keep_table_roll, default_calibration_path(vision_params), vision_params.keep_rolls,
                                     lambda: reader.reference)
                   if vision_params.keep_rolls > 0 else None),
        look_at_empty_tray=reader.look_at_empty_tray)
    button = _open_button(config, service, clock, pin_factory, note)

    def tick(now: float) -> None:
        if button is not None:
            button.poll(now)
        service.tick(now)

    ticker = TickThread(tick, config["camera"]["tick_interval_s"], clock)
    station = DiceStation(service=service, ticker=ticker, reader=reader,
                          calibration_path=default_calibration_path(vision_params), button=button, led=led,
                          problems=problems, cameras=cameras, adaptations=adaptations, table_calibration=calibration,
                          frame_size=settings.main_size)
    _start_adaptation(station, note)
    return station


def _start_adaptation(station: DiceStation, note: Callable[[str], None]) -> None:
    """Read with the table's refits from the first roll on; each that cannot be applied is said
    once (its problem names its file, and so its mode's rolls)."""
    station.use_adaptation()
    for adaptation in station.adaptations.values():
        if adaptation.problem:
            note(PlayerNotice(Message("The reader's refit on this table's rolls is not used ({problem}); "
                                      "reading with the shipped models", {"problem": adaptation.problem})))


def _open_led(config: Config, pin_factory: Factory | None,
              note: Callable[[str], None]) -> StatusLed | None:
    table = config["led"]
    if not table["enabled"]:
        return None
    try:
        return StatusLed(table["pin"], table["active_high"], table["blink_period_s"], pin_factory)
    except GpioUnavailable as exc:
        note(PlayerNotice(Message("{problem}; running without the status light", {"problem": str(exc)})))
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
        note(PlayerNotice(Message("{problem}; use the on-screen roll button (or the space bar)",
                                  {"problem": str(exc)})))
        return None

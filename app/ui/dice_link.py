"""The UI's side of the dice station: callbacks moved onto the Kivy thread, status kept for screens.

The station's callbacks arrive on its ticker thread (or gpiozero's); only the
UI thread may touch widgets, so both are re-posted with Clock.schedule_once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kivy.clock import Clock

from app.dice_service import DiceStatus, InvalidDice, RollState
from app.games.base import DiceNeed
from vision.params import WHOLE_FRAME_CORNERS, Corners
from vision.types import DiceSpec


class DiceLink:
    """Wraps a started DiceStation (or nothing: manual entry only) for the dice screens."""

    def __init__(self) -> None:
        self.station: Any = None
        self.status: DiceStatus | None = None
        self.problems: list[str] = []
        self._status_listeners: list[Callable[[DiceStatus], None]] = []
        self._roll_listener: Callable[[dict[str, Any]], None] | None = None

    # -- wiring (called once at start-up) ------------------------------------------------
    def attach(self, build: Callable[..., Any], start: bool = True) -> None:
        """Build the station with callbacks that hop onto the UI thread, and start its ticker
        (a test leaves it stopped and ticks the service itself with its own clock)."""
        self.station = build(
            on_status=lambda status: Clock.schedule_once(lambda _dt: self._status_arrived(status), 0),
            on_roll=lambda action: Clock.schedule_once(lambda _dt: self._roll_arrived(action), 0),
            report=lambda problem: self.problems.append(problem),
        )
        self.status = self.station.service.status
        if start:
            self.station.start()

    def on_status(self, listener: Callable[[DiceStatus], None]) -> None:
        self._status_listeners.append(listener)

    def on_roll(self, listener: Callable[[dict[str, Any]], None]) -> None:
        self._roll_listener = listener

    def _status_arrived(self, status: DiceStatus) -> None:
        self.status = status
        for listener in list(self._status_listeners):
            listener(status)

    def _roll_arrived(self, action: dict[str, Any]) -> None:
        if self._roll_listener is not None:
            self._roll_listener(action)

    # -- what the screens ask ------------------------------------------------------------
    @property
    def has_camera(self) -> bool:
        return self.station is not None and self.status is not None and self.status.state is not RollState.CAMERA_UNAVAILABLE

    @property
    def tray_marked(self) -> bool:
        """Whether the reader compares the rolls with an empty tray this table's camera check
        took (not one a reading alone took as a roll started, nor none)."""
        return self.station is not None and self.station.reader.tray_marked

    @property
    def rolling(self) -> bool:
        return self.status is not None and self.status.state in (
            RollState.WAITING_FOR_MOTION, RollState.WAITING_FOR_STILL, RollState.READING)

    def use_dice(self, need: DiceNeed) -> None:
        """Read and accept the dice the game on the table rolls (a game's DiceNeed)."""
        if self.station is not None:
            self.station.use_dice(DiceSpec(need.count, need.colours, need.repeats))

    def roll(self) -> None:
        if self.station is not None:
            self.station.service.roll()

    def cancel(self) -> None:
        if self.station is not None:
            self.station.service.cancel()

    def confirm(self, dice: Mapping[str, int]) -> dict[str, Any] | None:
        """Hand the table's dice to the service (which emits the roll); without a station,
        return the roll action for the caller to act on. InvalidDice if the dice are not six."""
        if self.station is None:
            return {"type": "roll", "dice": dict(dice)}
        self.station.service.confirm(dict(dice))
        return None

    def confirm_groups(self, groups: Mapping[str, Sequence[int]]) -> None:
        """Tell the service the table's dice of a game whose colours repeat (colour -> pips of each
        die), so the proposal is over; the game's screen records them itself. InvalidDice if they
        are not the game's dice."""
        if self.station is not None:
            self.station.service.confirm_groups(groups)

    def tray(self) -> Corners:
        """The tray region's corners the reader looks in (fractions of the frame; the whole frame
        without a station)."""
        return WHOLE_FRAME_CORNERS if self.station is None else self.station.reader.params.tray_outline

    def latest_frame(self) -> Any:
        """The camera's newest picture (BGR array), or None."""
        if self.station is None:
            return None
        return self.station.service.latest_frame()

    def watch(self, on: bool) -> None:
        """Keep the camera looking between rolls while a live view is on screen."""
        if self.station is not None:
            self.station.service.watch(on)

    def close(self) -> None:
        """Stop the station on a thread of its own: its ticker may sit in a camera call that
        hangs, and the UI thread must never wait for that (a Settings change closes it)."""
        if self.station is not None:
            threading.Thread(target=self.station.stop, name="windrose-dice-stop", daemon=True).start()
            self.station = None


__all__ = ["DiceLink", "InvalidDice"]

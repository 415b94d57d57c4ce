"""Settling: tell a rolling tray from a still one, and make its still frames one picture.

The detector watches the small motion stream. It is fed timestamps by the
caller (no clock of its own), so it behaves the same in tests, in demo replay
and on the Pi. A frame counts as "moving" when enough pixels changed since the
previous frame, or since the first frame of the current still spell (a die
creeping slowly), or when a hand is in view: compared with the last calm frame,
a large new patch of skin colour, or a large solid patch of change that reaches
the frame border (an arm comes in from outside) and has stirred within the last
`hand_still_limit_s` (after that it is a thing put down). "Still" is only
declared after the tray has stayed quiet for `still_time_s`.

Once the tray is still, `still_picture` makes the frames taken then into the one picture the
reader reads, and `one_die_per_colour` keeps a colour read twice from standing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Sequence

import cv2
import numpy as np

from vision.frame import tray_pixels
from vision.params import WHOLE_FRAME
from vision.settle_params import CLOCK_SLACK_S, SettleConfigError, SettleParams
from vision.types import DiceReading, MotionState, UnsureReason

__all__ = ["CLOCK_SLACK_S", "SettleConfigError", "SettleDetector", "SettleParams", "one_die_per_colour",
           "still_picture"]


class SettleDetector:
    """Feed `(timestamp_s, frame)` pairs in time order; get a MotionState per frame."""

    def __init__(self, params: SettleParams, tray: tuple[float, float, float, float] = WHOLE_FRAME) -> None:
        """`tray`: the part of each frame watched (left, top, width, height as fractions of the
        frame; the reader's [vision] tray region), so that a hand reaching for cubes beside the
        tray does not hold up the reading."""
        self.params = params
        self.tray = tray
        self.reset()

    def reset(self, timestamp_s: float | None = None) -> None:
        """Forget the past, e.g. when a new roll starts (the wait clock starts at `timestamp_s`)."""
        self._previous: np.ndarray | None = None
        self._anchor: np.ndarray | None = None  # first frame of the current quiet spell
        self._static_since: float | None = None  # since when consecutive frames have not changed
        self._quiet_since: float | None = None
        self._started: float | None = timestamp_s
        self._last_time: float | None = None
        # Grey picture and skin mask of the last calm frame (no motion, no hand).
        self._calm: tuple[np.ndarray, np.ndarray] | None = None

    def update(self, timestamp_s: float, frame: np.ndarray) -> MotionState:
        p = self.params
        if self._last_time is not None and timestamp_s < self._last_time:
            raise ValueError(f"timestamps must not go backwards ({timestamp_s} after {self._last_time})")
        self._last_time = timestamp_s
        if self._started is None:
            self._started = timestamp_s
        small, skin = self._prepare(frame)
        notes: list[str] = []

        if self._previous is None or self._previous.shape != small.shape:
            motion = 1.0  # nothing to compare with yet: assume the worst
            notes.append("first frame")
        else:
            motion = self._changed(small, self._previous)
            if motion <= p.changed_fraction and self._static_since is None:
                self._static_since = timestamp_s
            if self._anchor is not None:
                motion = max(motion, self._changed(small, self._anchor))
        if motion > p.changed_fraction:
            self._static_since = None
        self._previous = small

        moving = motion > p.changed_fraction
        hand = False
        if self._calm is not None and self._calm[0].shape != small.shape:
            self._calm = None  # the stream changed size: nothing calm to compare with
        if self._calm is not None:
            changed = _difference(small, self._calm[0]) > p.pixel_change
            if np.count_nonzero(changed) > p.light_change_fraction * changed.size:
                self._calm = None  # the light changed: start over from this picture
                moving = True
                notes.append("light changed")
            else:
                skin_share, border_share = self._hand_shares(changed, skin)
                # A border-reaching change that has not stirred for long is a thing put down.
                static_for = 0.0 if self._static_since is None else timestamp_s - self._static_since
                fresh = static_for < p.hand_still_limit_s
                hand = skin_share > p.hand_fraction or (fresh and border_share > p.hand_fraction)
        if hand:
            notes.append("hand in view")
        if moving:
            notes.append("moving")
        if moving or hand:
            self._quiet_since = None
            self._anchor = None
        else:
            self._calm = (small, skin)
            if self._quiet_since is None:
                self._quiet_since = timestamp_s
                self._anchor = small
        still_for = 0.0 if self._quiet_since is None else timestamp_s - self._quiet_since
        still = self._quiet_since is not None and still_for >= p.still_time_s - CLOCK_SLACK_S
        if not still and timestamp_s - self._started > p.max_wait_s:
            notes.append("waited too long")
        return MotionState(still=still, still_for_s=still_for, motion=float(motion), notes=tuple(notes))

    def _prepare(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Grey, blurred motion image at `motion_width`, and its skin-colour mask."""
        p = self.params
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8 or min(frame.shape[:2]) < 4:
            raise ValueError(f"settle detector needs a BGR uint8 frame, got shape {frame.shape} {frame.dtype}")
        frame = _tray_part(frame, self.tray)
        height = max(1, round(frame.shape[0] * p.motion_width / frame.shape[1]))
        small = cv2.resize(frame, (p.motion_width, height), interpolation=cv2.INTER_AREA)
        if p.blur_px > 0:
            small = cv2.GaussianBlur(small, (p.blur_px | 1, p.blur_px | 1), 0)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
        skin = cv2.inRange(
            ycrcb,
            np.array([p.skin_min_brightness, p.skin_cr_min, p.skin_cb_min], np.uint8),
            np.array([255, p.skin_cr_max, p.skin_cb_max], np.uint8),
        )
        return grey, skin

    def _hand_shares(self, changed: np.ndarray, skin: np.ndarray) -> tuple[float, float]:
        """Signs of a hand since the last calm frame, as shares of the frame.

        First, the largest patch of skin colour that was not there; second, the
        largest solid patch of change that reaches the frame border (an arm comes
        in from outside; a die cannot cover that much). The second also works
        where the table itself is skin-coloured.
        """
        assert self._calm is not None
        kernel = np.ones((3, 3), np.uint8)
        new_skin = cv2.bitwise_and(skin, cv2.bitwise_not(cv2.dilate(self._calm[1], kernel)))
        new_skin = cv2.morphologyEx(new_skin, cv2.MORPH_OPEN, kernel)
        count, _, stats, _ = cv2.connectedComponentsWithStats(new_skin)
        skin_area = int(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0
        # Thin changes (edges of a tray nudged by a die) are no arm: open them away.
        width = self.params.hand_min_width_px
        solid = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((width, width), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(solid)
        height, full_width = changed.shape
        border_area = 0
        for x, y, w, h, area in stats[1:]:
            if x == 0 or y == 0 or x + w == full_width or y + h == height:
                border_area = max(border_area, int(area))
        return skin_area / changed.size, border_area / changed.size

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        diff = _difference(a, b)
        return float(np.count_nonzero(diff > self.params.pixel_change)) / diff.size


def _tray_part(frame: np.ndarray, tray: tuple[float, float, float, float]) -> np.ndarray:
    """The tray's part of a frame (at least 4 px each way: the motion frames are small)."""
    if tray == WHOLE_FRAME:
        return frame
    height, width = frame.shape[:2]
    x, y, part_width, part_height = tray_pixels(tray, width, height)
    x0, y0 = min(width - 4, x), min(height - 4, y)
    return frame[y0 : max(y0 + 4, y + part_height), x0 : max(x0 + 4, x + part_width)]


def _difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Absolute grey difference after matching b's overall brightness to a's.

    Lamps flicker and exposure breathes a little; that changes every pixel by a
    few percent, which must not look like motion.
    """
    gain = (float(a.mean()) + 1.0) / (float(b.mean()) + 1.0)
    return np.abs(a.astype(np.float32) - b.astype(np.float32) * np.float32(gain))


def still_picture(frames: Sequence[np.ndarray]) -> np.ndarray:
    """The still frames of a roll at rest as the one picture the reader reads: their pixel mean.
    Nothing in the tray moves between them, the camera's noise does, so the mean shows the dice
    as they lie with that noise averaged down (six drawn sets: 80.7 % of the dice read right from
    one frame, 81.8 % from the mean of three; docs/dice-reader.md, "Settling"). ValueError for no
    frames or frames of different sizes."""
    if not frames:
        raise ValueError("no still frame to read")
    first = frames[0]
    if any(frame.shape != first.shape or frame.dtype != np.uint8 for frame in frames):
        raise ValueError("the still frames differ in size or kind: " + ", ".join(str(f.shape) for f in frames))
    if len(frames) == 1:
        return first
    total = np.zeros(first.shape, np.float32)
    for frame in frames:
        cv2.accumulate(frame, total)
    return cv2.convertScaleAbs(total, alpha=1.0 / len(frames))


def one_die_per_colour(reading: DiceReading, repeats: bool = False) -> DiceReading:
    """Where each colour is one die's (`repeats` False: Macao's six), a colour read on two dice
    can be trusted on neither: both become unsure (colour doubtful)."""
    if repeats:
        return reading
    claims = Counter(d.colour for d in reading.dice if d.colour is not None and not d.unsure)
    doubled = {colour for colour, count in claims.items() if count > 1}
    if not doubled:
        return reading
    return replace(reading, dice=tuple(
        replace(d, value=None, unsure=True, confidence=0.0, reason=UnsureReason.COLOUR_DOUBTFUL)
        if d.colour in doubled else d for d in reading.dice))

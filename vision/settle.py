"""Settling: tell a rolling tray from a still one, and vote across still frames.

The detector watches the small motion stream. It is fed timestamps by the
caller (no clock of its own), so it behaves the same in tests, in demo replay
and on the Pi. A frame counts as "moving" when enough pixels changed since the
previous frame, or since the first frame of the current still spell (a die
creeping slowly), or when a hand is in view: compared with the last calm frame,
a large new patch of skin colour, or a large solid patch of change that reaches
the frame border (an arm comes in from outside) and has stirred within the last
`hand_still_limit_s` (after that it is a thing put down). "Still" is only
declared after the tray has stayed quiet for `still_time_s`.

`vote` then combines the readings of several still frames: a die's value is
kept only when enough of the frames agree on it; otherwise it is unsure.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import Sequence

import cv2
import numpy as np

from vision.frame import tray_pixels
from vision.params import WHOLE_FRAME
from vision.settle_params import CLOCK_SLACK_S, SettleConfigError, SettleParams
from vision.types import DiceReading, DieReading, MotionState, UnsureReason

__all__ = ["CLOCK_SLACK_S", "SettleConfigError", "SettleDetector", "SettleParams", "vote"]


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


def vote(readings: Sequence[DiceReading], params: SettleParams, repeats: bool = False) -> DiceReading:
    """Combine readings of still frames into one: per die, the value enough frames agree on.

    Dice are matched across frames by position (centre within `match_distance`
    die widths). A die keeps its value only if at least `vote_agreement` of
    all frames read that same value; a colour that frames disagree on, any
    lack of agreement, or a colour claimed by two places makes it unsure (unless the game's
    colours `repeats`: then several dice of a colour are no doubt).
    Fewer than `min_vote_frames` readings give an empty reading with a message.
    """
    if len(readings) < params.min_vote_frames:
        return DiceReading(
            dice=(), message=f"only {len(readings)} still frame(s); {params.min_vote_frames} are needed to vote"
        )
    clusters: list[list[DieReading]] = []
    for reading in readings:
        taken: set[int] = set()
        for die in reading.dice:
            best, best_dist = -1, math.inf
            for index, members in enumerate(clusters):
                if index in taken:
                    continue
                dist = _distance(die, members)
                if dist < best_dist:
                    best, best_dist = index, dist
            if best >= 0 and best_dist <= params.match_distance:
                clusters[best].append(die)
                taken.add(best)
            else:
                clusters.append([die])
                taken.add(len(clusters) - 1)

    n = len(readings)
    needed = math.ceil(params.vote_agreement * n - 1e-9)
    voted: list[DieReading] = []
    dropped = 0
    for members in clusters:
        if len(members) * 2 <= n:  # seen in at most half the frames: a flicker, not a die
            dropped += 1
            continue
        colours = Counter(m.colour for m in members)
        colour, colour_votes = colours.most_common(1)[0]
        values = Counter(m.value for m in members if not m.unsure and m.value is not None)
        value, value_votes = values.most_common(1)[0] if values else (None, 0)
        agreed = value is not None and value_votes >= needed and colour_votes >= needed
        agreeing = [m for m in members if m.value == value and not m.unsure] if agreed else []
        confidence = (value_votes / n) * float(np.mean([m.confidence for m in agreeing])) if agreeing else 0.0
        voted.append(
            DieReading(
                x=int(np.median([m.x for m in members])),
                y=int(np.median([m.y for m in members])),
                w=int(np.median([m.w for m in members])),
                h=int(np.median([m.h for m in members])),
                colour=colour,
                value=value if agreed else None,
                confidence=confidence,
                unsure=not agreed,
                reason=None if agreed else _why_not_agreed(members),
            )
        )
    # One die per colour: if two places claim the same colour, neither claim can be trusted.
    claims = Counter(d.colour for d in voted if d.colour is not None and not d.unsure)
    doubled = set() if repeats else {colour for colour, count in claims.items() if count > 1}
    voted = [replace(d, value=None, unsure=True, confidence=0.0, reason=UnsureReason.COLOUR_DOUBTFUL)
             if d.colour in doubled else d for d in voted]
    unsure = sum(1 for d in voted if d.unsure)
    message = f"voted over {n} frames"
    if unsure:
        message += f"; {unsure} die/dice without agreement"
    if dropped:
        message += f"; {dropped} detection(s) seen in too few frames ignored"
    if readings[-1].message:
        message += f" (last frame: {readings[-1].message})"  # says which reader ran
    voted.sort(key=lambda d: (d.y, d.x))
    return DiceReading(dice=tuple(voted), ms=float(np.mean([r.ms for r in readings])), message=message)


def _why_not_agreed(members: Sequence[DieReading]) -> UnsureReason:
    """Why a die the frames did not agree on is unsure: the reason most of its frames gave,
    when most found it unsure; else the frames read it differently."""
    reasons = Counter(m.reason for m in members if m.unsure)
    if reasons and sum(reasons.values()) * 2 > len(members):
        reason, _count = reasons.most_common(1)[0]
        if reason is not None:
            return reason
    return UnsureReason.FRAMES_DISAGREE


def _distance(die: DieReading, members: Sequence[DieReading]) -> float:
    """Centre distance from `die` to a cluster's mean centre, in die widths."""
    cx = np.mean([m.x + m.w / 2 for m in members])
    cy = np.mean([m.y + m.h / 2 for m in members])
    size = max(1.0, float(np.mean([max(m.w, m.h) for m in members])), max(die.w, die.h))
    return math.hypot(die.x + die.w / 2 - cx, die.y + die.h / 2 - cy) / size

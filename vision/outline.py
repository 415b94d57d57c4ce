"""Round tokens told from dice by their outline.

Game boards and their tokens are full of discs with a dot in the middle, and the classifier,
which only sees a die-sized crop, takes such a disc for a die showing 1. Read without a picture
of the empty tray, a board around the dice gave about one of these a picture, most of them
read sure, and in macao mode each one took a colour from a real die. A die's outline has corners
from any side: its top face is a square, a tilted camera adds side faces and makes it a hexagon.
A token's outline is an ellipse (a circle seen at a slant). So a candidate read as a 1 whose
outline an ellipse fits closely is not a die. Only outlines told cleanly from their surroundings
count; a die too small in the picture to show its corners is never judged.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.learned_params import LearnedParams

WINDOW_PX = 128  # the window an outline is traced in, three die sides across (a token can be twice a die)
WINDOW_SIDES = 3.0
BODY_RADIUS = 0.3  # die sides around the centre whose median colour is the body's
SURROUND_RADIUS = 0.9  # die sides from the centre beyond which the window is the surroundings
MIN_CONTRAST = 24.0  # colour distance (summed over B, G and R) of the surroundings from the body under which no outline is traced
SUM_OF_CHANNELS = np.ones((1, 3), np.float32)
PIP_CLOSING_SIDES = 0.36  # die sides: pips and a centre dot are closed over at this size
MIN_OUTLINE_POINTS = 12


@functools.lru_cache(maxsize=4)
def _rings(size: int) -> tuple[np.ndarray, np.ndarray]:
    """The window's pixels near its centre (the body) and far out (the surroundings), as masks."""
    yy, xx = np.mgrid[:size, :size]
    radius = np.hypot(xx - (size - 1) / 2.0, yy - (size - 1) / 2.0) * WINDOW_SIDES / size
    return radius < BODY_RADIUS, radius > SURROUND_RADIUS


def _median_level(levels: np.ndarray) -> float:
    """The median of 8-bit levels, by counting them (np.median sorts, many times slower here)."""
    return float(np.searchsorted(np.cumsum(np.bincount(levels, minlength=256)), (len(levels) + 1) // 2))


def off_ellipse(frame: np.ndarray, cx: float, cy: float, side: float) -> float | None:
    """How far the outline of the body at (cx, cy) lies off the ellipse fitted to it: the mean
    of |r - 1| over its points, r being each point's distance from the ellipse's centre in
    units of the ellipse's radius that way (0: an ellipse; a square about 0.07). None when no
    outline can be traced: the body is too like its surroundings in colour, or it runs out of
    the window (a die touching another, or the frame's edge)."""
    scale = WINDOW_PX / (WINDOW_SIDES * max(side, 1.0))
    to_window = np.array([[scale, 0.0, WINDOW_PX / 2.0 - cx * scale], [0.0, scale, WINDOW_PX / 2.0 - cy * scale]],
                         np.float32)
    window = cv2.warpAffine(frame, to_window, (WINDOW_PX, WINDOW_PX), flags=cv2.INTER_AREA,
                            borderMode=cv2.BORDER_REPLICATE)
    window = cv2.GaussianBlur(window, (3, 3), 0)
    centre, outside = _rings(WINDOW_PX)
    body_colour = np.median(window[centre], axis=0)
    # The sum of the three channels' differences, saturating at 255: far enough is far enough.
    distance = cv2.transform(cv2.absdiff(window, np.full_like(window, body_colour.astype(np.uint8))), SUM_OF_CHANNELS)
    surroundings = _median_level(distance[outside])
    if surroundings < MIN_CONTRAST:
        return None
    closing = max(3, int(WINDOW_PX / WINDOW_SIDES * PIP_CLOSING_SIDES) | 1)
    body = cv2.morphologyEx((distance < surroundings / 2.0).astype(np.uint8), cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (closing, closing)))
    _, parts = cv2.connectedComponents(body)
    centre_part = parts[WINDOW_PX // 2, WINDOW_PX // 2]
    if centre_part == 0:
        return None
    own = (parts == centre_part).astype(np.uint8)
    if own[0].any() or own[-1].any() or own[:, 0].any() or own[:, -1].any():
        return None
    contours, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    if len(outline) < MIN_OUTLINE_POINTS:
        return None
    (ex, ey), (width, height), degrees = cv2.fitEllipse(outline)
    if min(width, height) <= 0.0:
        return None
    points = outline[:, 0, :].astype(np.float64) - (ex, ey)
    turn = np.deg2rad(degrees)
    along = points[:, 0] * np.cos(turn) + points[:, 1] * np.sin(turn)
    across = -points[:, 0] * np.sin(turn) + points[:, 1] * np.cos(turn)
    return float(np.mean(np.abs(np.hypot(along / (width / 2.0), across / (height / 2.0)) - 1.0)))


def traced_outlines(frame: np.ndarray, centres: np.ndarray, sides: np.ndarray, probabilities: np.ndarray,
                    learned: LearnedParams) -> dict[int, float]:
    """Each candidate judged (index) and how far its outline lies off an ellipse (`off_ellipse`):
    those read as a 1 with at least `token_check_min_probability` of being a die (the least any
    path takes a candidate at), at least `token_min_side_px` across, whose outline could be
    traced; none when the check is off. `probabilities`: the classifier's, P(not a die) first."""
    if learned.token_max_off_ellipse <= 0.0:
        return {}
    traced = {}
    for i, (centre, side, p) in enumerate(zip(centres, sides, probabilities)):
        if (int(np.argmax(p[1:])) != 0 or 1.0 - float(p[0]) < learned.token_check_min_probability
                or float(side) < learned.token_min_side_px):
            continue
        off = off_ellipse(frame, float(centre[0]), float(centre[1]), float(side))
        if off is not None:
            traced[i] = off
    return traced


def round_tokens(traced: dict[int, float], learned: LearnedParams) -> list[int]:
    """The traced candidates (indices) whose outline lies within `token_max_off_ellipse` of an
    ellipse: round tokens, not dice."""
    return [i for i, off in traced.items() if off < learned.token_max_off_ellipse]

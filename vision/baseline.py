"""A plain pip-blob-and-clustering dice reader: the usual hobbyist recipe, kept as a yardstick.

`python -m vision bench` times it beside the reader on the same frames (the reader must never
be slower), and `python -m vision evaluate --reader baseline` scores it on a labelled set. It
finds round blobs (pips) of either polarity with OpenCV's blob detector, groups blobs that lie
within a die's reach of each other, and reads each group's count as a value; values only, no
colours, no tray, no models. Nothing in the app uses it.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.types import DiceReading, DieReading

WORK_LONG_SIDE = 800  # frames are read shrunk to this long side (a hobbyist's resize)
PIP_AREA_RANGE = (4.0, 400.0)  # px at the working size
# A pip's radius is about a tenth of its die's side (0.19 of a face's half-width); two pips
# of one die lie at most 0.74 die sides from their nearest neighbour (the two of a 2).
SIDE_PER_PIP_RADIUS = 10.5
GROUP_REACH_SIDES = 0.8
MIN_PIP_CONTRAST = 45  # grey levels between a pip's centre and the face around it


def _blob_detector(dark: bool) -> cv2.SimpleBlobDetector:
    settings = cv2.SimpleBlobDetector.Params()
    settings.filterByColor, settings.blobColor = True, 0 if dark else 255
    settings.filterByArea, settings.minArea, settings.maxArea = True, *PIP_AREA_RANGE
    settings.filterByCircularity, settings.minCircularity = True, 0.6
    settings.filterByInertia, settings.minInertiaRatio = True, 0.5
    settings.filterByConvexity, settings.minConvexity = True, 0.8
    return cv2.SimpleBlobDetector.create(settings)


_DETECTORS = {dark: _blob_detector(dark) for dark in (True, False)}


def read_baseline(frame: np.ndarray) -> DiceReading:
    """Each group of 1-6 pips as a die and its value; a larger group is one unsure die."""
    started = time.perf_counter()
    scale = min(1.0, WORK_LONG_SIDE / max(frame.shape[:2]))
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    dice: list[DieReading] = []
    for detector in _DETECTORS.values():
        pips = [p for p in detector.detect(grey) if _contrast(grey, p) >= MIN_PIP_CONTRAST]
        if not pips:
            continue
        centres = np.array([p.pt for p in pips], np.float32)
        radii = np.array([p.size / 2 for p in pips], np.float32)
        for group in _groups(centres, GROUP_REACH_SIDES * SIDE_PER_PIP_RADIUS * radii):
            cx, cy = centres[group].mean(axis=0)
            side = SIDE_PER_PIP_RADIUS * float(np.median(radii[group]))
            x, y = round((cx - side / 2) / scale), round((cy - side / 2) / scale)
            sure = len(group) <= 6
            dice.append(DieReading(x, y, round(side / scale), round(side / scale), None,
                                   len(group) if sure else None, 0.9 if sure else 0.3, unsure=not sure))
    return DiceReading(dice=tuple(dice), ms=(time.perf_counter() - started) * 1000.0)


def _contrast(grey: np.ndarray, pip: cv2.KeyPoint) -> float:
    """How far a blob's centre differs from the ring around it (twice its radius out)."""
    x, y, r = pip.pt[0], pip.pt[1], max(pip.size / 2, 1.0)
    ring = [(x + 2 * r * np.cos(a), y + 2 * r * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    height, width = grey.shape
    around = [float(grey[int(np.clip(v, 0, height - 1)), int(np.clip(u, 0, width - 1))]) for u, v in ring]
    return abs(float(grey[int(y), int(x)]) - float(np.median(around)))


def _groups(centres: np.ndarray, reach: np.ndarray) -> list[list[int]]:
    """Single-linkage groups: points chained by steps no longer than the two points' mean `reach`."""
    distance = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    near = distance <= (reach[:, None] + reach[None, :]) / 2
    seen = np.zeros(len(centres), bool)
    groups = []
    for start in range(len(centres)):
        if seen[start]:
            continue
        group, todo = [], [start]
        seen[start] = True
        while todo:
            i = todo.pop()
            group.append(i)
            for j in np.flatnonzero(near[i] & ~seen):
                seen[j] = True
                todo.append(int(j))
        groups.append(sorted(group))
    return groups

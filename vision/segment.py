"""Die segmentation on the coarse working frame: things that stand out from the table.

The table (tray floor, walls, cloth) is estimated by a large median filter on a
shrunken copy, which keeps long straight structures and removes small objects;
pixels far from it in Lab colour, or on strong edges, are foreground. Each blob
of the right size becomes a candidate; blobs much larger than one die are split
into as many parts as dice they can hold (touching dice).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.params import VisionParams


@dataclass(frozen=True)
class Candidate:
    """One blob that may be a die, in coarse-frame pixels."""

    box: tuple[int, int, int, int]  # x, y, w, h of the blob's bounding box
    mask: np.ndarray  # uint8 0/255, the blob inside `box`
    side: float  # estimated die side in coarse pixels (short side of the min-area rectangle)
    length: float  # long side of the min-area rectangle
    angle: float  # orientation of the min-area rectangle, degrees


def foreground_mask(colours: np.ndarray, params: VisionParams, die_side: float | None = None) -> np.ndarray:
    """Pixels of the coarse YCrCb image that differ from the local table colour, as uint8 0/255.

    YCrCb rather than Lab: ten times cheaper to convert, and distances only need to
    separate objects from the table here, not to name colours.

    Without a known die side the table is estimated with the configured (wide)
    filter; with one, the filter is sized to a couple of dice, so that tray walls
    and other long structures stay part of the table.
    """
    height, width = colours.shape[:2]
    if die_side is None:
        shrink, ksize = float(params.background_shrink), params.background_median_ksize
    else:
        shrink = max(1.0, die_side / params.background_die_px)
        ksize = max(3, int(round(params.background_kernel_dice * params.background_die_px)) | 1)
    size = (max(1, int(width / shrink)), max(1, int(height / shrink)))
    small = cv2.resize(colours, size, interpolation=cv2.INTER_AREA)
    table_small = cv2.medianBlur(small, ksize)
    table = cv2.resize(table_small, (width, height), interpolation=cv2.INTER_LINEAR)
    diff = cv2.absdiff(colours, table).astype(np.float32)
    weights = np.array([[1.0, params.foreground_chroma_weight**2, params.foreground_chroma_weight**2]], np.float32)
    squared = cv2.transform(cv2.multiply(diff, diff), weights)
    mask: np.ndarray = (squared > params.foreground_distance**2).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    if die_side is not None:
        mask = _remove_long_structures(mask, die_side, params)
    max_hole = (params.die_max_side_frac * max(mask.shape[:2])) ** 2
    return _fill_holes(mask, max_hole)


def _remove_long_structures(mask: np.ndarray, die_side: float, params: VisionParams) -> np.ndarray:
    """Drop straight runs much longer than a die (tray walls, card and board edges).

    A die is about one side long in any direction; a run that survives an opening
    with a line several dice long, across or down the frame, is not a die.
    """
    length = max(3, int(round(params.long_structure_dice * die_side)))
    runs: np.ndarray = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    runs |= cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    grow = max(1, int(round(params.long_structure_margin * die_side)))
    runs = cv2.dilate(runs, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    cleaned = cv2.bitwise_and(mask, cv2.bitwise_not(runs))
    return cv2.morphologyEx(cleaned, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _fill_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill enclosed holes up to die size (pips, glare spots) so a die is one solid blob.

    Larger holes (the floor inside a tray wall) stay open.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    holes = [c for c, h in zip(contours, hierarchy[0]) if h[3] >= 0 and cv2.contourArea(c) <= max_area]
    filled = mask.copy()
    cv2.drawContours(filled, holes, -1, (255,), thickness=cv2.FILLED)
    return filled


def find_candidates(mask: np.ndarray, params: VisionParams, die_side: float | None = None) -> list[Candidate]:
    """Blobs of die size and shape; with a known die side, blobs holding several dice are split
    and blobs clearly smaller than a die (action cubes) are left out."""
    long_side = max(mask.shape[:2])
    min_side = params.die_min_side_frac * long_side
    max_side = params.die_max_side_frac * long_side
    if die_side is not None:
        min_side = max(min_side, params.die_min_rel_side * die_side)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    candidates: list[Candidate] = []
    for index in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[index])
        if max(w, h) < min_side or area < min_side * min_side * params.die_min_fill:
            continue
        blob = (labels[y : y + h, x : x + w] == index).astype(np.uint8) * 255
        if die_side is not None and area > params.split_area_ratio * die_side * die_side:
            candidates.extend(_split(blob, (x, y), die_side, params))
            continue
        candidate = _make_candidate(blob, (x, y))
        if candidate is None or candidate.side > max_side or candidate.side < min_side * params.die_min_fill:
            continue
        if max(w, h) > params.die_max_aspect * max(candidate.side, 1.0) * np.sqrt(2.0):
            continue
        candidates.append(candidate)
    return candidates


def squareness(candidate: Candidate) -> float:
    """How much the blob looks like a lone die seen from above: how well it fills its
    min-area rectangle, times how square that rectangle is (1 for a perfect square)."""
    rectangle = max(candidate.side * candidate.length, 1.0)
    return float(np.count_nonzero(candidate.mask)) / rectangle * candidate.side / max(candidate.length, 1.0)


def _make_candidate(blob: np.ndarray, origin: tuple[int, int]) -> Candidate | None:
    points = cv2.findNonZero(blob)
    if points is None:
        return None
    (_, _), (rw, rh), angle = cv2.minAreaRect(points)
    h, w = blob.shape
    return Candidate(
        box=(origin[0], origin[1], w, h), mask=blob, side=float(min(rw, rh)), length=float(max(rw, rh)),
        angle=float(angle),
    )


def _split(blob: np.ndarray, origin: tuple[int, int], die_side: float, params: VisionParams) -> list[Candidate]:
    """Split a blob of touching dice by clustering its pixels around as many centres as dice fit."""
    area = float(np.count_nonzero(blob))
    parts = int(min(params.split_max_dice, max(1, round(area / (die_side * die_side)))))
    if parts <= 1:
        single = _make_candidate(blob, origin)
        return [] if single is None else [single]
    # Cluster on the blob's core (distance transform), so thin bridges do not pull centres.
    ys, xs = np.nonzero(blob)
    samples = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(0)
    # OpenCV allocates the labels when given None; its type stubs ask for an array there.
    _, assignment, _ = cv2.kmeans(samples, parts, None, criteria, 1, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    result: list[Candidate] = []
    for part in range(parts):
        chosen = assignment.ravel() == part
        if not np.any(chosen):
            continue
        px, py = xs[chosen], ys[chosen]
        x0, y0, x1, y1 = px.min(), py.min(), px.max() + 1, py.max() + 1
        sub = np.zeros((y1 - y0, x1 - x0), np.uint8)
        sub[py - y0, px - x0] = 255
        candidate = _make_candidate(sub, (origin[0] + int(x0), origin[1] + int(y0)))
        if candidate is not None:
            result.append(candidate)
    return result

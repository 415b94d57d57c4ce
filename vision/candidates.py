"""Die candidates as places on the frame: the typical die side, duplicates, distances between
candidates, their crops, and the centre of the die body around a point."""

from __future__ import annotations

import dataclasses
from typing import Sequence

import cv2
import numpy as np

from vision.learned_models import DiceNet, DieCandidate, crop_dice
from vision.learned_params import LearnedParams


def suppress_duplicates(candidates: list[DieCandidate], distance: float) -> list[DieCandidate]:
    kept: list[DieCandidate] = []
    for c in candidates:
        if all(np.hypot(c.cx - k.cx, c.cy - k.cy) >= distance * min(c.side, k.side) for k in kept):
            kept.append(c)
    return kept


def typical_side(found: list[DieCandidate]) -> float:
    """The frame's typical die side: the median side of the stronger half of the candidates.

    Dice on one table are about one size, and one side guessed too large or small would cut
    a misleading crop, so each crop's side is held near this one."""
    sides = np.array([c.side for c in found])
    scores = np.array([c.score for c in found])
    return float(np.median(sides[scores >= np.median(scores)]))


def sized_like_the_dice(found: list[DieCandidate], typical: float, min_ratio: float) -> list[DieCandidate]:
    """The candidates at least `min_ratio` of the typical die side: dice on one table are about
    one size, and a candidate far smaller is a speck on the table, a lone pip or a cube."""
    return [c for c in found if c.side >= min_ratio * typical]


def crop_candidates(frame: np.ndarray, candidates: list[DieCandidate], typical: float, net: DiceNet,
                    learned: LearnedParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centres, crop sides (held within side_spread of the typical side) and the classifier's crops."""
    centres = np.array([(c.cx, c.cy) for c in candidates])
    sides = np.clip([c.side for c in candidates], typical / learned.side_spread, typical * learned.side_spread)
    return centres, sides, crop_dice(frame, centres, sides, net.crop_px, net.window_sides)


def body_centre(frame: np.ndarray, cx: float, cy: float, side: float, learned: LearnedParams) -> tuple[float, float]:
    """The centre of the die body around (cx, cy): the centroid of the region of the colour
    found at that point (pips closed over), connected to it, within a die side of it.

    A weak detector peak (a die touching another, a faint one) can sit off the face's
    centre, on or beside one pip, and a crop centred there shows one pip. The point is kept
    when no die-sized region of one colour surrounds it (a pale die on a pale table).
    """
    height, width = frame.shape[:2]
    half = int(np.ceil(side))
    x0, y0 = max(0, int(cx) - half), max(0, int(cy) - half)
    x1, y1 = min(width, int(cx) + half + 1), min(height, int(cy) + half + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return cx, cy
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab).astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    distance = np.hypot(xx - cx, yy - cy) / side
    seed = lab[distance <= learned.body_seed_radius]
    if len(seed) == 0:
        return cx, cy
    # The seed's own colour: its pixels nearest the median (a pip in the seed is left out).
    gap = np.linalg.norm(seed - np.median(seed, axis=0), axis=1)
    colour = np.median(seed[gap <= np.median(gap)], axis=0)
    similar = (np.linalg.norm(lab - colour, axis=2) <= learned.body_colour_tolerance) & (distance <= 1.0)
    pip = max(3, int(side * learned.body_pip_close) | 1)
    closed = cv2.morphologyEx(similar.astype(np.uint8), cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pip, pip)))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(closed, connectivity=4)
    at = labels[min(int(cy) - y0, y1 - y0 - 1), min(int(cx) - x0, x1 - x0 - 1)]
    if at == 0:
        return cx, cy
    area = stats[at, cv2.CC_STAT_AREA] / side ** 2
    nx, ny = centroids[at][0] + x0, centroids[at][1] + y0
    if not learned.body_min_area <= area <= learned.body_max_area or np.hypot(nx - cx, ny - cy) > learned.body_max_shift * side:
        return cx, cy
    return float(nx), float(ny)


def moved_onto_body(frame: np.ndarray, candidate: DieCandidate, typical: float,
                    learned: LearnedParams) -> DieCandidate:
    """The candidate at its die body's centre (`body_centre`; where it finds no body, unmoved)."""
    cx, cy = body_centre(frame, candidate.cx, candidate.cy, typical, learned)
    return dataclasses.replace(candidate, cx=cx, cy=cy)


def clear_of(candidate: DieCandidate, dice: Sequence[DieCandidate], distance: float) -> bool:
    """Whether the candidate's centre lies at least `distance` px from every die's centre."""
    return all(np.hypot(candidate.cx - d.cx, candidate.cy - d.cy) >= distance for d in dice)


def apart(indices: list[int], found: list[DieCandidate], distance: float) -> list[int]:
    """The candidates (by index, in the order given: likeliest first) each at least `distance` px
    from every one taken before it: two flat dice's centres lie a die side apart, so a nearer
    candidate is a die already taken, seen again off its centre."""
    taken: list[int] = []
    for i in indices:
        if clear_of(found[i], [found[k] for k in taken], distance):
            taken.append(i)
    return taken


"""Finding pips on one die crop, on either polarity.

A pip is a small round spot that differs from its neighbourhood: each colour
channel of the crop minus its local median (a window wider than two pips, so
the pips vanish from the median). Light pips stand above it in some channel
(white pips; red pips on a black die), dark pips below it. Only spots whose
centre lies on the die, of pip size and round, are kept, and only those close
in size to the others (all pips on a face are alike). Spots that pass only a
weaker threshold are counted: a face with such half-seen pips is not trusted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.params import VisionParams


@dataclass(frozen=True)
class PipSet:
    """Pips of one polarity found on a die crop."""

    polarity: str  # "light" (white pips on a darker die) or "dark"
    centres: np.ndarray  # N x 2, crop pixels
    areas: np.ndarray  # N, crop pixels
    contrast: float  # median contrast over the pips
    rejected: int  # spots on the die that were not accepted as pips


def local_contrast(crop: np.ndarray, die_px: int) -> tuple[np.ndarray, np.ndarray]:
    """(lighter, darker): per pixel, the most any channel stands above / below its local median.

    The median (half a die wide) is taken at half resolution: it only has to be smooth.
    """
    height, width = crop.shape[:2]
    half = cv2.resize(crop, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA)
    ksize = max(3, (die_px // 4) | 1)
    around = cv2.resize(cv2.medianBlur(half, ksize), (width, height), interpolation=cv2.INTER_LINEAR)
    lighter = cv2.split(cv2.subtract(crop, around))
    darker = cv2.split(cv2.subtract(around, crop))
    return (
        cv2.max(cv2.max(lighter[0], lighter[1]), lighter[2]).astype(np.float32),
        cv2.max(cv2.max(darker[0], darker[1]), darker[2]).astype(np.float32),
    )


@dataclass(frozen=True)
class Spot:
    """One connected spot of a polarity's contrast map (found once per crop)."""

    centre: np.ndarray  # (x, y)
    area: float
    elongation: float  # ratio of the spot's axes (1 = round)
    axis: np.ndarray  # unit vector along its long axis
    length: float  # extent along that axis
    strength: float  # median contrast over the spot


def find_spots(signed: np.ndarray, threshold: float, die_px: int, params: VisionParams) -> list[Spot]:
    """Spots of at least pip-minimum size above `threshold` in one polarity's contrast map."""
    spots_map = (signed > threshold).astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(spots_map, connectivity=8)
    min_d = params.pip_min_diameter_frac * die_px
    big_enough = np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= np.pi * (min_d / 2.0) ** 2)[0] + 1
    spots = []
    # Plain floats and math inside the loop: numpy's per-call cost on scalars and tiny arrays
    # would dominate (a busy crop has dozens of spots).
    for index in big_enough:
        x, y, w, h, area = stats[index].tolist()
        inside = labels[y : y + h, x : x + w] == index
        moments = cv2.moments(inside.view(np.uint8), binaryImage=True)
        mu20, mu02, mu11 = moments["mu20"] / area, moments["mu02"] / area, moments["mu11"] / area
        spread = math.sqrt(((mu20 - mu02) / 2.0) ** 2 + mu11**2)
        major, minor = (mu20 + mu02) / 2.0 + spread, max((mu20 + mu02) / 2.0 - spread, 1e-6)
        turn = 0.5 * math.atan2(2.0 * mu11, mu20 - mu02)
        spots.append(Spot(
            centre=centroids[index].astype(np.float64), area=float(area), elongation=math.sqrt(major / minor),
            axis=np.array([math.cos(turn), math.sin(turn)]), length=math.sqrt(12.0 * major),
            strength=_median(signed[y : y + h, x : x + w][inside]),
        ))
    return spots


def _median(values: np.ndarray) -> float:
    """np.median of a small 1-D array, several times faster (no NaN handling needed here)."""
    ordered = np.sort(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else float((ordered[middle - 1] + ordered[middle]) / 2.0)


def find_all_spots(contrast: tuple[np.ndarray, np.ndarray], die_px: int, params: VisionParams) -> dict[str, list[Spot]]:
    """Spots of both polarities at the pip threshold."""
    return {
        "light": find_spots(contrast[0], params.pip_contrast, die_px, params),
        "dark": find_spots(contrast[1], params.pip_contrast, die_px, params),
    }


def find_pips(spots: dict[str, list[Spot]], die_mask: np.ndarray, die_px: int, params: VisionParams) -> list[PipSet]:
    """Pips of both polarities among the spots whose centre lies in `die_mask` (uint8 0/255)."""
    return [_pip_set(polarity, found, die_mask, die_px, params) for polarity, found in spots.items()]


def count_faint_spots(
    pips: PipSet, contrast: tuple[np.ndarray, np.ndarray], die_mask: np.ndarray, die_px: int, params: VisionParams
) -> int:
    """Pip-like spots of the same polarity that pass only the weaker threshold, away from the pips."""
    signed = contrast[0] if pips.polarity == "light" else contrast[1]
    weak = _pip_set(pips.polarity, find_spots(signed, params.pip_contrast_faint, die_px, params), die_mask, die_px,
                    params)
    near = params.pip_max_diameter_frac * die_px / 2
    return sum(
        1 for centre in weak.centres
        if len(pips.centres) == 0 or np.min(np.hypot(*(pips.centres - centre).T)) > near
    )


def _pip_set(polarity: str, spots: list[Spot], die_mask: np.ndarray, die_px: int, params: VisionParams) -> PipSet:
    """Pips among the spots on the die; a long spot the size of two or three pips is split
    (neighbouring pips of a six often run together)."""
    min_d = params.pip_min_diameter_frac * die_px
    max_d = params.pip_max_diameter_frac * die_px
    height, width = die_mask.shape
    on_die = [
        spot for spot in spots
        if die_mask[min(height - 1, int(round(spot.centre[1]))), min(width - 1, int(round(spot.centre[0])))]
    ]
    single = [
        spot.area for spot in on_die
        if spot.elongation < params.pip_merge_elongation and min_d <= 2 * np.sqrt(spot.area / np.pi) <= max_d
    ]
    typical = float(np.median(single)) if single else 0.0
    centres: list[np.ndarray] = []
    areas: list[float] = []
    strengths: list[float] = []
    rejected = 0
    for spot in on_die:
        parts = int(round(spot.area / typical)) if typical else 0
        if spot.elongation >= params.pip_merge_elongation and 2 <= parts <= params.pip_merge_max:
            for part in range(parts):
                centres.append(spot.centre + spot.axis * spot.length * ((part + 0.5) / parts - 0.5))
                areas.append(spot.area / parts)
            strengths.append(spot.strength)
        elif (spot.elongation < params.pip_merge_elongation and typical
              and typical / params.pip_size_spread <= spot.area <= typical * params.pip_size_spread):
            centres.append(spot.centre)
            areas.append(spot.area)
            strengths.append(spot.strength)
        else:
            rejected += 1
    return PipSet(
        polarity=polarity,
        centres=np.array(centres, np.float64).reshape(-1, 2),
        areas=np.array(areas, np.float64),
        contrast=float(np.median(strengths)) if strengths else 0.0,
        rejected=rejected,
    )

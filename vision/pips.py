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


def find_pips(
    contrast: tuple[np.ndarray, np.ndarray], die_mask: np.ndarray, die_px: int, params: VisionParams
) -> list[PipSet]:
    """Pip candidates of both polarities; `die_mask` marks where pips may lie (uint8 0/255)."""
    return [
        _pip_set(polarity, (signed > params.pip_contrast).astype(np.uint8), signed, die_mask, die_px, params)
        for polarity, signed in (("light", contrast[0]), ("dark", contrast[1]))
    ]


def count_faint_spots(
    pips: PipSet, contrast: tuple[np.ndarray, np.ndarray], die_mask: np.ndarray, die_px: int, params: VisionParams
) -> int:
    """Pip-like spots of the same polarity that pass only the weaker threshold, away from the pips."""
    signed = contrast[0] if pips.polarity == "light" else contrast[1]
    weak = _pip_set(pips.polarity, (signed > params.pip_contrast_faint).astype(np.uint8), signed, die_mask, die_px,
                    params)
    near = params.pip_max_diameter_frac * die_px / 2
    return sum(
        1 for centre in weak.centres
        if len(pips.centres) == 0 or np.min(np.hypot(*(pips.centres - centre).T)) > near
    )


def _pip_set(
    polarity: str, spots: np.ndarray, signed: np.ndarray, die_mask: np.ndarray, die_px: int, params: VisionParams
) -> PipSet:
    """Pips from a thresholded spot map; a long spot the size of two or three pips is split
    (neighbouring pips of a six often run together)."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
    min_d = params.pip_min_diameter_frac * die_px
    max_d = params.pip_max_diameter_frac * die_px
    blobs = []  # (index, area, elongation, axis, length)
    big_enough = np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= np.pi * (min_d / 2.0) ** 2)[0] + 1
    for index in big_enough:
        x, y, w, h, area = (int(v) for v in stats[index])
        cx, cy = centroids[index]
        if die_mask[int(round(cy)), int(round(cx))] == 0:
            continue
        moments = cv2.moments((labels[y : y + h, x : x + w] == index).astype(np.uint8), binaryImage=True)
        mu20, mu02, mu11 = moments["mu20"] / area, moments["mu02"] / area, moments["mu11"] / area
        spread = np.sqrt(((mu20 - mu02) / 2.0) ** 2 + mu11**2)
        major, minor = (mu20 + mu02) / 2.0 + spread, max((mu20 + mu02) / 2.0 - spread, 1e-6)
        turn = 0.5 * np.arctan2(2.0 * mu11, mu20 - mu02)
        axis = np.array([np.cos(turn), np.sin(turn)])
        blobs.append((index, float(area), float(np.sqrt(major / minor)), axis, float(np.sqrt(12.0 * major))))
    single = [b for b in blobs if b[2] < params.pip_merge_elongation and min_d <= 2 * np.sqrt(b[1] / np.pi) <= max_d]
    typical = float(np.median([b[1] for b in single])) if single else 0.0
    centres: list[np.ndarray] = []
    areas: list[float] = []
    members: list[int] = []
    rejected = 0
    for index, area, elongation, axis, length in blobs:
        parts = int(round(area / typical)) if typical else 0
        if elongation >= params.pip_merge_elongation and 2 <= parts <= params.pip_merge_max:
            for part in range(parts):
                centres.append(centroids[index] + axis * length * ((part + 0.5) / parts - 0.5))
                areas.append(area / parts)
            members.append(index)
        elif (elongation < params.pip_merge_elongation and typical
              and typical / params.pip_size_spread <= area <= typical * params.pip_size_spread):
            centres.append(centroids[index].astype(np.float64))
            areas.append(area)
            members.append(index)
        else:
            rejected += 1
    strength = float(np.median(signed[np.isin(labels, members)])) if members else 0.0
    return PipSet(
        polarity=polarity,
        centres=np.array(centres, np.float64).reshape(-1, 2),
        areas=np.array(areas, np.float64),
        contrast=strength,
        rejected=rejected,
    )

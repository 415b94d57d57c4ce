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
    faint: int  # pip-like spots seen only at the weaker threshold


def local_contrast(crop: np.ndarray, die_px: int) -> tuple[np.ndarray, np.ndarray]:
    """(lighter, darker): per pixel, the most any channel stands above / below its local median.

    The median (half a die wide) is taken at half resolution: it only has to be smooth.
    """
    height, width = crop.shape[:2]
    half = cv2.resize(crop, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA)
    ksize = max(3, (die_px // 4) | 1)
    around = cv2.resize(cv2.medianBlur(half, ksize), (width, height), interpolation=cv2.INTER_LINEAR)
    difference = crop.astype(np.int16) - around.astype(np.int16)
    return difference.max(axis=2).astype(np.float32), (-difference).max(axis=2).astype(np.float32)


def find_pips(
    contrast: tuple[np.ndarray, np.ndarray], die_mask: np.ndarray, die_px: int, params: VisionParams
) -> list[PipSet]:
    """Pip candidates of both polarities; `die_mask` marks where pips may lie (uint8 0/255)."""
    found = []
    for polarity, signed in (("light", contrast[0]), ("dark", contrast[1])):
        strong = _pip_set(polarity, (signed > params.pip_contrast).astype(np.uint8), signed, die_mask, die_px, params)
        weak = _pip_set(polarity, (signed > params.pip_contrast_faint).astype(np.uint8), signed, die_mask, die_px,
                        params)
        faint = sum(
            1 for centre in weak.centres
            if len(strong.centres) == 0
            or np.min(np.hypot(*(strong.centres - centre).T)) > params.pip_max_diameter_frac * die_px / 2
        )
        found.append(PipSet(strong.polarity, strong.centres, strong.areas, strong.contrast, strong.rejected, faint))
    return found


def _pip_set(
    polarity: str, spots: np.ndarray, signed: np.ndarray, die_mask: np.ndarray, die_px: int, params: VisionParams
) -> PipSet:
    """Pips from a thresholded spot map; a long spot the size of two or three pips is split
    (neighbouring pips of a six often run together)."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
    min_d = params.pip_min_diameter_frac * die_px
    max_d = params.pip_max_diameter_frac * die_px
    blobs = []  # (index, area, elongation, axis, length)
    for index in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[index])
        cx, cy = centroids[index]
        if die_mask[int(round(cy)), int(round(cx))] == 0 or 2.0 * np.sqrt(area / np.pi) < min_d:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == index)
        covariance = np.cov(np.vstack([xs, ys])) if area > 2 else np.eye(2)
        values, vectors = np.linalg.eigh(covariance)
        elongation = float(np.sqrt(values[1] / max(values[0], 1e-6)))
        blobs.append((index, float(area), elongation, vectors[:, 1], float(np.sqrt(12.0 * max(values[1], 0.0)))))
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
        faint=0,
    )

"""Checking a set of pip centres against the six standard pip layouts.

Each layout is a set of points on a 3x3 grid. A set of found pips matches a
layout when (1) their sorted pairwise distances, divided by the largest one,
agree with the layout's (rotation- and order-free), (2) their span is the right
size for the die, and (3) for two and three pips, the line they form runs
diagonally to the die's edges, as on a real die.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from vision.params import VisionParams

# Pip positions of the standard faces on a grid with the corner pips at (+-1, +-1).
LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
# The angle (degrees, modulo 90) between a two- or three-pip line and the die's edges.
DIAGONAL_DEG = 45.0


def _normalised_distances(points: np.ndarray) -> np.ndarray:
    distances = np.array([np.hypot(*(points[i] - points[j])) for i, j in combinations(range(len(points)), 2)])
    return np.sort(distances / distances.max())


TEMPLATE_DISTANCES: dict[int, np.ndarray] = {
    n: _normalised_distances(np.array(points, float)) for n, points in LAYOUTS.items() if n >= 2
}


@dataclass(frozen=True)
class LayoutFit:
    """How well a set of pips matches the layout for its count (0 is perfect)."""

    value: int
    error: float  # 0 = perfect; compare with params.layout_max_error
    reason: str  # empty when it fits
    kept: tuple[int, ...] = ()  # indices of the pips that make up the face
    dropped: int = 0  # spots left out as side-face pips


def best_layout(
    centres: np.ndarray, areas: np.ndarray, die_side: float, die_angle_deg: float, die_centre: np.ndarray,
    params: VisionParams,
) -> LayoutFit:
    """The best layout over the found spots, allowing a few outlying spots (pips on a side face).

    A spot may only be left out when it lies outside the circle around the kept
    pips, as side-face pips do, and at least two pips stay (a lone spot left
    over is no evidence of a one); the face with most pips that fits wins.
    """
    count = len(centres)
    whole = fit_layout(centres, areas, die_side, die_angle_deg, die_centre, params)
    if not whole.reason or count <= 1:
        return LayoutFit(whole.value, whole.error, whole.reason, tuple(range(count)), 0)
    for drop in range(1, min(params.layout_max_dropped, count - 2) + 1):
        fits = []
        for kept in combinations(range(count), count - drop):
            if len(kept) > len(LAYOUTS):
                continue
            inner = centres[list(kept)]
            centre = inner.mean(axis=0)
            radius = float(np.hypot(*(inner - centre).T).max())
            left_out = [i for i in range(count) if i not in kept]
            if any(np.hypot(*(centres[i] - centre)) < radius * params.layout_outlier_radius for i in left_out):
                continue
            fit = fit_layout(inner, areas[list(kept)], die_side, die_angle_deg, die_centre, params)
            if not fit.reason:
                fits.append(LayoutFit(fit.value, fit.error, "", kept, drop))
        if fits:
            return min(fits, key=lambda f: f.error)
    return LayoutFit(whole.value, whole.error, whole.reason, tuple(range(count)), 0)


def fit_layout(
    centres: np.ndarray, areas: np.ndarray, die_side: float, die_angle_deg: float, die_centre: np.ndarray,
    params: VisionParams,
) -> LayoutFit:
    """Score pip centres (N x 2, crop pixels) against the layout of N pips.

    Scale checks use the pips themselves (span in pip diameters: every face from
    two to six spans corner to corner), so a blob that includes a shadow does not
    upset them.
    """
    count = len(centres)
    if count == 0 or count > len(LAYOUTS):
        return LayoutFit(count, float("inf"), f"{count} pip-like spots")
    offset = float(np.hypot(*(centres.mean(axis=0) - die_centre))) / max(die_side, 1e-6)
    if offset > params.layout_centre_offset_max:
        return LayoutFit(count, float("inf"), f"pips {offset:.2f} of a side off the die centre")
    if count == 1:
        # A lone pip must sit in the middle of the blob; how far off it is counts as its error.
        error = offset / params.layout_single_offset_max * params.layout_max_error
        reason = "" if error <= params.layout_max_error else f"a lone spot {offset:.2f} of a side off centre"
        return LayoutFit(1, error, reason)
    shape_error = float(np.abs(_normalised_distances(centres) - TEMPLATE_DISTANCES[count]).max())
    span = float(max(np.hypot(*(centres[i] - centres[j])) for i, j in combinations(range(count), 2)))
    span_frac = span / max(die_side, 1e-6)
    if not params.layout_span_min_frac <= span_frac <= params.layout_span_max_frac:
        return LayoutFit(count, float("inf"), f"pips span {span_frac:.2f} of the die side")
    pip_diameter = 2.0 * float(np.sqrt(np.median(areas) / np.pi))
    span_pips = span / max(pip_diameter, 1e-6)
    if not params.layout_span_min_pips <= span_pips <= params.layout_span_max_pips:
        return LayoutFit(count, float("inf"), f"pips span {span_pips:.1f} pip widths")
    if count in (2, 3):
        first, last = _line_ends(centres)
        line_deg = np.degrees(np.arctan2(last[1] - first[1], last[0] - first[0]))
        off_deg = abs(((line_deg - die_angle_deg) % 90.0) - DIAGONAL_DEG)
        if off_deg > params.layout_diagonal_tolerance_deg:
            return LayoutFit(count, float("inf"), f"{count} pips in a line {off_deg:.0f} deg off the diagonal")
    reason = "" if shape_error <= params.layout_max_error else f"layout of {count} off by {shape_error:.2f}"
    return LayoutFit(count, shape_error, reason)


def _line_ends(centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pairs = list(combinations(range(len(centres)), 2))
    i, j = max(pairs, key=lambda p: np.hypot(*(centres[p[0]] - centres[p[1]])))
    return centres[i], centres[j]

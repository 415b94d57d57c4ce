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


def fit_layout(
    centres: np.ndarray, die_side: float, die_angle_deg: float, die_centre: np.ndarray, params: VisionParams
) -> LayoutFit:
    """Score pip centres (N x 2, crop pixels) against the layout of N pips."""
    count = len(centres)
    if count == 0 or count > len(LAYOUTS):
        return LayoutFit(count, float("inf"), f"{count} pip-like spots")
    offset = float(np.hypot(*(centres.mean(axis=0) - die_centre))) / max(die_side, 1e-6)
    if offset > params.layout_centre_offset_max:
        return LayoutFit(count, float("inf"), f"pips {offset:.2f} of a side off the die centre")
    if count == 1:
        return LayoutFit(1, 0.0, "")
    shape_error = float(np.abs(_normalised_distances(centres) - TEMPLATE_DISTANCES[count]).max())
    span = float(max(np.hypot(*(centres[i] - centres[j])) for i, j in combinations(range(count), 2)))
    span_frac = span / max(die_side, 1e-6)
    if not params.layout_span_min_frac <= span_frac <= params.layout_span_max_frac:
        return LayoutFit(count, float("inf"), f"pips span {span_frac:.2f} of the die side")
    error = shape_error
    if count in (2, 3):
        first, last = _line_ends(centres)
        line_deg = np.degrees(np.arctan2(last[1] - first[1], last[0] - first[0]))
        off_deg = abs(((line_deg - die_angle_deg) % 90.0) - DIAGONAL_DEG)
        if off_deg > params.layout_diagonal_tolerance_deg:
            return LayoutFit(count, float("inf"), f"{count} pips in a line {off_deg:.0f} deg off the diagonal")
    reason = "" if error <= params.layout_max_error else f"layout of {count} off by {error:.2f}"
    return LayoutFit(count, error, reason)


def _line_ends(centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pairs = list(combinations(range(len(centres)), 2))
    i, j = max(pairs, key=lambda p: np.hypot(*(centres[p[0]] - centres[p[1]])))
    return centres[i], centres[j]

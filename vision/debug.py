"""Debug pictures of the reader's stages: what it segmented, what it took for dice, what it read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.types import DieReading

if TYPE_CHECKING:
    from vision.second_opinion import SecondOpinion

# Drawing colours (BGR) for the annotated image; purely cosmetic.
_DRAW_BGR: dict[str | None, tuple[int, int, int]] = {
    "red": (40, 40, 230),
    "blue": (230, 90, 30),
    "green": (40, 190, 40),
    "black": (20, 20, 20),
    "gray": (150, 150, 150),
    "violet": (200, 60, 150),
    None: (0, 220, 255),
}
_REJECTED_BGR = (120, 120, 120)
TRAY_OUTLINE_BGR = (40, 210, 250)  # amber: seen on felt, wood and card alike
_PIP_BGR = (255, 0, 255)
_AGREED_BGR = (60, 200, 60)
_DECLINED_BGR = (0, 140, 255)


@dataclass
class DebugSink:
    """Collects stage images while the reader works; `mosaic()` joins them into one picture."""

    stages: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, name: str, image: np.ndarray) -> None:
        self.stages[name] = image

    def mosaic(self, width: int = 1600) -> np.ndarray:
        """All stages stacked top to bottom, each scaled to `width` and titled."""
        tiles = []
        for name, image in self.stages.items():
            tile = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            scale = width / tile.shape[1]
            tile = cv2.resize(tile, (width, max(1, round(tile.shape[0] * scale))), interpolation=cv2.INTER_AREA)
            cv2.putText(tile, name, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2, cv2.LINE_AA)
            tiles.append(tile)
        if not tiles:
            return np.zeros((32, width, 3), np.uint8)
        return np.vstack(tiles)


def outline_region(frame: np.ndarray, region: tuple[int, int, int, int]) -> None:
    """Draw the outline of a tray region (x, y, w, h in pixels) into `frame`, inset so that each
    side stays in view."""
    height, width = frame.shape[:2]
    x, y, region_width, region_height = region
    thickness = max(2, width // 200)
    inset = thickness // 2
    corner = min(width - 1 - inset, max(inset, x)), min(height - 1 - inset, max(inset, y))
    far = min(width - 1 - inset, x + region_width), min(height - 1 - inset, y + region_height)
    cv2.rectangle(frame, corner, far, TRAY_OUTLINE_BGR, thickness)


def draw_readings(frame: np.ndarray, dice: Sequence[DieReading]) -> np.ndarray:
    """Frame with each reading's box and label (colour, value or ?, confidence)."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    for die in dice:
        bgr = _DRAW_BGR.get(die.colour, _DRAW_BGR[None])
        cv2.rectangle(canvas, (die.x, die.y), (die.x + die.w, die.y + die.h), bgr, thickness)
        value = "?" if die.value is None else die.value
        label = f"{die.colour or ''} {value} {die.confidence:.2f}".strip()
        cv2.putText(canvas, label, (die.x, max(12, die.y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thickness, bgr,
                    thickness, cv2.LINE_AA)
    return canvas


def draw_faces(frame: np.ndarray, faces: list[tuple[object, str | None, bool]]) -> np.ndarray:
    """Frame with each face's box, pips and label; faces are (DieFace, colour, kept) triples."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    for face, colour, kept in faces:
        x, y, w, h = face.box  # type: ignore[attr-defined]
        bgr = _DRAW_BGR.get(colour, _DRAW_BGR[None]) if kept else _REJECTED_BGR
        cv2.rectangle(canvas, (x, y), (x + w, y + h), bgr, thickness)
        for px, py in face.pips:  # type: ignore[attr-defined]
            cv2.circle(canvas, (int(round(px)), int(round(py))), 2 * thickness, _PIP_BGR, -1)
        value = face.value if face.value is not None else "?"  # type: ignore[attr-defined]
        label = f"{colour or ''} {value} {face.confidence:.2f} {face.reason}".strip()  # type: ignore[attr-defined]
        cv2.putText(canvas, label, (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thickness, bgr, thickness,
                    cv2.LINE_AA)
    return canvas


def draw_heat(frame: np.ndarray, heat: np.ndarray, cell_px: float) -> np.ndarray:
    """Frame under the detector's heatmap of die top-face centres (0-1), in false colour;
    `cell_px`: frame pixels per heatmap cell (the map may overhang the frame: padding)."""
    height, width = frame.shape[:2]
    cells_y, cells_x = heat.shape
    spread = cv2.resize(np.clip(heat, 0.0, 1.0), (max(1, round(cells_x * cell_px)), max(1, round(cells_y * cell_px))),
                        interpolation=cv2.INTER_LINEAR)[:height, :width]
    spread = cv2.copyMakeBorder(spread, 0, height - spread.shape[0], 0, width - spread.shape[1],
                                cv2.BORDER_CONSTANT, value=0.0)
    coloured = cv2.applyColorMap((spread * 255).astype(np.uint8), cv2.COLORMAP_JET)
    return cv2.addWeighted(frame, 0.5, coloured, 0.5, 0.0)


@dataclass(frozen=True)
class CandidateMark:
    """One detector candidate as the classifier judged it, for the candidates picture."""

    cx: float
    cy: float
    side: float
    die_probability: float
    value: int
    value_probability: float
    taken: bool  # among the dice the reader goes on with


def draw_candidates(frame: np.ndarray, marks: Sequence[CandidateMark]) -> np.ndarray:
    """Frame with every candidate: taken ones in yellow with P(die), value and its probability;
    the others gray with P(die) only (cubes, card corners, shadows the classifier turned down)."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    for mark in marks:
        half = mark.side / 2.0
        bgr = _DRAW_BGR[None] if mark.taken else _REJECTED_BGR
        corner = (round(mark.cx - half), round(mark.cy - half))
        cv2.rectangle(canvas, corner, (round(mark.cx + half), round(mark.cy + half)), bgr, thickness)
        label = (f"die {mark.die_probability:.2f}: {mark.value} {mark.value_probability:.2f}" if mark.taken
                 else f"die {mark.die_probability:.2f}")
        cv2.putText(canvas, label, (corner[0], max(12, corner[1] - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thickness,
                    bgr, thickness, cv2.LINE_AA)
    return canvas


def draw_leaning(frame: np.ndarray, dice: Sequence[tuple[float, float, float, float]], threshold: float,
                 view_centre: tuple[float, float], both_ways_radius: float = 0.0) -> np.ndarray:
    """Frame with each die's P(cocked) from the leaning check (dice as cx, cy, side, P): orange at
    or over `threshold` (reported unsure), gray under it; a line from the point below the camera
    shows which way the check takes as outward, and a thin circle of `both_ways_radius` px
    around that point the dice inside which are read both ways round."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    centre = (round(view_centre[0]), round(view_centre[1]))
    cv2.drawMarker(canvas, centre, _REJECTED_BGR, cv2.MARKER_CROSS, 12 * thickness, thickness)
    if both_ways_radius > 0:
        cv2.circle(canvas, centre, round(both_ways_radius), _REJECTED_BGR, thickness, cv2.LINE_AA)
    for cx, cy, side, probability in dice:
        bgr = _DECLINED_BGR if probability >= threshold else _REJECTED_BGR
        half = side / 2.0
        corner = (round(cx - half), round(cy - half))
        cv2.line(canvas, centre, (round(cx), round(cy)), bgr, thickness, cv2.LINE_AA)
        cv2.rectangle(canvas, corner, (round(cx + half), round(cy + half)), bgr, 2 * thickness)
        cv2.putText(canvas, f"cocked {probability:.2f}", (corner[0], max(12, corner[1] - 4)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.4 * thickness, bgr, thickness, cv2.LINE_AA)
    return canvas


def draw_second_opinions(frame: np.ndarray, opinions: Sequence[SecondOpinion]) -> np.ndarray:
    """Frame with each die the classical reader was asked about: its pips, the classifier's
    value and probability, and what the classical reader said (green: agreed, now read;
    orange: still unsure)."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    for opinion in opinions:
        x, y, w, h = opinion.face.box
        bgr = _AGREED_BGR if opinion.accepted else _DECLINED_BGR
        cv2.rectangle(canvas, (x, y), (x + w, y + h), bgr, 2 * thickness)
        for px, py in opinion.clearest.pips:
            cv2.circle(canvas, (int(round(px)), int(round(py))), 2 * thickness, _PIP_BGR, -1)
        label = f"{opinion.face.value} {opinion.face.confidence:.2f} {opinion.note}"
        cv2.putText(canvas, label, (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thickness, bgr, thickness,
                    cv2.LINE_AA)
    return canvas


def draw_second_look(frame: np.ndarray, first: Sequence[tuple[float, float, float]],
                     beside: Sequence[tuple[float, float, float, float, float]]) -> np.ndarray:
    """Frame with the first look's candidates (gray; cx, cy, side) and the second look's
    (orange; peak x, y, then the body centre it moved to, and side): an arrow from the peak
    to the body centre, the box at the latter."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    for cx, cy, side in first:
        half = side / 2.0
        cv2.rectangle(canvas, (round(cx - half), round(cy - half)), (round(cx + half), round(cy + half)),
                      _REJECTED_BGR, thickness)
    for px, py, cx, cy, side in beside:
        half = side / 2.0
        cv2.rectangle(canvas, (round(cx - half), round(cy - half)), (round(cx + half), round(cy + half)),
                      _DECLINED_BGR, 2 * thickness)
        cv2.arrowedLine(canvas, (round(px), round(py)), (round(cx), round(cy)), _DECLINED_BGR, thickness)
    return canvas

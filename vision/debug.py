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


Box = tuple[int, int, int, int]  # x, y, w, h in frame pixels


def label_origins(boxes: Sequence[Box], sizes: Sequence[tuple[int, int]], frame_size: tuple[int, int],
                  gap: int = 3) -> list[tuple[int, int]]:
    """Where to write each box's label (text origin: left end of the baseline) so that no label
    covers another label or any box: above the box, else below, right or left of it, the first
    of these clear and inside the frame (`frame_size`: width, height), in the order given.
    Where none is clear, the one overlapping least. `sizes`: each label's (width, height) above
    its baseline, as cv2.getTextSize gives it; the descent is counted as `gap`."""
    width, height = frame_size
    taken: list[Box] = []
    origins = []
    for (x, y, w, h), (text_w, text_h) in zip(boxes, sizes):
        tall = text_h + gap  # the label's rectangle, baseline descent included
        tries = [(x, y - gap - tall), (x, y + h + gap), (x + w + gap, y + (h - tall) // 2),
                 (x - gap - text_w, y + (h - tall) // 2)]
        clamped = [(min(max(0, left), max(0, width - text_w)), min(max(0, top), max(0, height - tall)))
                   for left, top in tries]

        def overlap(corner: tuple[int, int]) -> int:
            rect = (corner[0], corner[1], text_w, tall)
            return sum(_shared_area(rect, other) for other in [*taken, *boxes])

        # Clamping into the frame may move a try onto something: it then counts what it covers.
        left, top = min(clamped, key=overlap)
        taken.append((left, top, text_w, tall))
        origins.append((left, top + text_h))
    return origins


def _shared_area(first: Box, second: Box) -> int:
    """Pixels two rectangles share."""
    across = min(first[0] + first[2], second[0] + second[2]) - max(first[0], second[0])
    down = min(first[1] + first[3], second[1] + second[3]) - max(first[1], second[1])
    return max(0, across) * max(0, down)


def _write_labels(canvas: np.ndarray, labelled: Sequence[tuple[Box, str, tuple[int, int, int]]], thickness: int) -> None:
    """Each label beside its box (`label_origins`), in its colour on a halo of the opposite
    lightness, so that a gray label reads on a gray table and a black one on a dark one."""
    scale = 0.4 * thickness
    sizes = [(width, height) for (width, height), _ in
             (cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness) for _, text, _ in labelled)]
    origins = label_origins([box for box, _, _ in labelled], sizes, (canvas.shape[1], canvas.shape[0]),
                            gap=2 * thickness)
    for (_, text, bgr), origin in zip(labelled, origins):
        halo = (0, 0, 0) if sum(bgr) > 3 * 100 else (235, 235, 235)
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, halo, thickness + 2, cv2.LINE_AA)
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, bgr, thickness, cv2.LINE_AA)


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


def outline_corners(frame: np.ndarray, corners: np.ndarray) -> None:
    """Draw the outline of a tray region of four corners (4 x 2 pixels) into `frame`, each
    corner held inside the picture so that every side stays in view."""
    height, width = frame.shape[:2]
    thickness = max(2, width // 200)
    inset = thickness // 2
    held = np.clip(np.round(corners), (inset, inset), (width - 1 - inset, height - 1 - inset)).astype(np.int32)
    cv2.polylines(frame, [held.reshape(-1, 1, 2)], True, TRAY_OUTLINE_BGR, thickness)


def draw_tray_difference(frame: np.ndarray, changed: np.ndarray,
                         proposed: Sequence[tuple[float, float, float]]) -> np.ndarray:
    """The frame darkened where it is as the empty tray was, with a ring on each candidate the
    difference proposes (centre x, y and side in frame px)."""
    mask = cv2.resize(changed, frame.shape[1::-1], interpolation=cv2.INTER_NEAREST).astype(bool)
    canvas = frame.copy()
    canvas[~mask] = (canvas[~mask] * 0.35).astype(np.uint8)
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    for x, y, side in proposed:
        cv2.circle(canvas, (round(x), round(y)), max(3, round(side * 0.7)), (0, 165, 255), thickness)
    return canvas


def draw_readings(frame: np.ndarray, dice: Sequence[DieReading]) -> np.ndarray:
    """Frame with each reading's box and label (colour, value or ?, confidence)."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    labelled = []
    for die in dice:
        bgr = _DRAW_BGR.get(die.colour, _DRAW_BGR[None])
        cv2.rectangle(canvas, (die.x, die.y), (die.x + die.w, die.y + die.h), bgr, thickness)
        value = "?" if die.value is None else die.value
        labelled.append(((die.x, die.y, die.w, die.h), f"{die.colour or ''} {value} {die.confidence:.2f}".strip(), bgr))
    _write_labels(canvas, labelled, thickness)
    return canvas


def draw_faces(frame: np.ndarray, faces: Sequence[tuple[object, str | None, bool]]) -> np.ndarray:
    """Frame with each face's box, pips and label; faces are (DieFace, colour, kept) triples."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    labelled = []
    for face, colour, kept in faces:
        x, y, w, h = face.box  # type: ignore[attr-defined]
        bgr = _DRAW_BGR.get(colour, _DRAW_BGR[None]) if kept else _REJECTED_BGR
        cv2.rectangle(canvas, (x, y), (x + w, y + h), bgr, thickness)
        for px, py in face.pips:  # type: ignore[attr-defined]
            cv2.circle(canvas, (int(round(px)), int(round(py))), 2 * thickness, _PIP_BGR, -1)
        value = face.value if face.value is not None else "?"  # type: ignore[attr-defined]
        label = f"{colour or ''} {value} {face.confidence:.2f} {face.reason}".strip()  # type: ignore[attr-defined]
        labelled.append(((x, y, w, h), label, bgr))
    _write_labels(canvas, labelled, thickness)
    return canvas


def draw_heat(frame: np.ndarray, heat: np.ndarray, cell_px: float) -> np.ndarray:
    """Frame under the detector's heatmap of die top-face centres (0-1), in false colour;
    `cell_px`: frame pixels per heatmap cell (the map may overhang the frame: padding)."""
    height, width = frame.shape[:2]
    cells_y, cells_x = heat.shape
    spread = cv2.resize(np.clip(heat, 0.0, 1.0), (max(1, round(cells_x * cell_px)), max(1, round(cells_y * cell_px))),
                        interpolation=cv2.INTER_LINEAR)[:height, :width]
    spread = cv2.copyMakeBorder(spread, 0, height - spread.shape[0], 0, width - spread.shape[1],
                                cv2.BORDER_CONSTANT, value=(0.0,))
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
    same_die: bool = False  # left out as a die already taken, seen again off its centre
    # Where the detector first put it, when it was read again elsewhere (moved onto its die's body,
    # or one half of a seam split): else None.
    moved_from: tuple[float, float] | None = None


def candidate_label(mark: CandidateMark) -> str:
    """A candidate's label in the candidates picture."""
    moved = ", moved" if mark.moved_from is not None else ""
    if mark.taken:
        return f"die {mark.die_probability:.2f}: {mark.value} {mark.value_probability:.2f}{moved}"
    if mark.same_die:
        return f"die {mark.die_probability:.2f}, same die{moved}"
    return f"die {mark.die_probability:.2f}{moved}"


def draw_candidates(frame: np.ndarray, marks: Sequence[CandidateMark]) -> np.ndarray:
    """Frame with every candidate: taken ones in yellow with P(die), value and its probability;
    the others gray with P(die) only (cubes, card corners, shadows the classifier turned down),
    and "same die" for one left out as a die already taken. A candidate read again elsewhere
    says "moved", with a line from where the detector put it (a dot there)."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    labelled = []
    for mark in sorted(marks, key=lambda m: not m.taken):  # the taken ones' labels first, nearest their dice
        half = mark.side / 2.0
        bgr = _DRAW_BGR[None] if mark.taken else _REJECTED_BGR
        corner = (round(mark.cx - half), round(mark.cy - half))
        cv2.rectangle(canvas, corner, (round(mark.cx + half), round(mark.cy + half)), bgr, thickness)
        if mark.moved_from is not None:
            origin = (round(mark.moved_from[0]), round(mark.moved_from[1]))
            cv2.circle(canvas, origin, 2 * thickness, bgr, -1)
            cv2.line(canvas, origin, (round(mark.cx), round(mark.cy)), bgr, thickness)
        labelled.append(((*corner, round(mark.side), round(mark.side)), candidate_label(mark), bgr))
    _write_labels(canvas, labelled, thickness)
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
    labelled = []
    for cx, cy, side, probability in dice:
        bgr = _DECLINED_BGR if probability >= threshold else _REJECTED_BGR
        half = side / 2.0
        corner = (round(cx - half), round(cy - half))
        cv2.line(canvas, centre, (round(cx), round(cy)), bgr, thickness, cv2.LINE_AA)
        cv2.rectangle(canvas, corner, (round(cx + half), round(cy + half)), bgr, 2 * thickness)
        labelled.append(((*corner, round(side), round(side)), f"cocked {probability:.2f}", bgr))
    _write_labels(canvas, labelled, thickness)
    return canvas


def draw_second_opinions(frame: np.ndarray, opinions: Sequence[SecondOpinion]) -> np.ndarray:
    """Frame with each die the classical reader was asked about: its pips, the classifier's
    value and probability, and what the classical reader said (green: agreed, now read;
    orange: still unsure)."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    labelled = []
    for opinion in opinions:
        x, y, w, h = opinion.face.box
        bgr = _AGREED_BGR if opinion.accepted else _DECLINED_BGR
        cv2.rectangle(canvas, (x, y), (x + w, y + h), bgr, 2 * thickness)
        for px, py in opinion.clearest.pips:
            cv2.circle(canvas, (int(round(px)), int(round(py))), 2 * thickness, _PIP_BGR, -1)
        labelled.append(((x, y, w, h), f"{opinion.face.value} {opinion.face.confidence:.2f} {opinion.note}", bgr))
    _write_labels(canvas, labelled, thickness)
    return canvas


def draw_outlines(frame: np.ndarray, traced: Sequence[tuple[float, float, float, float, bool]]) -> np.ndarray:
    """Frame with each candidate whose outline was traced (centre x, y, side, how far off an
    ellipse, and whether that made it a round token): a circle on the tokens dropped (orange),
    a box on the candidates kept as dice (green), each with its measure."""
    canvas = frame.copy()
    thickness = max(1, round(max(frame.shape[:2]) / 800))
    labelled = []
    for cx, cy, side, off, token in traced:
        half = side / 2.0
        corner = (round(cx - half), round(cy - half))
        if token:
            cv2.circle(canvas, (round(cx), round(cy)), round(half), _DECLINED_BGR, 2 * thickness, cv2.LINE_AA)
        else:
            cv2.rectangle(canvas, corner, (round(cx + half), round(cy + half)), _AGREED_BGR, 2 * thickness)
        labelled.append(((*corner, round(side), round(side)), f"{'token' if token else 'die'} {off:.3f}",
                         _DECLINED_BGR if token else _AGREED_BGR))
    _write_labels(canvas, labelled, thickness)
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

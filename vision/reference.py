"""The empty-tray reference: what differs from a picture of the empty tray is where dice lie.

The camera check takes a picture of the empty tray, and the app refreshes it whenever the
reader finds the tray empty. Compared with it, a die the detector has never seen the like of
still shows up as a change (`proposals`), and a pattern printed on the tray or board, which is
in the reference too, never does (`differs_at`). The comparison runs on a small copy of both
pictures: a small camera shift is undone (phase correlation) and a change of light evened out
(each Lab channel matched by the median of its pixel-by-pixel ratio or difference, which the
few dice hardly move); when the pictures
still differ over much of the tray (camera moved, lamp switched), the reference is not used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.atomic_file import write_atomically
from vision.frame import FrameError, check_frame, is_blank
from vision.learned_models import DieCandidate
from vision.params import VisionParams


class ReferenceUnusable(ValueError):
    """The reference cannot be compared with this picture; the message says why."""


@dataclass(frozen=True)
class TrayDifference:
    """Where a picture differs from the empty tray: a mask on a small copy of the picture."""

    changed: np.ndarray  # uint8 0/1, the picture shrunk by `scale`
    scale: float  # mask pixels per picture pixel

    def changed_share(self, cx: float, cy: float, radius: float) -> float:
        """The share of changed pixels within `radius` picture px of (cx, cy)."""
        height, width = self.changed.shape
        x, y, r = cx * self.scale, cy * self.scale, max(1.0, radius * self.scale)
        x0, x1 = max(0, int(x - r)), min(width, int(np.ceil(x + r)) + 1)
        y0, y1 = max(0, int(y - r)), min(height, int(np.ceil(y + r)) + 1)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
        return float(self.changed[y0:y1, x0:x1][disc].mean()) if disc.any() else 0.0

    def differs_at(self, candidate: DieCandidate, params: VisionParams) -> bool:
        """Whether enough of the candidate's top face differs from the empty tray to be a die."""
        share = self.changed_share(candidate.cx, candidate.cy, params.reference_probe_radius * candidate.side)
        return share >= params.reference_min_changed

    def proposals(self, found: list[DieCandidate], typical: float | None, score: float,
                  params: VisionParams) -> list[DieCandidate]:
        """Die-sized patches of change that no candidate in `found` lies on, as candidates (side:
        the patch's shorter extent, at most `typical` when known; `score` for all)."""
        proposed = []
        for patch in self.die_like_patches(params):
            if typical is not None and not typical / 2 <= patch.side <= 3 * typical:
                continue  # a speck, or a hand, a card or many dice at once
            if any(patch.left <= c.cx <= patch.left + patch.width and patch.top <= c.cy <= patch.top + patch.height
                   for c in found):
                continue  # the detector has it already
            proposed.append(DieCandidate(patch.cx, patch.cy, patch.side if typical is None else min(patch.side, typical),
                                         score))
        return proposed

    def die_side(self, params: VisionParams) -> float | None:
        """The top-face side (picture px) of the dice as their patches of change measure it: the
        median patch's shorter extent over `reference_patch_sides`; None with fewer than
        `reference_size_min_patches` die-like patches (or with that set to 0)."""
        if params.reference_size_min_patches <= 0:
            return None
        sides = [patch.side for patch in self.die_like_patches(params)]
        if len(sides) < params.reference_size_min_patches:
            return None
        return float(np.median(sides)) / params.reference_patch_sides

    def die_like_patches(self, params: VisionParams) -> list[Patch]:
        """The patches of change (picture px) at least `reference_min_side_px` across, filling
        `reference_min_fill` of their shorter extent squared, at most `reference_max_aspect` long."""
        count, _labels, stats, centroids = cv2.connectedComponentsWithStats(self.changed, connectivity=8)
        patches = []
        for index in range(1, count):
            left, top, width, height = (float(v) / self.scale for v in stats[index][:4])
            area = float(stats[index][4]) / self.scale**2
            side = min(width, height)
            if side < params.reference_min_side_px or area < params.reference_min_fill * side * side:
                continue
            if max(width, height) > params.reference_max_aspect * side:
                continue
            cx, cy = (float(v) / self.scale for v in centroids[index])
            patches.append(Patch(left, top, width, height, cx, cy))
        return patches


@dataclass(frozen=True)
class Patch:
    """One patch of change, in picture px: its bounding box and centroid."""

    left: float
    top: float
    width: float
    height: float
    cx: float
    cy: float

    @property
    def side(self) -> float:
        return min(self.width, self.height)


@dataclass(frozen=True)
class EmptyTray:
    """A picture of the empty tray as the comparison uses it: shrunk once, by a whole factor
    (OpenCV's fast path for area averaging) that brings the frame's long side to about
    reference_long_side; a fraction of a frame's memory, kept for a whole evening."""

    small: np.ndarray  # BGR uint8, the frame shrunk by `step`
    step: int
    frame_size: tuple[int, int]  # width and height of the frame it was taken from

    @classmethod
    def of(cls, frame: np.ndarray, params: VisionParams) -> EmptyTray:
        step = max(1, -(-max(frame.shape[:2]) // params.reference_long_side))
        return cls(_shrunk(frame, step), step, (frame.shape[1], frame.shape[0]))

    def picture(self) -> np.ndarray:
        """A frame-sized picture of it (each kept pixel repeated `step` times), which `of` shrinks
        back to the same kept copy: what a kept roll stores beside its frame."""
        width, height = self.frame_size
        grown = np.repeat(np.repeat(self.small, self.step, axis=0), self.step, axis=1)
        grown = grown[:height, :width]
        return cv2.copyMakeBorder(grown, 0, height - grown.shape[0], 0, width - grown.shape[1], cv2.BORDER_REPLICATE)


def _shrunk(image: np.ndarray, step: int) -> np.ndarray:
    return cv2.resize(image, None, fx=1.0 / step, fy=1.0 / step, interpolation=cv2.INTER_AREA) if step > 1 else image


def tray_difference(picture: np.ndarray, empty_tray: EmptyTray, offset: tuple[int, int],
                    params: VisionParams) -> TrayDifference:
    """Where `picture` (BGR; a part of a frame the size of the empty tray's, its top-left corner
    at `offset`) differs from the empty tray; ReferenceUnusable when they cannot be compared."""
    step = empty_tray.step
    now_small = _shrunk(picture, step)
    x0, y0 = offset[0] // step, offset[1] // step  # within a pixel of the small copy: allowed for below
    empty_small = empty_tray.small[y0:y0 + now_small.shape[0], x0:x0 + now_small.shape[1]]
    height, width = min(now_small.shape[0], empty_small.shape[0]), min(now_small.shape[1], empty_small.shape[1])
    if height < 8 or width < 8:
        raise ReferenceUnusable("the part read lies outside the empty-tray picture")
    now: np.ndarray
    empty: np.ndarray
    now, empty = (cv2.cvtColor(np.ascontiguousarray(image[:height, :width]), cv2.COLOR_BGR2Lab).astype(np.float32)
                  for image in (now_small, empty_small))
    empty = _aligned(now, empty, params)
    # The light: lightness by a gain, colour by an offset, each the median over a sparse grid of
    # pixels of the pixel-by-pixel ratio or difference (the median of all costs more than the rest
    # together). Pixel by pixel, the dice and their shadows are a minority of outliers; the ratio
    # of the two pictures' medians instead jumps between the light and dark stripes of a grained
    # or patterned table as the dice cover some of them, or as the part compared shrinks to the
    # tray's corners, and a third of the picture then seems changed.
    grid_now, grid_empty = now[::4, ::4].reshape(-1, 3), empty[::4, ::4].reshape(-1, 3)
    empty[..., 0] *= float(np.median((grid_now[:, 0] + 1.0) / (grid_empty[:, 0] + 1.0)))
    empty[..., 1:] += np.median(grid_now[:, 1:] - grid_empty[:, 1:], axis=0).astype(np.float32)
    now = cv2.GaussianBlur(now, (0, 0), params.reference_blur_px)
    empty = cv2.GaussianBlur(empty, (0, 0), params.reference_blur_px)
    # A pixel differs by how far it lies outside the range the empty tray shows within one pixel
    # of it (each channel): lined up to a fraction of a pixel, a printed edge would still differ
    # all along itself, and a board's print is all edges.
    near = np.ones((3, 3), np.uint8)
    excess = np.maximum(np.maximum(cv2.erode(empty, near) - now, now - cv2.dilate(empty, near)), 0.0)
    squared = cv2.transform(cv2.multiply(excess, excess), np.ones((1, 3), np.float32))  # summed over L, a, b
    # No opening of the mask: on the small copy a pip is 2-3 px, and on a die the colour of the
    # table its pips are all that differs.
    changed = (squared >= params.reference_change**2).astype(np.uint8)
    share = float(changed.mean())
    if share > params.reference_max_changed:
        raise ReferenceUnusable(f"the picture differs from the empty tray over {share:.0%} of it "
                                "(camera moved or light changed)")
    return TrayDifference(changed, 1.0 / step)


def _aligned(now: np.ndarray, empty: np.ndarray, params: VisionParams) -> np.ndarray:
    """The reference shifted onto the picture (a camera nudged by a few px), or as it stands
    when the two hardly correlate (a peak below reference_min_match); ReferenceUnusable when
    the shift is beyond reference_max_shift of the long side (the camera was moved).

    A plain felt or a checked cloth gives phase correlation nothing to hold on to (a flat or
    many-peaked surface), though nothing moved: such a pair is compared unshifted, and a view
    that truly moved or was blocked shows as more change than reference_max_changed."""
    window = cv2.createHanningWindow(now.shape[1::-1], cv2.CV_32F)
    (dx, dy), response = cv2.phaseCorrelate(empty[..., 0], now[..., 0], window)
    if response < params.reference_min_match:
        return empty
    if np.hypot(dx, dy) > params.reference_max_shift * max(now.shape[:2]):
        raise ReferenceUnusable(f"the camera moved by {np.hypot(dx, dy) / max(now.shape[:2]):.0%} of the picture "
                                "since the empty tray was taken")
    if np.hypot(dx, dy) < 0.5:  # the comparison allows a pixel either way
        return empty
    matrix = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    return cv2.warpAffine(empty, matrix, now.shape[1::-1], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def seen_from_where_taken(frame: np.ndarray, reference: EmptyTray, params: VisionParams) -> bool:
    """Whether `frame` (dice in it or not) can still be compared with the empty tray: the camera
    has not moved since, nor the light changed much."""
    try:
        checked = check_frame(frame, params)
    except FrameError:
        return False
    return _whole_frame_difference(checked, reference, params) is not None


def shows_empty_tray(frame: np.ndarray, found_dice: int, params: VisionParams,
                     reference: EmptyTray | None = None) -> bool:
    """Whether a still frame the reader found `found_dice` dice in may become the empty-tray
    reference: none found, a picture with contrast (not a covered lens or a blown-out one), and,
    compared with the `reference` in use, no die-sized patch of change (a die the reader missed
    must not become part of the empty tray, where it would hide every die on that spot). A
    reference it cannot be compared with (the camera moved, the lamp changed) is what a new
    picture is for: the reader's count decides alone."""
    if found_dice != 0:
        return False
    if reference is None:
        return _checked_picture(frame, params) is not None
    return tray_unchanged(frame, params, reference) is not False


def tray_unchanged(frame: np.ndarray, params: VisionParams, reference: EmptyTray) -> bool | None:
    """Whether `frame` shows the empty tray as `reference` has it, told by the comparison alone,
    with no reading: a picture with contrast and no die-sized patch of change. None when the two
    cannot be compared (another frame size, the camera moved, the light changed): then only a
    reading can tell."""
    checked = _checked_picture(frame, params)
    if checked is None:
        return False
    difference = _whole_frame_difference(checked, reference, params)
    if difference is None:
        return None
    return not difference.proposals([], None, 0.0, params)


def _checked_picture(frame: np.ndarray, params: VisionParams) -> np.ndarray | None:
    """`frame` as the reader takes it, where it is one with contrast (not a covered lens or a
    blown-out one); else None."""
    try:
        checked = check_frame(frame, params)
    except FrameError:
        return None
    return None if is_blank(checked, params) else checked


def _whole_frame_difference(checked: np.ndarray, reference: EmptyTray, params: VisionParams) -> TrayDifference | None:
    """How the whole checked frame differs from the empty tray; None when it cannot be compared
    (another frame size, the camera moved, the light changed)."""
    if reference.frame_size != (checked.shape[1], checked.shape[0]):
        return None
    try:
        return tray_difference(checked, reference, (0, 0), params)
    except ReferenceUnusable:
        return None


def save_reference(frame: np.ndarray, path: Path) -> None:
    """Write the empty-tray picture as PNG (directories made; written atomically: a failed write
    leaves the old one). OSError when it cannot be written."""
    encoded, data = cv2.imencode(".png", frame)
    if not encoded:
        raise OSError(f"{path}: the picture could not be encoded")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data.tobytes())


def load_reference(path: Path) -> np.ndarray | None:
    """The stored empty-tray picture, or None when there is none or it is not a colour image
    (a damaged file only costs the reference; the next empty tray seen makes a new one)."""
    if not path.is_file():
        return None
    picture = cv2.imread(str(path), cv2.IMREAD_COLOR)
    return picture if picture is not None and picture.size else None


def default_reference_path(calibration_path: Path) -> Path:
    """Where the empty-tray picture is kept: beside the colour calibration, on the table's own
    machine only."""
    return calibration_path.with_name("empty-tray.png")

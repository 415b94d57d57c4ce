"""Checking an input frame and making the small working copy the segmentation runs on."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.params import WHOLE_FRAME, VisionParams
from vision.perspective import point_below_camera


class FrameError(ValueError):
    """The frame cannot be read at all; the message says why in plain words."""


def check_frame(frame: object, params: VisionParams) -> np.ndarray:
    """Return the frame as a BGR uint8 array, or raise FrameError saying what is wrong.

    Accepts BGR or BGRA uint8 arrays; float arrays in 0-1 or 0-255 are converted.
    """
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"frame is a {type(frame).__name__}, not an image array")
    if frame.size == 0:
        raise FrameError("frame is empty")
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise FrameError(f"frame has shape {frame.shape}; a colour (BGR) image is needed")
    if frame.dtype != np.uint8:
        if not np.issubdtype(frame.dtype, np.floating) and not np.issubdtype(frame.dtype, np.integer):
            raise FrameError(f"frame has pixel type {frame.dtype}; uint8 BGR is needed")
        if np.issubdtype(frame.dtype, np.floating) and not np.all(np.isfinite(frame)):
            raise FrameError("frame holds NaN or infinite values")
        values = np.clip(frame, 0, 255).astype(np.float32)  # clip first: huge values would overflow float32
        if np.issubdtype(frame.dtype, np.floating) and values.max() <= 1.0:
            values = values * 255.0
        frame = np.clip(values, 0, 255).astype(np.uint8)
    if frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    height, width = frame.shape[:2]
    if min(height, width) < params.min_frame_side:
        raise FrameError(
            f"frame is {width}x{height}; at least {params.min_frame_side} px on each side is needed"
        )
    return np.ascontiguousarray(frame)


def is_blank(frame: np.ndarray, params: VisionParams) -> bool:
    """True for a frame with (almost) no contrast at all: lens cap, blown out, uniform."""
    step = max(1, min(frame.shape[:2]) // params.blank_check_samples)
    return float(frame[::step, ::step].std()) < params.blank_frame_std


@dataclass(frozen=True)
class RegionPlace:
    """Where a tray region cut from the camera's whole frame lies in that frame: the region is
    read as the whole frame would be, at its scale and with its centre below the camera."""

    offset: tuple[int, int]  # the view's top-left corner, in frame pixels
    frame_size: tuple[int, int]  # the whole frame's width and height
    # The tray region proper (x, y, w, h) in the view's pixels, where the view reaches beyond it
    # (`cut_with_margin`): only dice centred there count. None: the whole view.
    counted: tuple[int, int, int, int] | None = None
    # A region of four corners: its corners in the view's pixels (clockwise); only dice centred
    # inside them count. None: the rectangle `counted` is the region.
    corners: np.ndarray | None = None
    # The point straight below the camera (frame pixels), where the region's corners tell it
    # (vision.perspective); None: the whole frame's centre, or unknown for corners that do not
    # tell it (`view_centre`).
    below_camera: tuple[float, float] | None = None

    def counts(self, x: float, y: float) -> bool:
        """Whether a die centred at (x, y), in the view's pixels, lies in the tray region proper."""
        if self.corners is not None:
            return inside_corners(self.corners, x, y)
        if self.counted is None:
            return True
        left, top, width, height = self.counted
        return left <= x < left + width and top <= y < top + height

    @property
    def view_centre(self) -> tuple[float, float] | None:
        """The point below the camera (by default the whole frame's centre) in the region's pixels;
        None where four corners were given but do not tell it (the reader then guesses it from
        the dice, as without corners)."""
        if self.below_camera is None and self.corners is not None:
            return None
        x, y = (self.frame_size[0] / 2.0, self.frame_size[1] / 2.0) if self.below_camera is None else self.below_camera
        return x - self.offset[0], y - self.offset[1]

    @property
    def frame_long_side(self) -> int:
        return max(self.frame_size)


def tray_region(params: VisionParams, width: int, height: int) -> tuple[int, int, int, int] | None:
    """The configured tray region (tray_left/top/width/height) as (x, y, w, h) in pixels of a
    `width` x `height` frame; None when it is the whole frame."""
    return None if params.tray == WHOLE_FRAME else tray_pixels(params.tray, width, height)


def tray_corner_pixels(params: VisionParams, width: int, height: int) -> np.ndarray | None:
    """The configured tray region's four corners (tray_corners) as a 4 x 2 array of pixels of a
    `width` x `height` frame, clockwise; None when the region is a rectangle."""
    corners = params.tray_quad
    return None if corners is None else np.array(corners, float) * (width, height)


def inside_corners(corners: np.ndarray, x: float, y: float) -> bool:
    """Whether (x, y) lies inside (or on) the convex quadrilateral `corners` (4 x 2, clockwise on
    the picture, whose y runs down)."""
    following = np.roll(corners, -1, axis=0)
    edge, to_point = following - corners, np.array([x, y]) - corners
    return bool(np.all(edge[:, 0] * to_point[:, 1] - edge[:, 1] * to_point[:, 0] >= 0.0))


def tray_pixels(tray: tuple[float, float, float, float], width: int, height: int) -> tuple[int, int, int, int]:
    """A tray region given as fractions (left, top, width, height) as (x, y, w, h) in pixels."""
    left, top, part_width, part_height = tray
    return round(left * width), round(top * height), round(part_width * width), round(part_height * height)


def cut_region(
    frame: np.ndarray, params: VisionParams, region: tuple[int, int, int, int] | None
) -> tuple[np.ndarray, tuple[int, int]]:
    """The tray region (x, y, w, h; None: the configured one) of the frame (a view) and its
    top-left corner; FrameError if it misses."""
    height, width = frame.shape[:2]
    if region is None:
        region = tray_region(params, width, height)
    if region is None:
        return frame, (0, 0)
    x, y, w, h = region
    x0, y0 = max(0, int(x)), max(0, int(y))
    x1, y1 = min(width, int(x + w)), min(height, int(y + h))
    if x1 - x0 < params.min_frame_side or y1 - y0 < params.min_frame_side:
        raise FrameError(f"tray region {region} lies outside the {width}x{height} frame or is too small")
    return frame[y0:y1, x0:x1], (x0, y0)


def cut_with_margin(frame: np.ndarray, params: VisionParams,
                    region: tuple[int, int, int, int] | None) -> tuple[np.ndarray, RegionPlace | None]:
    """The tray region (x, y, w, h; None: the configured one, of four corners the upright
    rectangle around them) grown by `tray_margin` of the frame's long side on each side, as far
    as the frame goes, and where it lies (None: the view is the whole frame, a rectangle). A die
    centred in the region but running over its edge is then seen whole; `RegionPlace.counts`
    tells which dice are the region's. FrameError if it misses."""
    height, width = frame.shape[:2]
    view, (x0, y0) = cut_region(frame, params, region)
    corners = tray_corner_pixels(params, width, height) if region is None else None
    below = None if corners is None else point_below_camera(corners, width, height, params.camera_fov_deg)
    if view.shape == frame.shape:
        return frame, None if corners is None else RegionPlace((0, 0), (width, height), None, corners, below)
    margin = round(params.tray_margin * max(height, width))
    gx0, gy0 = max(0, x0 - margin), max(0, y0 - margin)
    gx1, gy1 = min(width, x0 + view.shape[1] + margin), min(height, y0 + view.shape[0] + margin)
    counted = (x0 - gx0, y0 - gy0, view.shape[1], view.shape[0])
    shifted = None if corners is None else corners - (gx0, gy0)
    return frame[gy0:gy1, gx0:gx1], RegionPlace((gx0, gy0), (width, height), counted, shifted, below)


@dataclass(frozen=True)
class WorkFrame:
    """The coarse working copy of a frame and how it maps back to frame pixels."""

    image: np.ndarray  # BGR uint8 at coarse scale
    scale: float  # coarse pixels per frame pixel (<= 1)
    offset: tuple[int, int]  # (x, y) of the region's top-left corner in the frame


def make_work_frame(
    frame: np.ndarray, params: VisionParams, region: tuple[int, int, int, int] | None
) -> WorkFrame:
    """Cut the tray region (x, y, w, h; None: the configured one) and shrink it as the whole
    frame would be shrunk to a long side of at most coarse_max_side, so its dice keep their size."""
    scale = min(1.0, params.coarse_max_side / max(frame.shape[:2]))
    frame, (x0, y0) = cut_region(frame, params, region)
    if scale < 1.0:
        size = (max(1, round(frame.shape[1] * scale)), max(1, round(frame.shape[0] * scale)))
        image = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    else:
        image = frame
    return WorkFrame(image=image, scale=scale, offset=(x0, y0))

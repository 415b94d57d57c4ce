"""What the learned reader reads of a frame: the tray region, straightened onto the table where
a tilted camera's tray corners allow (vision.straighten), and where it differs from the empty
tray (vision.reference).

The reader and `vision adapt`'s teaching (vision.head_refit) both start here, so that a table's
rolls teach the classifiers on crops cut as the reader cuts them when it reads that table.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frame import FrameError, RegionPlace, check_frame, cut_with_margin
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reference import EmptyTray, ReferenceUnusable, TrayDifference, tray_difference
from vision.straighten import Straightened, straightened, straightened_empty_tray
from vision.types import DieReading


@dataclass(frozen=True)
class ReaderView:
    """The picture the learned reader reads and how it lies in the camera's frame."""

    picture: np.ndarray  # BGR: the tray region with its margin, or its straightened view
    place: RegionPlace | None  # the picture as the reader's region (None: the whole frame, read as it is)
    region: RegionPlace | None  # the tray region in the frame, before any straightening
    tray: TrayDifference | None  # where the picture differs from the empty tray, when one was usable
    straight: Straightened | None  # how the picture was straightened, if it was
    note: str  # why the empty tray given was not used ("" when it was, or none was given)

    def points_in_frame(self, points: np.ndarray) -> np.ndarray:
        """Points of the picture (N x 2 px) in the frame's pixels."""
        points = np.asarray(points, np.float64).reshape(-1, 2)
        if self.straight is not None:
            if not len(points):
                return points
            return cv2.perspectiveTransform(points[None], np.linalg.inv(self.straight.homography))[0]
        return points + (self.place.offset if self.place is not None else (0, 0))

    def die_in_frame(self, die: DieReading) -> DieReading:
        """A reading of the picture with its box in the frame's pixels."""
        if self.straight is not None:
            return self.straight.to_frame(die)
        x0, y0 = self.place.offset if self.place is not None else (0, 0)
        return dataclasses.replace(die, x=die.x + x0, y=die.y + y0)


def reader_view(checked: np.ndarray, params: VisionParams, region: tuple[int, int, int, int] | None,
                reference: np.ndarray | EmptyTray | None, learned: LearnedParams) -> ReaderView:
    """The view of a checked frame (`check_frame`) the learned reader reads: the tray `region`
    (x, y, w, h; None: the configured one) with its margin, straightened where four corners place
    a camera leaning at least `straighten_min_tilt_deg`, and compared with the empty tray
    `reference` when it is given and usable. FrameError when the region misses the frame."""
    view, place = cut_with_margin(checked, params, region)
    straight = _straightened(checked, place, params, learned)
    if straight is None:
        tray, note = view_difference(view, checked, place, reference, params)
        return ReaderView(view, place, place, tray, None, note)
    tray, note = _straightened_difference(straight, checked, reference, params)
    return ReaderView(straight.picture, straight.place, place, tray, straight, note)


def _straightened(checked: np.ndarray, place: RegionPlace | None, params: VisionParams,
                  learned: LearnedParams) -> Straightened | None:
    if place is None or place.corners is None or place.below_camera is None:
        return None
    margin = round(params.tray_margin * max(checked.shape[:2]))
    return straightened(checked, place.corners + place.offset, params.camera_fov_deg, learned.straighten_min_tilt_deg,
                        learned.straighten_leaves_deg, margin)


def _straightened_difference(straight: Straightened, checked: np.ndarray, reference: np.ndarray | EmptyTray | None,
                             params: VisionParams) -> tuple[TrayDifference | None, str]:
    """As `view_difference`, for the straightened view: the empty tray straightened the same way."""
    if reference is None:
        return None, ""
    try:
        empty = straightened_empty_tray(straight, reference if isinstance(reference, EmptyTray)
                                        else check_frame(reference, params), (checked.shape[1], checked.shape[0]), params)
        return tray_difference(straight.picture, empty, (0, 0), params), ""
    except (FrameError, ReferenceUnusable) as exc:
        return None, f"empty-tray reference not used: {exc}"


def view_difference(view: np.ndarray, checked: np.ndarray, place: RegionPlace | None,
                    reference: np.ndarray | EmptyTray | None, params: VisionParams) -> tuple[TrayDifference | None, str]:
    """Where the view read (`checked` cut at `place`) differs from the same part of the empty-tray
    `reference`, or None and (for a reference that cannot be used) why not."""
    if reference is None:
        return None, ""
    try:
        empty = reference if isinstance(reference, EmptyTray) else EmptyTray.of(check_frame(reference, params), params)
        if empty.frame_size != (checked.shape[1], checked.shape[0]):
            raise ReferenceUnusable(f"the empty-tray picture is {empty.frame_size[0]}x{empty.frame_size[1]}, "
                                    f"the frame {checked.shape[1]}x{checked.shape[0]}")
        return tray_difference(view, empty, (0, 0) if place is None else place.offset, params), ""
    except (FrameError, ReferenceUnusable) as exc:
        return None, f"empty-tray reference not used: {exc}"

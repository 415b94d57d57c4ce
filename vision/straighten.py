"""A tilted camera's view of the tray straightened onto the table.

Under a camera leaning 30 degrees a die's top face is a squashed, skewed square beside two
side faces full of pips, and the classifier, which learned mostly square faces seen from
above, doubts one die in five. Once the camera check has the tray's four corners and the
camera's field of view, the reader knows which way is straight down (vision.perspective), and
the picture a camera at the same place would take looking straight down is one homography
away: turning a camera about its lens moves no point in depth, so the view is warped, not
re-rendered. There every top face (parallel to the table) is square again, the dice are all
about one size, the tray is a rectangle, and the side faces lean outward from the point below
the camera, as the leaning check expects. The reader reads that picture and maps its boxes back.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frame import RegionPlace
from vision.params import VisionParams
from vision.perspective import camera_over_tray
from vision.reference import EmptyTray, ReferenceUnusable
from vision.types import DieReading

# The straightened view holds at most this many times the frame region's pixels (a steep tilt
# stretches the far side of the tray; more would only spread the same pixels thinner).
_MOST_ENLARGED = 2.0


@dataclass(frozen=True)
class Straightened:
    """The tray's view as seen straight down, and how it maps to the camera's frame."""

    picture: np.ndarray  # BGR, the straightened view
    homography: np.ndarray  # 3 x 3: frame px -> straightened px
    place: RegionPlace  # the straightened view as the reader's region: its corners, the point below
    tilt_deg: float  # how far the camera leans from straight down

    def to_frame(self, die: DieReading) -> DieReading:
        """A reading of the straightened view with its box in frame pixels: the box's centre
        mapped back, its size the mapped box's extent."""
        x, y, w, h = die.x, die.y, die.w, die.h
        box = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h], [x + w / 2, y + h / 2]]], np.float64)
        back = cv2.perspectiveTransform(box, np.linalg.inv(self.homography))[0]
        width, height = back[:4].max(axis=0) - back[:4].min(axis=0)
        cx, cy = back[4]
        return dataclasses.replace(die, x=round(cx - width / 2), y=round(cy - height / 2), w=max(1, round(width)),
                                   h=max(1, round(height)))

    def empty_tray(self, empty: EmptyTray) -> EmptyTray:
        """The empty-tray picture straightened as the view is (its small copy warped at its own
        scale); `straightened_empty_tray` checks first that it is of the same frame size."""
        width, height = self.place.frame_size
        step = empty.step
        to_small = np.diag([1.0 / step, 1.0 / step, 1.0])
        warp = to_small @ self.homography @ np.linalg.inv(to_small)
        size = (max(1, width // step), max(1, height // step))
        return EmptyTray(cv2.warpPerspective(empty.small, warp, size, flags=cv2.INTER_LINEAR), step, (width, height))


def straightened(frame: np.ndarray, corners: np.ndarray, field_of_view_deg: float, min_tilt_deg: float,
                 leave_deg: float, margin_px: int) -> Straightened | None:
    """`frame`'s tray (inside `corners`, 4 x 2 frame px round the tray) as a camera at the same
    place looking straight down would see it, with `margin_px` round the tray's corners; None
    where the camera leans less than `min_tilt_deg` (nothing to gain) or its corners do not
    place it (`camera_over_tray`)."""
    height, width = frame.shape[:2]
    camera = camera_over_tray(corners, width, height, field_of_view_deg)
    if camera is None:
        return None
    focal, below = camera
    lens = np.array([[focal, 0.0, width / 2.0], [0.0, focal, height / 2.0], [0.0, 0.0, 1.0]])
    down = np.linalg.inv(lens) @ np.array([below[0], below[1], 1.0])
    down /= np.linalg.norm(down) * (1.0 if down[2] > 0 else -1.0)
    tilt = math.degrees(math.acos(min(1.0, float(down[2]))))
    if tilt < min_tilt_deg:
        return None
    axis = np.cross(down, [0.0, 0.0, 1.0])
    turn, _ = cv2.Rodrigues(axis / np.linalg.norm(axis) * math.radians(tilt - min(leave_deg, tilt)))
    looking_down = lens @ turn @ np.linalg.inv(lens)
    seen = cv2.perspectiveTransform(np.asarray(corners, np.float64)[None], looking_down)[0]
    region = np.asarray(corners, float).max(axis=0) - np.asarray(corners, float).min(axis=0)
    extent = seen.max(axis=0) - seen.min(axis=0)
    scale = min(_MOST_ENLARGED, math.sqrt(float(region[0] * region[1]) / max(float(extent[0] * extent[1]), 1.0)))
    shift = np.array([[scale, 0.0, margin_px - scale * seen[:, 0].min()],
                      [0.0, scale, margin_px - scale * seen[:, 1].min()], [0.0, 0.0, 1.0]])
    homography = shift @ looking_down
    size = (int(math.ceil(scale * extent[0])) + 2 * margin_px, int(math.ceil(scale * extent[1])) + 2 * margin_px)
    picture = cv2.warpPerspective(frame, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    point = cv2.perspectiveTransform(np.array([[below]], np.float64), homography)[0, 0]
    place = RegionPlace((0, 0), size, None, cv2.perspectiveTransform(np.asarray(corners, np.float64)[None],
                                                                    homography)[0], (float(point[0]), float(point[1])))
    return Straightened(picture, homography, place, tilt)


def straightened_empty_tray(straight: Straightened, reference: np.ndarray | EmptyTray, frame_size: tuple[int, int],
                            params: VisionParams) -> EmptyTray:
    """The empty tray straightened as `straight` was, from a picture or an `EmptyTray` of the
    camera's whole frame (`frame_size`); ReferenceUnusable when it is another size."""
    size = reference.frame_size if isinstance(reference, EmptyTray) else (reference.shape[1], reference.shape[0])
    if size != frame_size:
        raise ReferenceUnusable(f"the empty-tray picture is {size[0]}x{size[1]}, the frame {frame_size[0]}x{frame_size[1]}")
    if isinstance(reference, EmptyTray):
        return straight.empty_tray(reference)
    picture = cv2.warpPerspective(reference, straight.homography, straight.place.frame_size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT)
    return EmptyTray.of(picture, params)

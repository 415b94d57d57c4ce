"""Where the point straight below the camera lies in the picture, from the tray's four corners.

The leaning check turns each die so that "outward" (away from the point below the camera)
always points the same way: a flat die shows a sliver of side face towards that point, a
cocked die a whole face. Straight above the tray, that point is the picture's centre. A
camera tilted towards the tray moves it, far beyond the picture's edge at 30 degrees, and
outward taken from the centre then points sideways or inward for many dice.

The tray is a rectangle on the table. Its corners seen at a slant give the two vanishing
points of its sides; with the camera's focal length they give the table's normal, whose image
is the point below the camera (the vanishing point of vertical lines).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Vanishing points nearer the picture's centre than this many focal lengths are taken as real
# when the focal length is measured from them (farther ones: the sides are nearly parallel).
_FINITE_WITHIN_FOCALS = 50.0
# A focal length measured from the corners and the one the field of view gives agree within this
# factor, or the point below the camera is not taken from the corners (a slip of a tap, a tray
# that is not quite rectangular, or a field of view not the camera's).
_FOCAL_TRUST = 2.0


def focal_length_px(width: int, field_of_view_deg: float) -> float:
    """The focal length in pixels of a camera whose picture, `width` px wide, spans
    `field_of_view_deg` degrees across."""
    return width / 2.0 / math.tan(math.radians(field_of_view_deg) / 2.0)


def point_below_camera(corners: np.ndarray, width: int, height: int,
                       field_of_view_deg: float) -> tuple[float, float] | None:
    """The point straight below the camera (frame px; it may lie outside the picture) from the
    tray's four corners (4 x 2 px, in order round the tray) in a `width` x `height` picture
    whose principal point is its centre (`camera_over_tray`). None when the corners and the
    field of view disagree: the caller then places the camera as it would without corners."""
    camera = camera_over_tray(corners, width, height, field_of_view_deg)
    return None if camera is None else camera[1]


@dataclass(frozen=True)
class CameraSlant:
    """What the tray's four corners tell of the camera, for the camera check to say (`camera_slant`)."""

    tilt_deg: float | None  # how far from straight down it looks; None: the corners and the field of view disagree
    measured_fov_deg: float | None  # the field of view across that the corners measure, when the slant shows it


def camera_slant(corners: np.ndarray, width: int, height: int, field_of_view_deg: float) -> CameraSlant:
    """How far from straight down the camera looks at the tray, by its four corners (4 x 2 px, in
    order round it) and the field of view (the corners' own when they show it), and the field of
    view they measure. A tilt of None says the reader cannot place the camera from these corners
    (`camera_over_tray`): the player should tap them again or set the camera's field of view."""
    geometry = _geometry(corners, width, height, field_of_view_deg)
    measured = geometry[2]
    measured_fov = None if measured is None else math.degrees(2.0 * math.atan(width / 2.0 / measured))
    if geometry[0] is None:
        return CameraSlant(None, measured_fov)
    normal = geometry[1]
    tilt = math.degrees(math.acos(min(1.0, abs(float(normal[2])) / float(np.linalg.norm(normal)))))
    return CameraSlant(tilt, measured_fov)


def camera_over_tray(corners: np.ndarray, width: int, height: int,
                     field_of_view_deg: float) -> tuple[float, tuple[float, float]] | None:
    """The camera's focal length (px) and the point straight below it (frame px) from the
    tray's four corners (4 x 2 px, in order round the tray) in a `width` x `height` picture
    whose principal point is its centre. The focal length comes from the corners when the
    slant shows it (the tray's sides meet at right angles), else from `field_of_view_deg`.
    A tray seen square on gives the picture's centre.

    None when the corners and the field of view disagree: the corners measure a focal length
    more than _FOCAL_TRUST times off the one the field of view gives (a camera other than the
    configured one, or a tap far off the corner). Either may be wrong, and a point from the
    wrong one turns "outward" sideways for many dice."""
    focal, normal, _measured = _geometry(corners, width, height, field_of_view_deg)
    if focal is None:
        return None
    centre = (width / 2.0, height / 2.0)
    if abs(normal[2]) < 1e-9 * np.linalg.norm(normal):  # camera looking level: below it is infinitely far
        return focal, centre
    return focal, (float(centre[0] + focal * normal[0] / normal[2]), float(centre[1] + focal * normal[1] / normal[2]))


def _geometry(corners: np.ndarray, width: int, height: int,
              field_of_view_deg: float) -> tuple[float | None, np.ndarray, float | None]:
    """The focal length used (None when the corners and the field of view disagree), the table's
    normal in the camera's frame (its z along the view), and the focal length the corners measure."""
    centre = np.array([width / 2.0, height / 2.0])
    assumed = focal_length_px(width, field_of_view_deg)
    points = np.hstack([np.asarray(corners, float) - centre, np.ones((4, 1))])
    sides = [np.cross(points[i], points[(i + 1) % 4]) for i in range(4)]
    vanishing = [np.cross(sides[0], sides[2]), np.cross(sides[1], sides[3])]  # opposite sides meet there
    measured = _measured_focal(vanishing, assumed)
    if measured is not None and not assumed / _FOCAL_TRUST <= measured <= assumed * _FOCAL_TRUST:
        return None, np.zeros(3), measured
    focal = measured or assumed
    inverse = np.diag([1.0 / focal, 1.0 / focal, 1.0])
    return focal, np.cross(inverse @ vanishing[0], inverse @ vanishing[1]), measured


def _measured_focal(vanishing: list[np.ndarray], assumed: float) -> float | None:
    """The focal length that makes the tray's sides meet at a right angle, when both vanishing
    points are finite (within _FINITE_WITHIN_FOCALS of the `assumed` focal length) and one
    exists; None otherwise."""
    if any(abs(v[2]) < 1e-12 for v in vanishing):
        return None
    first, second = (v[:2] / v[2] for v in vanishing)
    if max(np.linalg.norm(first), np.linalg.norm(second)) > _FINITE_WITHIN_FOCALS * assumed:
        return None
    squared = -float(first @ second)
    return math.sqrt(squared) if squared > 0.0 else None

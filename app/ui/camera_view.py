"""A live picture from the dice camera, refreshed a few times a second on the UI thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.uix.image import Image

import numpy as np

from vision.debug import TRAY_OUTLINE_BGR, outline_corners
from vision.params import WHOLE_FRAME_CORNERS, Corners, parse_tray_corners

PREVIEW_FPS = 6
PREVIEW_WIDTH = 640
# A marked tray region narrower or lower than this share of the picture is taken for a slip.
MIN_TRAY_SHARE = 0.1


def frame_texture(frame: Any, max_width: int = PREVIEW_WIDTH, tray: Corners = WHOLE_FRAME_CORNERS,
                  marks: tuple[tuple[float, float], ...] = ()) -> Texture:
    """A Kivy texture of a BGR frame, scaled down for the screen, with the outline of the tray
    region the reader looks in (its four corners; fractions across and down) unless that is the
    whole frame, and a ring at each of `marks` (fractions: a tray corner tapped)."""
    height, width = frame.shape[:2]
    if width > max_width:
        frame = cv2.resize(frame, (max_width, int(height * max_width / width)), interpolation=cv2.INTER_AREA)
    outlined = tuple(tray) != WHOLE_FRAME_CORNERS
    if outlined or marks:
        frame = frame.copy() if width <= max_width else frame  # never draw on the service's frame
        shown_height, shown_width = frame.shape[:2]
        if outlined:
            outline_corners(frame, np.array(tray, float) * (shown_width, shown_height))
        for across, down in marks:
            centre = (round(across * shown_width), round(down * shown_height))
            cv2.circle(frame, centre, max(6, shown_width // 60), TRAY_OUTLINE_BGR, max(2, shown_width // 200))
    rgb = cv2.cvtColor(cv2.flip(frame, 0), cv2.COLOR_BGR2RGB)
    texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


def tray_from_corners(corners: list[tuple[float, float]]) -> list[float] | None:
    """The tray region's four corners tapped on the picture (fractions, in any order) as the
    settings keep them, x y x y x y x y clockwise from the top-left one; None for a slip: a
    region too small to hold the dice, or four taps that make no convex quadrilateral."""
    text = " ".join(f"{round(value, 4):g}" for corner in corners for value in corner)
    try:
        ordered = parse_tray_corners(text)
    except ValueError:
        return None
    xs, ys = [x for x, _ in ordered], [y for _, y in ordered]
    if max(xs) - min(xs) < MIN_TRAY_SHARE or max(ys) - min(ys) < MIN_TRAY_SHARE:
        return None
    return [value for corner in ordered for value in corner]


class CameraView(Image):
    """Asks the dice service to keep looking while shown, and polls its newest frame.

    The frame comes from the ticker thread through the service's lock; the
    texture is made here, on the UI thread, by a Clock interval.
    """

    def __init__(self, link: Any, on_picture_tap: Callable[[float, float], None] | None = None,
                 marks: tuple[tuple[float, float], ...] = (), **kwargs: Any) -> None:
        """`on_picture_tap(x, y)`, if given, hears where the picture is tapped (fractions of its
        width and height from its top-left corner); `marks` are drawn as rings there."""
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        self.link = link
        self.on_picture_tap = on_picture_tap
        self.marks = marks
        self._shown: Any = None
        link.watch(True)
        self._event = Clock.schedule_interval(self._update, 1 / PREVIEW_FPS)
        self.bind(parent=self._on_parent)
        self._update(0)

    def picture_point(self, x: float, y: float) -> tuple[float, float] | None:
        """Where the window point (x, y) lies on the picture shown (letterboxed in the view), as
        fractions from the picture's top-left corner; None beside the picture."""
        width, height = self.norm_image_size
        if width <= 0 or height <= 0:
            return None
        across = (x - (self.center_x - width / 2)) / width
        down = 1.0 - (y - (self.center_y - height / 2)) / height
        return (across, down) if 0.0 <= across <= 1.0 and 0.0 <= down <= 1.0 else None

    def on_touch_down(self, touch: Any) -> bool:
        if self.on_picture_tap is not None and self.texture is not None and self.collide_point(*touch.pos):
            point = self.picture_point(*touch.pos)
            if point is not None:
                self.on_picture_tap(*point)
                return True
        return bool(super().on_touch_down(touch))

    def _on_parent(self, _widget: Any, parent: Any) -> None:
        if parent is None:  # taken off the screen (a redraw or another screen)
            self._event.cancel()
            self.link.watch(False)

    def _update(self, _dt: float) -> bool | None:
        if self.get_root_window() is None and _dt:  # the screen went away without removing the view
            self._on_parent(self, None)
            return False
        frame = self.link.latest_frame()
        if frame is not None and frame is not self._shown:
            self._shown = frame
            self.texture = frame_texture(frame, tray=self.link.tray(), marks=self.marks)
        return None

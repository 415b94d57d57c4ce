"""A live picture from the dice camera, refreshed a few times a second on the UI thread."""

from __future__ import annotations

from typing import Any

import cv2
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.uix.image import Image

from vision.debug import outline_region
from vision.frame import tray_pixels
from vision.params import WHOLE_FRAME

PREVIEW_FPS = 6
PREVIEW_WIDTH = 640


def frame_texture(frame: Any, max_width: int = PREVIEW_WIDTH,
                  tray: tuple[float, float, float, float] = WHOLE_FRAME) -> Texture:
    """A Kivy texture of a BGR frame, scaled down for the screen, with the outline of the tray
    region the reader looks in (left, top, width, height; fractions) unless that is the whole frame."""
    height, width = frame.shape[:2]
    if width > max_width:
        frame = cv2.resize(frame, (max_width, int(height * max_width / width)), interpolation=cv2.INTER_AREA)
    if tray != WHOLE_FRAME:
        frame = frame.copy() if width <= max_width else frame  # never draw on the service's frame
        outline_region(frame, tray_pixels(tray, frame.shape[1], frame.shape[0]))
    rgb = cv2.cvtColor(cv2.flip(frame, 0), cv2.COLOR_BGR2RGB)
    texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


class CameraView(Image):
    """Asks the dice service to keep looking while shown, and polls its newest frame.

    The frame comes from the ticker thread through the service's lock; the
    texture is made here, on the UI thread, by a Clock interval.
    """

    def __init__(self, link: Any, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        self.link = link
        self._shown: Any = None
        link.watch(True)
        self._event = Clock.schedule_interval(self._update, 1 / PREVIEW_FPS)
        self.bind(parent=self._on_parent)
        self._update(0)

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
            self.texture = frame_texture(frame, tray=self.link.tray())
        return None

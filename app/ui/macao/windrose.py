"""The windrose: a player's supply in the middle and six sectors around it.

Drawn with Kivy graphics so it scales to any panel: sector k holds the cubes
that arrive in k rounds, each colour as one cube with its count. `turn()`
animates the rose turning by one sector after the dice were chosen.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.animation import Animation
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, PopMatrix, PushMatrix, Rectangle, Rotate, RoundedRectangle
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.widget import Widget

from app.ui import theme

SECTORS = 6
# A sector's pile is this share of the ring's width: as big as it gets with four colours in a
# 2x2 grid still clear of the sector numbers, so counts stay legible on a small rose.
PILE_SHARE = 0.45
SUPPLY_SHARE = 0.75  # the supply's pile, of the centre's radius: a 2x2 grid still inside the circle


@functools.lru_cache(maxsize=512)
def _text_texture(text: str, size: float, colour: tuple[float, ...]) -> Any:
    """A rendered number; cached, since every redraw of every rose needs the same few."""
    label = CoreLabel(text=text, font_size=max(8, round(size)), bold=True, color=colour)
    label.refresh()
    return label.texture


class WindroseWidget(Widget):
    """Seven places for cubes: index 0 the supply (centre), 1..6 the sectors."""

    player = StringProperty("orange")
    angle = NumericProperty(0.0)

    def __init__(self, player: str = "orange", windrose: Sequence[Mapping[str, int]] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.player = player
        self._windrose: list[dict[str, int]] = [dict(s) for s in (windrose or [{}] * (SECTORS + 1))]
        self.bind(pos=self._redraw, size=self._redraw, angle=self._redraw, player=self._redraw)
        self._redraw()

    @property
    def windrose(self) -> list[dict[str, int]]:
        return [dict(s) for s in self._windrose]

    def show(self, windrose: Sequence[Mapping[str, int]]) -> None:
        """Show new contents without animation."""
        self._windrose = [dict(s) for s in windrose]
        self._redraw()

    def turn(self, windrose: Sequence[Mapping[str, int]], duration: float = 0.6) -> None:
        """Show contents that moved one sector down, animated as the rose turning."""
        self._windrose = [dict(s) for s in windrose]
        Animation.cancel_all(self, "angle")
        self.angle = -360.0 / SECTORS
        Animation(angle=0.0, duration=duration, t="out_cubic").start(self)

    def settle(self) -> None:
        """End a turning at once: a still picture (a screenshot) shows each cube in its sector."""
        Animation.cancel_all(self, "angle")
        self.angle = 0.0

    def cubes_in(self, sector: int) -> dict[str, int]:
        return {c: n for c, n in self._windrose[sector].items() if n > 0}

    def _redraw(self, *_args: Any) -> None:
        radius = min(self.width, self.height) / 2 - 3
        if radius <= 4:
            self.canvas.clear()
            return
        # From x/y/width/height, not center: a pos callback may run before Kivy updates center.
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        inner = radius * 0.36
        rim = theme.player_colour(self.player)
        self.canvas.clear()
        with self.canvas:
            Color(*rim)
            Ellipse(pos=(cx - radius - 3, cy - radius - 3), size=(2 * radius + 6, 2 * radius + 6))
            for k in range(1, SECTORS + 1):
                shade = theme.PANEL_LIGHT if k % 2 else theme.PANEL
                Color(*shade)
                start = (k - 1) * 360 / SECTORS - 180 / SECTORS
                Ellipse(
                    pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius),
                    angle_start=start, angle_end=start + 360 / SECTORS,
                )
            Color(*theme.BACKGROUND)
            Ellipse(pos=(cx - inner, cy - inner), size=(2 * inner, 2 * inner))
            Color(*rim)
            Line(circle=(cx, cy, inner), width=2)
            for k in range(1, SECTORS + 1):
                self._sector_number(k, cx, cy, radius)
            PushMatrix()
            Rotate(angle=self.angle, origin=(cx, cy))
            for k in range(1, SECTORS + 1):
                mid = math.radians(90 - (k - 1) * 360 / SECTORS)
                r_mid = (inner + radius) / 2
                self._pile(self.cubes_in(k), cx + r_mid * math.cos(mid), cy + r_mid * math.sin(mid), (radius - inner) * PILE_SHARE)
            PopMatrix()
            self._pile(self.cubes_in(0), cx, cy, inner * SUPPLY_SHARE)

    def _sector_number(self, k: int, cx: float, cy: float, radius: float) -> None:
        mid = math.radians(90 - (k - 1) * 360 / SECTORS + 360 / SECTORS * 0.36)
        r = radius * 0.86
        texture = _text_texture(str(k), round(radius * 0.16), tuple(theme.TEXT_DIM))
        x = cx + r * math.cos(mid) - texture.width / 2
        y = cy + r * math.sin(mid) - texture.height / 2
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(x, y), size=texture.size)

    def _pile(self, cubes: Mapping[str, int], x: float, y: float, side: float) -> None:
        """Cubes of a place, one square per colour with its count, in a small grid."""
        items = list(cubes.items())
        if not items:
            return
        cols = 1 if len(items) == 1 else 2 if len(items) <= 4 else 3
        rows = math.ceil(len(items) / cols)
        cell = side * (1.0 if cols == 1 else 0.85 if cols == 2 else 0.7)
        gap = cell * 0.12
        total_w = cols * cell + (cols - 1) * gap
        total_h = rows * cell + (rows - 1) * gap
        for i, (colour, count) in enumerate(items):
            col, row = i % cols, i // cols
            px = x - total_w / 2 + col * (cell + gap)
            py = y + total_h / 2 - (row + 1) * cell - row * gap
            Color(*theme.CUBE_OUTLINE)
            RoundedRectangle(pos=(px - 1.5, py - 1.5), size=(cell + 3, cell + 3), radius=[3])
            Color(*theme.cube_colour(colour))
            RoundedRectangle(pos=(px, py), size=(cell, cell), radius=[3])
            if count > 1:
                texture = _text_texture(str(count), round(cell * 0.7), tuple(theme.CUBE_TEXT.get(colour, theme.TEXT)))
                Color(1, 1, 1, 1)
                Rectangle(
                    texture=texture,
                    pos=(px + (cell - texture.width) / 2, py + (cell - texture.height) / 2),
                    size=texture.size,
                )

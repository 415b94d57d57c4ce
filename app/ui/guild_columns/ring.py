"""The ring of columns round the table: every player's columns in seating order on one circle,
the ones that score lit, each player's name at their part of the ring."""

from __future__ import annotations

import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.uix.widget import Widget

from app.ui import theme

def _text(text: str, size: float, colour: tuple[float, float, float, float]) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=True, color=colour)
    label.refresh()
    return label.texture


class RingView(Widget):
    """`rows`: each player's (name, heights left to right, which of them score), round the table."""

    def __init__(self, rows: list[tuple[str, list[int], list[bool]]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows = rows
        self.bind(pos=self._redraw, size=self._redraw)
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        count = sum(len(heights) for _name, heights, _flags in self.rows)
        if count == 0:
            return
        cx, cy = self.center
        radius = min(self.width, self.height) / 2 - theme.font(theme.FONT_SMALL) * 2.2
        inner = radius * 0.35
        step = 2 * math.pi / count
        tallest = max(max(heights) for _name, heights, _flags in self.rows if heights)
        bar = max(4.0, min(24.0, inner * step * 0.8))
        small = theme.font(theme.FONT_SMALL)
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Ellipse(pos=(cx - inner, cy - inner), size=(2 * inner, 2 * inner))
            index = 0
            for name, heights, flags in self.rows:
                first = index
                for height, scores in zip(heights, flags):
                    angle = math.pi / 2 - (index + 0.5) * step  # clockwise from the top
                    outer = inner + (radius - inner) * height / tallest
                    Color(*(theme.OK if scores else theme.DISABLED))
                    Line(points=[cx + inner * math.cos(angle), cy + inner * math.sin(angle),
                                 cx + outer * math.cos(angle), cy + outer * math.sin(angle)], width=bar / 2)
                    texture = _text(str(height), small * 0.8, theme.TEXT if scores else theme.TEXT_DIM)
                    tip = outer + small * 0.7
                    Color(1, 1, 1, 1)
                    Rectangle(texture=texture, size=texture.size,
                              pos=(cx + tip * math.cos(angle) - texture.width / 2,
                                   cy + tip * math.sin(angle) - texture.height / 2))
                    index += 1
                middle = math.pi / 2 - (first + index) / 2 * step
                texture = _text(name, small, theme.ACCENT)
                reach = radius + small * 1.4
                Color(1, 1, 1, 1)
                Rectangle(texture=texture, size=texture.size,
                          pos=(cx + reach * math.cos(middle) - texture.width / 2,
                               cy + reach * math.sin(middle) - texture.height / 2))
                Color(*theme.TEXT_DIM)  # where this player's part of the ring ends
                edge = math.pi / 2 - index * step
                Line(points=[cx + inner * 0.6 * math.cos(edge), cy + inner * 0.6 * math.sin(edge),
                             cx + radius * math.cos(edge), cy + radius * math.sin(edge)], width=1)

"""A horizontal bar chart drawn with Kivy graphics: one bar per row, stacked segments."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.uix.widget import Widget

from app.ui import theme

RGBA = tuple[float, float, float, float]

# The colours of a chart's parts (a legend names them in the same colour as words): light enough
# to read at 4.5:1 on the dark background and panels, and told apart by hue.
SERIES_COLOURS: tuple[RGBA, ...] = (theme.CHART_BLUE, theme.WARN, theme.OK_TEXT)


@dataclass(frozen=True)
class Bar:
    label: str
    colour: RGBA  # the name tag's colour (a player's colour)
    segments: tuple[tuple[float, RGBA], ...]  # (value, colour) left to right

    @property
    def total(self) -> float:
        return sum(max(0.0, v) for v, _c in self.segments)


def _texture(text: str, size: float, colour: RGBA) -> Any:
    label = CoreLabel(text=text, font_size=max(8, size), bold=True, color=colour)
    label.refresh()
    return label.texture


class BarChart(Widget):
    """Rows of stacked bars with the row's name on the left and its total on the right."""

    def __init__(self, bars: Sequence[Bar], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bars = list(bars)
        self.bind(pos=self._redraw, size=self._redraw)
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        if not self.bars or self.width < 20 or self.height < 20:
            return
        row_h = self.height / len(self.bars)
        font = min(theme.font(theme.FONT_NORMAL), row_h * 0.45)
        name_w = self.width * 0.24
        total_w = self.width * 0.1
        scale_w = self.width - name_w - total_w - 12
        longest = max((bar.total for bar in self.bars), default=0.0) or 1.0
        with self.canvas:
            for i, bar in enumerate(self.bars):
                y = self.y + self.height - (i + 1) * row_h  # not self.top: it may lag behind a move
                bar_h = min(row_h * 0.62, 56.0)
                bar_y = y + (row_h - bar_h) / 2
                Color(*bar.colour)
                Rectangle(pos=(self.x, bar_y), size=(8, bar_h))
                name = _texture(bar.label, font, theme.TEXT)
                Color(1, 1, 1, 1)
                Rectangle(texture=name, pos=(self.x + 14, y + (row_h - name.height) / 2),
                          size=(min(name.width, name_w - 16), name.height))
                x = self.x + name_w
                for value, colour in bar.segments:
                    if value <= 0:
                        continue
                    w = scale_w * value / longest
                    Color(*colour)
                    Rectangle(pos=(x, bar_y), size=(w, bar_h))
                    Color(*theme.BACKGROUND)
                    Line(rectangle=(x, bar_y, w, bar_h), width=1)
                    x += w
                total = _texture(f"{bar.total:g}", font, theme.TEXT)
                Color(1, 1, 1, 1)
                Rectangle(texture=total, pos=(x + 6, y + (row_h - total.height) / 2), size=total.size)

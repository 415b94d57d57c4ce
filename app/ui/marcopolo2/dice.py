"""A die in a Marco Polo II player colour (or black or white), drawn with its pips."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from app.ui import theme

RGBA = tuple[float, float, float, float]


def _hex(code: str) -> RGBA:
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255, 1.0)


DIE_FILL: dict[str, RGBA] = {
    "red": _hex("c62f2f"), "blue": _hex("2767c4"), "green": _hex("2f9448"), "yellow": _hex("efcf2a"),
    "purple": _hex("7d3fa6"), "orange": _hex("ee8123"), "black": _hex("111111"), "white": _hex("f4f4f4"),
}
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.27, 0.5), (0.27, 0.78), (0.73, 0.22), (0.73, 0.5), (0.73, 0.78)),
}


def fill_of(colour: str) -> RGBA:
    return DIE_FILL.get(colour, theme.TEXT_DIM)


def pips_on(fill: RGBA) -> RGBA:
    """Dark pips on a light die, light pips on a dark one."""
    return (0.07, 0.07, 0.07, 1.0) if 0.3 * fill[0] + 0.59 * fill[1] + 0.11 * fill[2] > 0.55 else theme.TEXT


class ColouredDie(ButtonBehavior, Widget):
    """One die; a tap calls `on_tap` (on the round pad: pick this die to correct it). Value 0 (not
    read for sure) shows '?'; `unsure` rings it as the camera's doubt, `selected` as the die the
    number keys now set, and `note` says under it why the camera doubts it."""

    def __init__(self, colour: str, value: int, on_tap: Callable[[], None] | None = None, tag: Any = None,
                 unsure: bool = False, selected: bool = False, note: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.colour = colour
        self.value = value
        self.tag = tag
        self.unsure = unsure
        self.selected = selected
        self.note = note
        self._question = Label(text="", bold=True)
        self._note = Label(text=note, font_size=theme.font(theme.FONT_SMALL), color=theme.TEXT)
        self.add_widget(self._question)
        self.add_widget(self._note)
        if on_tap is not None:
            self.bind(on_release=lambda *_a: on_tap())
        self.bind(pos=self._redraw, size=self._redraw)
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        note_h = theme.font(theme.FONT_SMALL) * 1.3 if self.note else 0.0
        side = max(8.0, min(self.width, self.height - note_h) * 0.9)
        x, y = self.center_x - side / 2, self.y + note_h + (self.height - note_h - side) / 2
        fill = fill_of(self.colour)
        ink = pips_on(fill)
        self.canvas.before.clear()
        with self.canvas.before:
            if self.selected:
                rim = max(4.0, side * 0.08)
                Color(*theme.TEXT)
                RoundedRectangle(pos=(x - rim, y - rim), size=(side + 2 * rim, side + 2 * rim), radius=[7 + rim])
            if self.unsure:
                Color(*theme.UNSURE)
                Line(rounded_rectangle=(x - 4, y - 4, side + 8, side + 8, 9), width=2.5)
            Color(*theme.CUBE_OUTLINE)
            RoundedRectangle(pos=(x - 1.5, y - 1.5), size=(side + 3, side + 3), radius=[7])
            Color(*fill)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[6])
            Color(*ink)
            r = side * 0.09
            for px, py in PIPS.get(self.value, ()):
                Ellipse(pos=(x + px * side - r, y + py * side - r), size=(2 * r, 2 * r))
        self._question.text = "" if self.value in PIPS else "?"
        self._question.color = ink
        self._question.font_size = side * 0.6
        self._question.pos, self._question.size = (x, y), (side, side)
        self._note.pos, self._note.size = (self.x, self.y), (self.width, note_h)

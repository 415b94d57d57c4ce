"""The wall as the table sees it: every player's disc in turn order, front of the wall first.

Discs that share a space stand together in one lighter frame, the top of the stack first, so the
table sees at a glance who acts next and who moves with whom; each disc carries its place in the
turn order. (Discs piled upright would be too low for legible names at 800x480.)
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import _
from app.ui.widgets import Panel, TextLabel

STRIP_HEIGHT = 26  # px: one row of discs, one line of small text
TEXT_INSET = 8  # px of a label's width its text may not use (TextLabel's text_size)


def text_width(text: str, font_size: float) -> float:
    """How wide `text` is drawn in bold at `font_size`."""
    return float(CoreLabel(font_size=font_size, bold=True).get_extents(text)[0])


class WallStrip(BoxLayout):
    """One box per occupied wall space, front first; `acting` (who acts now) is outlined."""

    def __init__(self, state: Any, acting: str | None, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", STRIP_HEIGHT)
        super().__init__(spacing=theme.GAP, **kwargs)
        self.order: list[str] = state.turn_order()
        title = _("Wall")
        self.add_widget(TextLabel(title, size=theme.FONT_SMALL, bold=True, color=theme.TEXT_DIM, size_hint_x=None,
                                  width=text_width(title, theme.font(theme.FONT_SMALL)) + TEXT_INSET + 2))
        for space in reversed(state.wall):
            if space:
                self.add_widget(self._stack(state, space, acting))

    def _stack(self, state: Any, space: list[str], acting: str | None) -> Widget:
        """A space's discs, top of the stack first, in one frame."""
        stack = Panel(padding=(2, 1) if len(space) > 1 else 0, spacing=2, size_hint_x=len(space),
                      bg=list(theme.TEXT_DIM if len(space) > 1 else theme.BACKGROUND))
        stack.stacked = len(space) > 1
        for colour in space:
            stack.add_widget(Disc(colour, state.player(colour).name, self.order.index(colour) + 1, colour == acting))
        return stack


class Disc(Panel):
    """A player's disc: turn place and name on the player's colour (the place alone where the name
    does not fit at the small font: the colour names the player); the acting one ringed."""

    def __init__(self, colour: str, name: str, place: int, acting: bool) -> None:
        super().__init__(bg=list(theme.player_colour(colour)), padding=(2, 0))
        self.colour, self.place, self.acting = colour, place, acting
        self.label = TextLabel(str(place), size=theme.FONT_SMALL, bold=True, color=theme.on_player_text(colour),
                               halign="center")
        self.label.texts = (f"{place} {name}", str(place))
        self.add_widget(self.label)
        self.label.bind(width=self._caption)
        if acting:
            with self.canvas.after:
                Color(*theme.TEXT)
                self._ring = Line(rectangle=(0, 0, 1, 1), width=2)
            self.bind(pos=self._draw_ring, size=self._draw_ring)

    def _caption(self, label: TextLabel, width: float) -> None:
        full, short = label.texts
        label.text = full if text_width(full, label.font_size) <= width - TEXT_INSET else short

    def _draw_ring(self, *_args: Any) -> None:
        self._ring.rectangle = (self.x + 1, self.y + 1, self.width - 2, self.height - 2)

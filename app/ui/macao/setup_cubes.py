"""Set-up cubes: each player puts 1 cube on sector 1 and 2 cubes of one colour on sector 2."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.games.macao import CUBE_COLOURS
from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.panel import PhasePanel
from app.ui.widgets import TextLabel, cube_button


class SetupCubesPanel(PhasePanel):
    """Two taps: the colour for sector 1, then the colour for sector 2 (sent at once)."""

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.one: str | None = None

    def build(self, expect: Any) -> Widget:
        who = expect.player
        root = BoxLayout(orientation="vertical", spacing=theme.GAP)
        roomy = self.screen.roomy()
        for title, field, chosen in (
            (_("1 cube on sector 1"), "one", self.one),
            (_("2 cubes on sector 2"), "two", None),
        ):
            root.add_widget(TextLabel(title, size=theme.FONT_NORMAL, size_hint_y=None, height=30))
            row = BoxLayout(spacing=theme.GAP, **theme.touch_row(roomy, 64, tallest=140))
            for colour in CUBE_COLOURS:
                # The chosen colour is rimmed (a bracketed name alone was hard to see across the table).
                row.add_widget(cube_button(colour, partial(self._pick, who, field, colour),
                                           text=translator.gettext(colour), outlined=chosen == colour,
                                           bold=chosen == colour, size=theme.FONT_SMALL, size_hint_y=1, group=field))
            root.add_widget(row)
        root.add_widget(Widget(size_hint_y=0.5 if roomy else 1))
        return root

    def _pick(self, who: str, field: str, colour: str) -> None:
        if field == "one":
            self.one = colour
            self.redraw()
            return
        if self.one is None:
            self.app.say(_("First choose the colour for sector 1."), "error")
            self.redraw()
            return
        self.app.act({"type": "setup_cubes", "player": who, "one": self.one, "two": colour})

"""The top bar's middle during the rounds: the round's number and its three parts, the current one
lit. The parts are a path to follow, not buttons; a tap on the bar shows the round so far (or the
last one, before this one has begun) on one screen."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from app.ui import theme
from app.ui.i18n import _
from app.ui.widgets import Panel, TextLabel, Tile

PARTS = ("cards", "dice", "actions")
UNDERLINE = 4  # px of the accent line under the current part


class RoundBar(Tile):
    """Round number and the round's parts; the current part in bold white over an accent line."""

    def __init__(self, round_number: int, current: str, **kwargs: Any) -> None:
        super().__init__(on_tap=self.show_round, spacing=3, bg=list(theme.PANEL), **kwargs)
        self.tag = ("round bar",)
        titles = {"cards": _("Cards"), "dice": _("Dice"), "actions": _("Actions")}
        self.add_widget(TextLabel(_("Round {n}").format(n=round_number), size=theme.FONT_LARGE, bold=True,
                                  size_hint_x=1.2, halign="center"))
        for part in PARTS:
            lit = part == current
            cell = BoxLayout(orientation="vertical")
            cell.add_widget(TextLabel(titles[part], size=theme.FONT_NORMAL, halign="center", bold=lit,
                                      color=theme.TEXT if lit else theme.TEXT_DIM))
            cell.add_widget(Panel(size_hint_y=None, height=UNDERLINE,
                                  bg=list(theme.ACCENT if lit else theme.PANEL)))
            self.add_widget(cell)

    def show_round(self) -> None:
        """The round's summary over the screen the bar sits in (the game screen's `show_over`)."""
        from app.ui.macao.round_summary import round_summary_view, round_to_show, summarise_round

        screen = self.parent
        while screen is not None and not hasattr(screen, "show_over"):
            screen = screen.parent
        if screen is None:
            return
        session = screen.app.session
        screen.show_over(round_summary_view(summarise_round(session, round_to_show(session))))

"""Game end: each player's card points and largest city group, entered with steppers."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import _
from app.ui.panels.base import PhasePanel
from app.ui.widgets import BigButton, Panel, PlayerBadge, TextLabel, stepper


class FinalPanel(PhasePanel):
    """One row per player still to enter; the entry goes to the rules with Save."""

    shows_players = False

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.entries: dict[str, list[int]] = {}

    def build(self, expect: Any) -> Widget:
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        head = BoxLayout(size_hint_y=None, height=24)
        for title in ("", _("Card points"), _("Largest city group"), ""):
            head.add_widget(TextLabel(title, size=theme.FONT_SMALL, color=theme.TEXT_DIM, halign="center"))
        root.add_widget(head)
        for player in self.state.players:
            row = Panel(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT + 8, padding=4)
            row.add_widget(PlayerBadge(player.colour, player.name))
            if player.final is not None:
                cards, group = player.final
                row.add_widget(TextLabel(str(cards), size=theme.FONT_LARGE, halign="center"))
                row.add_widget(TextLabel(str(group), size=theme.FONT_LARGE, halign="center"))
                row.add_widget(TextLabel(_("saved"), size=theme.FONT_SMALL, color=theme.OK, halign="center"))
            else:
                entry = self.entries.setdefault(player.colour, [0, 0])
                row.add_widget(stepper(entry[0], lambda n, e=entry: self._set(e, 0, n), low=0, high=99,
                                       key=f"{player.colour}:card_points"))
                row.add_widget(stepper(entry[1], lambda n, e=entry: self._set(e, 1, n), low=0, high=99,
                                       key=f"{player.colour}:city_group"))
                row.add_widget(BigButton(_("Save"), role="ok", tag=("save", player.colour),
                                         on_tap=lambda c=player.colour, e=entry: self._save(c, e)))
            root.add_widget(row)
        root.add_widget(Widget())
        return root

    def _set(self, entry: list[int], index: int, value: int) -> None:
        entry[index] = value
        self.redraw()

    def _save(self, colour: str, entry: list[int]) -> None:
        self.app.act({"type": "final", "player": colour, "card_points": entry[0], "city_group": entry[1]})

"""Game end: each player's card points and largest city group, entered on one number pad."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.panel import PhasePanel
from app.ui.pads import number_pad
from app.ui.widgets import BigButton, Panel, PlayerBadge, TextLabel, blocked_button

FIELDS = ("card_points", "city_group")
PAD_COLUMNS = 10
MAX_VALUE = 99


class FinalPanel(PhasePanel):
    """One row per player still to enter: tap a number on the pad for the lit field, which then
    moves on from card points to city group; the player's entry goes to the rules with Save.
    Card points are offered only where the rules core allows them (a player who activated no
    card has none): there the field is greyed and answers a tap with the core's reason."""

    shows_players = False
    spans_phase = True

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.entries: dict[str, list[int]] = {}
        self.field: tuple[str, int] | None = None  # (player colour, 0 card points | 1 city group)

    def _card_points(self, colour: str) -> Any:
        return self.app.session.options(colour).card_points

    def _open_fields(self) -> list[tuple[str, int]]:
        return [(p.colour, i) for p in self.state.players if p.final is None for i in range(len(FIELDS))
                if i > 0 or self._card_points(p.colour).ok]

    def build(self, expect: Any) -> Widget:
        open_fields = self._open_fields()
        if self.field not in open_fields:
            self.field = open_fields[0] if open_fields else None
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        head = BoxLayout(size_hint_y=None, height=44 if self.screen.narrow() else 24)  # two lines on a narrow panel
        for title in ("", _("Card points"), _("Largest city group"), ""):
            head.add_widget(TextLabel(title, size=theme.FONT_SMALL, color=theme.TEXT_DIM, halign="center"))
        root.add_widget(head)
        roomy = self.screen.roomy()
        for player in self.state.players:
            row = Panel(spacing=theme.GAP, padding=4, **theme.touch_row(roomy, theme.TOUCH_MIN + 8, tallest=88))
            row.add_widget(PlayerBadge(player.colour, player.name))
            if player.final is not None:
                cards, group = player.final
                row.add_widget(TextLabel(str(cards), size=theme.FONT_LARGE, halign="center"))
                row.add_widget(TextLabel(str(group), size=theme.FONT_LARGE, halign="center"))
                row.add_widget(TextLabel(_("saved"), size=theme.FONT_SMALL, color=theme.OK_TEXT, halign="center"))
            else:
                entry = self.entries.setdefault(player.colour, [0, 0])
                for index, name in enumerate(FIELDS):
                    lit = self.field == (player.colour, index)
                    allowed = self._card_points(player.colour) if index == 0 else None
                    if allowed is not None and not allowed.ok:
                        row.add_widget(blocked_button(str(entry[index]), translator.message(allowed.reason),
                                                      self._blocked, size=theme.FONT_LARGE, size_hint_y=1,
                                                      tag=(f"{player.colour}:{name}", "field")))
                        continue
                    row.add_widget(BigButton(str(entry[index]), role="selected" if lit else "normal",
                                             size=theme.FONT_LARGE, size_hint_y=1,
                                             tag=(f"{player.colour}:{name}", "field"),
                                             on_tap=partial(self._select, player.colour, index)))
                row.add_widget(BigButton(_("Save"), role="ok", tag=("save", player.colour), size_hint_y=1,
                                         on_tap=partial(self._save, player.colour, entry)))
            root.add_widget(row)
        if self.field is not None:
            colour, index = self.field
            value = self.entries.setdefault(colour, [0, 0])[index]
            # The same twenty keys (0-18 and "19+"): two rows of ten, or in portrait four of five.
            columns, rows = (PAD_COLUMNS // 2, 4) if self.screen.portrait() else (PAD_COLUMNS, 2)
            root.add_widget(number_pad(value, self._type, low=0, high=MAX_VALUE, key="final",
                                       width=columns, rows=rows, roomy=roomy))
        root.add_widget(Widget(size_hint_y=0.3 if roomy else 1))
        return root

    def _blocked(self, reason: str) -> None:
        self.app.say(reason, "error")

    def _select(self, colour: str, index: int) -> None:
        self.field = (colour, index)
        self.redraw()

    def _type(self, value: int) -> None:
        """The lit field gets the number; the next open field lights up (the "N+" key stays)."""
        assert self.field is not None
        colour, index = self.field
        entry = self.entries.setdefault(colour, [0, 0])
        stepping = value > entry[index] and value >= 2 * PAD_COLUMNS - 1
        entry[index] = value
        if not stepping and index + 1 < len(FIELDS):
            self.field = (colour, index + 1)
        self.redraw()

    def _save(self, colour: str, entry: list[int]) -> None:
        self.app.act({"type": "final", "player": colour, "card_points": entry[0], "city_group": entry[1]})

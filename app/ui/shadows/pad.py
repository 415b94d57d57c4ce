"""The Shadows of Macao score pad: the cash value of each gang member and each opened
establishment per player, and a reminder to play the round out once a gang is full."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from app.games.shadows import end_reminder
from app.ui import theme
from app.ui.i18n import N_, translator
from app.ui.sheet_pad import PadField, PadSeat, SheetPad, Value
from app.ui.widgets import TextLabel

FIELDS = (
    PadField("gang", N_("Gang members' cash"), 0, 999, many=7),
    PadField("establishments", N_("Establishments' cash"), 0, 999, many=10),
)


class ShadowsPad(BoxLayout):
    """The sheet of a Shadows of Macao game: `act(action)` records an entry (False: refused)."""

    def __init__(self, state: dict[str, Any], act: Callable[[dict[str, Any]], bool], portrait: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.act = act
        self.state = state
        self.reminder = TextLabel("", size=theme.FONT_SMALL, color=theme.WARN, size_hint_y=None, height=0)
        self.add_widget(self.reminder)
        seats = [PadSeat(p["name"], theme.PANEL_LIGHT) for p in state["players"]]
        self.pad = SheetPad(seats, FIELDS, self._value, self._save, portrait)
        self.add_widget(self.pad)
        self.update(state)

    def update(self, state: dict[str, Any], portrait: bool | None = None) -> None:
        """Show a new state (after an action or an undo), in a window turned (`portrait`) or not."""
        if portrait is not None:
            self.pad.portrait = portrait
        self.state = state
        reminder = end_reminder(state)
        self.reminder.text = translator.message(reminder) if reminder is not None else ""
        self.reminder.height = 30 if reminder is not None else 0
        self.pad.sync()

    def _value(self, player: str, key: str) -> Value:
        entry = next(p for p in self.state["players"] if p["name"] == player)
        return list(entry[key]) if key in entry else None

    def _save(self, player: str, key: str, value: Value) -> bool:
        return self.act({"type": key, "player": player, "values": value})

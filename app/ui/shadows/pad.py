"""The Shadows of Macao score pad: the cash value of each gang member and each opened
establishment per player, and a reminder to play the round out once a gang is full."""

from __future__ import annotations

from typing import Any

from kivy.uix.widget import Widget

from app.games.shadows import end_reminder
from app.ui import theme
from app.ui.i18n import N_, translator
from app.ui.sheet_pad import FieldsSheet, PadField, Value
from app.ui.widgets import TextLabel

FIELDS = (
    PadField("gang", N_("Gang members' cash"), 0, 999, many=7),
    PadField("establishments", N_("Establishments' cash"), 0, 999, many=10),
)


class ShadowsPad(FieldsSheet):
    """The sheet of a Shadows of Macao game, with the reminder to finish the round once it ends."""

    FIELDS = FIELDS

    def above(self) -> list[Widget]:
        self.reminder = TextLabel("", size=theme.FONT_SMALL, color=theme.WARN, size_hint_y=None, height=0)
        return [self.reminder]

    def shown(self, state: dict[str, Any]) -> None:
        reminder = end_reminder(state)
        self.reminder.text = translator.message(reminder) if reminder is not None else ""
        self.reminder.height = 30 if reminder is not None else 0

    def _save(self, player: str, key: str, value: Value) -> bool:
        return self.act({"type": key, "player": player, "values": value})

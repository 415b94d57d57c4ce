"""The ship-voyage score pad: coins earned and goods left for each player and voyage; a
voyage is recorded once both are typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from app.ui import theme
from app.ui.i18n import N_
from app.ui.sheet_pad import PadField, PadSeat, SheetPad, Value

FIELDS = (
    PadField("coins_1", N_("Voyage 1: coins"), 0, 999),
    PadField("goods_1", N_("Voyage 1: goods left"), 0, 12),
    PadField("coins_2", N_("Voyage 2: coins"), 0, 999),
    PadField("goods_2", N_("Voyage 2: goods left"), 0, 12),
)
SHEET_KEYS = {"coins": "coins", "goods": "goods_left"}


class VoyagePad(BoxLayout):
    """The sheet of a ship-voyage game: `act(action)` records an entry (False: refused).
    A typed half of a voyage waits on the pad until the other half is typed."""

    def __init__(self, state: dict[str, Any], act: Callable[[dict[str, Any]], bool], portrait: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.act = act
        self.state = state
        self.pending: dict[tuple[str, int], dict[str, int]] = {}
        seats = [PadSeat(p["name"], theme.PANEL_LIGHT) for p in state["players"]]
        self.pad = SheetPad(seats, FIELDS, self._value, self._save, portrait)
        self.add_widget(self.pad)
        self.update(state)

    def update(self, state: dict[str, Any], portrait: bool | None = None) -> None:
        """Show a new state (after an action or an undo), in a window turned (`portrait`) or not."""
        if portrait is not None:
            self.pad.portrait = portrait
        self.state = state
        self.pad.sync()

    def _value(self, player: str, key: str) -> Value:
        part, number = key.split("_")
        pending = self.pending.get((player, int(number)), {})
        if SHEET_KEYS[part] in pending:
            return pending[SHEET_KEYS[part]]
        rounds = next(p for p in self.state["players"] if p["name"] == player).get("rounds", [])
        return rounds[int(number) - 1][SHEET_KEYS[part]] if len(rounds) >= int(number) else None

    def _save(self, player: str, key: str, value: Value) -> bool:
        part, number = key.split("_")
        assert isinstance(value, int)
        voyage = {SHEET_KEYS[other]: self._value(player, f"{other}_{number}") for other in SHEET_KEYS}
        voyage[SHEET_KEYS[part]] = value
        if any(v is None for v in voyage.values()):
            self.pending[(player, int(number))] = {k: v for k, v in voyage.items() if v is not None}
            return True
        self.pending.pop((player, int(number)), None)
        if self.act({"type": "voyage", "player": player, "round": int(number), **voyage}):
            return True
        self.pending[(player, int(number))] = voyage  # refused: both halves stay typed for a fix
        return False

"""The ship-voyage score pad: coins earned and goods left for each player and voyage; a
voyage is recorded once both are typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.ui.i18n import N_
from app.ui.sheet_pad import FieldsSheet, PadField, Value

FIELDS = (
    PadField("coins_1", N_("Voyage 1: coins"), 0, 999),
    PadField("goods_1", N_("Voyage 1: goods left"), 0, 12),
    PadField("coins_2", N_("Voyage 2: coins"), 0, 999),
    PadField("goods_2", N_("Voyage 2: goods left"), 0, 12),
)
SHEET_KEYS = {"coins": "coins", "goods": "goods_left"}


class VoyagePad(FieldsSheet):
    """The sheet of a ship-voyage game: coins and goods left per voyage, sent once both are in."""

    FIELDS = FIELDS

    def __init__(self, state: dict[str, Any], act: Callable[[dict[str, Any]], bool], portrait: bool = False,
                 **kwargs: Any) -> None:
        self.pending: dict[tuple[str, int], dict[str, int]] = {}  # one half of a voyage typed so far
        super().__init__(state, act, portrait, **kwargs)

    def _value(self, player: str, key: str) -> Value:
        part, number = key.split("_")
        pending = self.pending.get((player, int(number)), {})
        if SHEET_KEYS[part] in pending:
            return pending[SHEET_KEYS[part]]
        rounds = next(p for p in self.state["players"] if p["name"] == player).get("rounds", [])
        return rounds[int(number) - 1][SHEET_KEYS[part]] if len(rounds) >= int(number) else None

    def _number(self, player: str, key: str) -> int | None:
        """A voyage field's value: a number, or None while not typed (never a list of dice)."""
        value = self._value(player, key)
        assert not isinstance(value, list)
        return value

    def _save(self, player: str, key: str, value: Value) -> bool:
        part, number = key.split("_")
        assert isinstance(value, int)
        voyage = {SHEET_KEYS[other]: self._number(player, f"{other}_{number}") for other in SHEET_KEYS}
        voyage[SHEET_KEYS[part]] = value
        typed = {k: v for k, v in voyage.items() if v is not None}
        if len(typed) < len(voyage):
            self.pending[(player, int(number))] = typed
            return True
        self.pending.pop((player, int(number)), None)
        if self.act({"type": "voyage", "player": player, "round": int(number), **typed}):
            return True
        self.pending[(player, int(number))] = typed  # refused: both halves stay typed for a fix
        return False

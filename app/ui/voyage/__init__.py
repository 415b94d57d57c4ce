"""The ship voyage's part of the touchscreen app: its set-up and the score pad for the two
voyages. The shell reaches it through `UI` (registered in app.ui.games)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.widget import Widget

from app.ui.sheet_game import SheetGameUi


class VoyageUi(SheetGameUi):
    game = "voyage"
    setup_screen = "voyage_setup"
    screens = {"voyage_setup": "app.ui.voyage.setup:VoyageSetupScreen"}
    demo = (("Ann", "Ben", "Cy"), (
        {"type": "voyage", "player": "Ann", "round": 1, "coins": 14, "goods_left": 3},
        {"type": "voyage", "player": "Ben", "round": 1, "coins": 8, "goods_left": 1},
        {"type": "voyage", "player": "Cy", "round": 1, "coins": 25, "goods_left": 5},
        {"type": "voyage", "player": "Ann", "round": 2, "coins": 9, "goods_left": 0},
        {"type": "voyage", "player": "Ben", "round": 2, "coins": 12, "goods_left": 2},
        {"type": "voyage", "player": "Cy", "round": 2, "coins": 0, "goods_left": 0},
    ))

    def make_pad(self, state: Any, act: Callable[[dict[str, Any]], bool], portrait: bool) -> Widget:
        from app.ui.voyage.pad import VoyagePad

        return VoyagePad(state, act, portrait)


UI = VoyageUi()

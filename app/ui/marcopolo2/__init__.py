"""Marco Polo II's part of the touchscreen app: its set-up with player colours, each round's
dice with the compensation owed, the end-scoring pad. The shell reaches it through `UI`
(registered in app.ui.games)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.widget import Widget

from app.ui.sheet_game import SheetGameUi


class MarcoPolo2Ui(SheetGameUi):
    game = "marcopolo2"
    setup_screen = "marcopolo2_setup"
    screens = {"marcopolo2_setup": "app.ui.marcopolo2.setup:MarcoPolo2SetupScreen"}

    def make_pad(self, state: Any, act: Callable[[dict[str, Any]], bool], portrait: bool) -> Widget:
        from app.ui.marcopolo2.pad import MarcoPolo2Pad

        return MarcoPolo2Pad(state, act, portrait)


UI = MarcoPolo2Ui()

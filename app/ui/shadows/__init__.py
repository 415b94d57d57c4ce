"""Shadows of Macao's part of the touchscreen app: its set-up and the score pad for gangs and
establishments. The shell reaches it through `UI` (registered in app.ui.games)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.widget import Widget

from app.ui.sheet_game import SheetGameUi


class ShadowsUi(SheetGameUi):
    game = "shadows"
    setup_screen = "shadows_setup"
    screens = {"shadows_setup": "app.ui.shadows.setup:ShadowsSetupScreen"}
    demo = (("Ann", "Ben", "Cy"), (
        {"type": "gang", "player": "Ann", "values": [3, 3]},
        {"type": "establishments", "player": "Ann", "values": [4]},
        {"type": "gang", "player": "Ben", "values": [2, 2, 2]},
        {"type": "establishments", "player": "Ben", "values": [4]},
        {"type": "gang", "player": "Cy", "values": [1, 1, 1, 1, 1, 1, 1]},
        {"type": "establishments", "player": "Cy", "values": []},
    ))

    def make_pad(self, state: Any, act: Callable[[dict[str, Any]], bool], portrait: bool) -> Widget:
        from app.ui.shadows.pad import ShadowsPad

        return ShadowsPad(state, act, portrait)


UI = ShadowsUi()

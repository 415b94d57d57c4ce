"""The guild-columns game's part of the touchscreen app: its set-up, the score pad on the game
screen, and the result with the ring of columns round the table.

The shell reaches it through `UI` (registered in app.ui.games).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.widget import Widget

from app.games.base import ScoreTable
from app.ui.sheet_game import SheetGameUi


class ColumnsUi(SheetGameUi):
    game = "guild_columns"
    setup_screen = "guild_columns_setup"
    screens = {"guild_columns_setup": "app.ui.guild_columns.setup:ColumnsSetupScreen"}
    demo = (("Ann", "Ben", "Cy", "Dee"), (
        {"type": "columns", "player": "Ann", "columns": [1, 6]},
        {"type": "columns", "player": "Ben", "columns": [6, 1, 3]},
        {"type": "columns", "player": "Cy", "columns": [2]},
        {"type": "columns", "player": "Dee", "columns": [5, 5]},
    ))

    def make_pad(self, state: Any, act: Callable[[dict[str, Any]], bool], portrait: bool) -> Widget:
        from app.ui.guild_columns.pad import ColumnsPad

        return ColumnsPad(state, act, portrait)

    def score_widgets(self, table: ScoreTable, roomy: bool, narrow: bool) -> list[Widget]:
        from app.ui.guild_columns.pad import ring_result

        return [ring_result(table, roomy)]


UI = ColumnsUi()

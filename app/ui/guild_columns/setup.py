"""A new guild-columns game: the players in seating order (the ring of columns follows it)."""

from __future__ import annotations

from app.ui.sheet_setup import SheetSetupScreen


class ColumnsSetupScreen(SheetSetupScreen):
    screen_name = "guild_columns_setup"
    game_id = "guild_columns"

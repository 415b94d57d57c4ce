"""A new Marco Polo II game: two to four players, each with a colour (their dice's colour)."""

from __future__ import annotations

from app.games.marcopolo2 import PLAYER_COLOURS
from app.ui.marcopolo2.dice import DIE_FILL
from app.ui.sheet_setup import SheetSetupScreen


class MarcoPolo2SetupScreen(SheetSetupScreen):
    screen_name = "marcopolo2_setup"
    game_id = "marcopolo2"
    colours = PLAYER_COLOURS
    fills = DIE_FILL

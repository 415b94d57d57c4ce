"""A new ship-voyage game: two to four players."""

from __future__ import annotations

from app.ui.sheet_setup import SheetSetupScreen


class VoyageSetupScreen(SheetSetupScreen):
    screen_name = "voyage_setup"
    game_id = "voyage"

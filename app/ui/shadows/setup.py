"""A new Shadows of Macao game: two to seven players."""

from __future__ import annotations

from app.ui.sheet_setup import SheetSetupScreen


class ShadowsSetupScreen(SheetSetupScreen):
    screen_name = "shadows_setup"
    game_id = "shadows"

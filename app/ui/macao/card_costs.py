"""Macao's "Card costs" row in Settings: a revealed card's cost is named by the cubes paid when it
is activated (one tap a card at reveal), or typed at reveal so the rules check every activation."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from app.ui import theme
from app.ui.games import SettingsSection
from app.ui.i18n import _
from app.ui.widgets import segmented


class CardCostSettings(SettingsSection):
    def __init__(self, screen: Any) -> None:
        self.screen = screen

    def title(self) -> str:
        return _("Card costs")

    def row(self) -> BoxLayout:
        app = self.screen.app
        chooser = segmented((False, True), app.context.settings.check_costs, self.choose,
                            labels={False: _("paid at activation"), True: _("typed at reveal")}, group="check_costs")
        for button in chooser.children:
            button.font_size = theme.font(theme.FONT_SMALL)
        return chooser

    def choose(self, check_costs: bool) -> None:
        app = self.screen.app
        app.apply_settings(replace(app.context.settings, check_costs=check_costs))

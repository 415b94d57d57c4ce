"""Macao's own Settings rows come from its UI package (app.ui.games), not from the shell's screen:
"Card costs" sits in Macao's section, and choosing there is applied and saved."""

from __future__ import annotations

from pathlib import Path

from app.ui.games import game_ui
from app.ui.settings_store import UiSettings
from tests.ui.harness import UiHarness

SHELL_SETTINGS = Path(__file__).resolve().parents[2] / "app" / "ui" / "screens" / "settings.py"


def test_card_costs_is_a_row_of_macao_s_section(ui: UiHarness) -> None:
    ui.app.go("settings")
    screen = ui.app.manager.get_screen("settings")
    titles = [section.title() for section in game_ui("macao").settings_sections(screen)]
    assert "Card costs" in titles
    assert "Card costs" not in SHELL_SETTINGS.read_text(encoding="utf-8")


def test_choosing_typed_at_reveal_in_settings_is_applied_and_saved(ui: UiHarness) -> None:
    ui.app.context.settings.check_costs = False
    ui.app.go("settings")
    ui.idle()
    ui.tap(ui.tagged("check_costs", True))
    assert ui.app.context.settings.check_costs is True
    saved, _problem = ui.app.context.settings_store.load(UiSettings())
    assert saved.check_costs is True
    ui.tap(ui.tagged("check_costs", False))
    assert ui.app.context.settings.check_costs is False

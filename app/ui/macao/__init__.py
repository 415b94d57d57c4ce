"""Macao's part of the touchscreen app: its set-up screen, the phase panels (cards, dice,
actions, game end), the windroses beside them and the final score's columns.

The shell reaches all of it through `UI` (registered in app.ui.games).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from kivy.uix.widget import Widget

from app.games.base import ScoreTable
from app.ui import theme
from app.ui.games import GameUi, PlayersView
from app.ui.i18n import _
from app.ui.widgets import PhaseBar, TextLabel

if TYPE_CHECKING:
    from app.ui.panel import PanelHost, PhasePanel

# Which part of the round each rules phase belongs to, for the phase bar.
ROUND_PART = {
    "reveal": "cards", "take_card": "cards",
    "roll": "dice", "choose_dice": "dice",
    "actions": "actions",
}


def panel_class(phase: str) -> type[PhasePanel]:
    from app.ui.macao.actions import ActionsPanel
    from app.ui.macao.cards import CardEntryPanel
    from app.ui.macao.dice import ChooseDicePanel, RollPanel
    from app.ui.macao.draft import SetupPickPanel, TakeCardPanel
    from app.ui.macao.final import FinalPanel
    from app.ui.macao.setup_cubes import SetupCubesPanel

    return {
        "setup_draw": CardEntryPanel, "reveal": CardEntryPanel,
        "setup_pick": SetupPickPanel, "take_card": TakeCardPanel,
        "setup_cubes": SetupCubesPanel,
        "roll": RollPanel, "choose_dice": ChooseDicePanel,
        "actions": ActionsPanel, "final": FinalPanel,
    }[phase]


class MacaoUi(GameUi):
    game = "macao"
    setup_screen = "macao_setup"
    screens = {"macao_setup": "app.ui.macao.setup:NewGameScreen"}

    def panel(self, host: PanelHost, state: Any) -> PhasePanel:
        return panel_class(state.phase)(host)

    def step_key(self, state: Any, actions: int) -> Hashable:
        if state.phase != "over" and panel_class(state.phase).spans_phase:
            return (state.phase,)
        return (state.phase, state.round, state.turn, actions)

    def phase_title(self, state: Any) -> Widget:
        part = ROUND_PART.get(state.phase)
        if part is not None:
            return PhaseBar(state.round, part)
        title = _("Set-up") if state.phase.startswith("setup") else _("Game end")
        return TextLabel(title, size=theme.FONT_LARGE, bold=True, halign="center")

    def players_view(self) -> PlayersView:
        from app.ui.macao.players import Windroses

        return Windroses()

    def score_widgets(self, table: ScoreTable, roomy: bool, narrow: bool) -> list[Widget]:
        from app.ui.macao.score_columns import score_widgets

        return score_widgets(table, roomy, narrow)


UI = MacaoUi()

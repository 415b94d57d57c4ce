"""Macao's part of the touchscreen app: its set-up screen, the phase panels (cards, dice,
actions, game end), the windroses beside them and the final score's columns.

The shell reaches all of it through `UI` (registered in app.ui.games).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.uix.widget import Widget

from app.games.base import ScoreTable
from app.ui import theme
from app.ui.games import GameUi, PlayersView, SettingsSection
from app.ui.i18n import N_, _
from app.ui.widgets import TextLabel

if TYPE_CHECKING:
    from app.ui.panel import PanelHost, PhasePanel

# Which part of the round each rules phase belongs to, for the round bar.
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
    corrections = (("gold", N_("Gold")), ("prestige", N_("Prestige")), ("punish", N_("Punish markers")))
    correction_prompt = N_("Correct gold, prestige or punish markers")

    def panel(self, host: PanelHost, state: Any) -> PhasePanel:
        return panel_class(state.phase)(host)

    def step_key(self, state: Any, actions: int) -> Hashable:
        if state.phase != "over" and panel_class(state.phase).spans_phase:
            return (state.phase,)
        return (state.phase, state.round, state.turn, actions)

    def phase_title(self, state: Any) -> Widget:
        part = ROUND_PART.get(state.phase)
        if part is not None:
            from app.ui.macao.round_bar import RoundBar

            return RoundBar(state.round, part)
        title = _("Set-up") if state.phase.startswith("setup") else _("Game end")
        return TextLabel(title, size=theme.FONT_LARGE, bold=True, halign="center")

    def players_view(self) -> PlayersView:
        from app.ui.macao.players import Windroses

        return Windroses()

    def summary_after(self, screen: Any, session: Any) -> Any:
        """The summary of the round the last action ended, with the first card's tribute pad
        when the next round's cards go in by their tribute."""
        from app.ui.macao.cards import CardEntryPanel
        from app.ui.macao.round_summary import round_just_ended, round_summary_view, summarise_round

        ended = round_just_ended(session)
        if ended is None or session.state.phase == "final":
            return None  # the last round leads to the final scoring, whose breakdown sums up the game
        panel = screen.current_panel()
        first_card = panel.tribute_pad() if isinstance(panel, CardEntryPanel) and not panel.check_costs else None
        return round_summary_view(summarise_round(session, ended), first_card)

    def score_widgets(self, table: ScoreTable, roomy: bool, narrow: bool) -> list[Widget]:
        from app.ui.macao.score_columns import score_widgets

        return score_widgets(table, roomy, narrow)

    def correction(self, player: str, amounts: dict[str, int], note: str) -> dict[str, Any]:
        return {"type": "adjust", "player": player, "note": note, **amounts}

    def prepare(self, context: Any, home: Path) -> list[Any]:
        """The learned card list, kept in `cards.json` beside the journal."""
        from app.ui.macao.catalogue import CardCatalogue

        context.catalogue = CardCatalogue(home / "cards.json")
        warning = context.catalogue.load()
        return [warning] if warning else []

    def settings_sections(self, screen: Any) -> list[SettingsSection]:
        from app.ui.macao.card_costs import CardCostSettings
        from app.ui.macao.card_list import CardListSettings

        return [CardCostSettings(screen), CardListSettings(screen)]

    def tour(self, tour: Any) -> Iterator[None]:
        from app.ui.macao.tour import MacaoTour

        return MacaoTour(tour).steps()


UI = MacaoUi()

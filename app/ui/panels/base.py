"""What a phase panel is: a little form that keeps its half-entered input across redraws."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.widget import Widget

if TYPE_CHECKING:
    from app.games.macao import GameState
    from app.ui.screens.game import GameScreen


class PhasePanel:
    """Builds the game screen's body for one phase; its attributes hold the table's input so far.

    The game screen keeps one panel per (phase, round, player) and rebuilds its
    widgets on every refresh, so nothing typed is lost when the screen redraws.
    """

    # Whether the players' windroses are shown beside this panel.
    shows_players = True

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.app = screen.app

    @property
    def state(self) -> GameState:
        return self.app.session.state

    def redraw(self) -> None:
        """Show the panel's input so far (the game itself has not changed)."""
        self.screen.redraw_panel()

    def build(self, expect: Any) -> Widget:
        raise NotImplementedError

    def name_of(self, colour: str | None) -> str:
        return self.state.player(colour).name if colour else ""

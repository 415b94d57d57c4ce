"""The end of the game: the winner and why, and the game's own breakdown (from its UI package).
Every number is the game's ScoreTable."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.games.base import ScoreTable
from app.ui import theme
from app.ui.export_buttons import export_buttons
from app.ui.games import game_ui
from app.ui.i18n import _, translator
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, Panel, TextLabel

def winner_text(table: ScoreTable) -> str:
    name = next((line.name for line in table.lines if line.player == table.winner), None)
    text = _("{name} wins.").format(name=name) if name is not None else ""
    if table.tie_break is not None:
        text = (text + " " + translator.message(table.tie_break)).strip()
    return text


class ScoreScreen(BaseScreen):
    screen_name = "score"

    def prepare(self, just_ended: bool = False, **_params: Any) -> None:
        """A game that `just_ended` in play may start the dice reader learning from the rolls
        kept (app.ui.reader_learning); the score screen says so."""
        game_id = self.app.session.game_id
        if not just_ended or game_id is None or self.app.context.dice is None:  # no camera: no rolls kept
            return
        if self.app.reader_learning.after_game(game_id):
            self.app.say(_("The dice reader is learning from the rolls kept so far; Settings says how it went."))

    def build(self, root: BoxLayout) -> None:
        session = self.app.session
        bar = Panel(size_hint_y=None, height=theme.TOP_BAR_HEIGHT, spacing=theme.GAP)
        bar.add_widget(BigButton(_("Menu"), on_tap=lambda: self.app.go("start"), size_hint=(None, 1), width=96))
        # On a narrow panel the winner's line below says what this screen is.
        bar.add_widget(Widget() if self.narrow() else TextLabel(_("Final score"), size=theme.FONT_LARGE, bold=True,
                                                                 halign="center"))
        bar.add_widget(BigButton(_("History"), on_tap=lambda: self.app.go("history"), size_hint=(None, 1), width=124))
        bar.add_widget(BigButton(_("Undo"), role="danger", on_tap=self.app.undo, disabled=not session.can_undo,
                                 size_hint=(None, 1), width=124))
        root.add_widget(bar)
        table = session.score()
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        body.add_widget(TextLabel(winner_text(table), size=theme.FONT_LARGE, bold=True,
                                  size_hint_y=None, height=64, halign="center"))
        for part in game_ui(table.game).score_widgets(table, self.roomy(), self.narrow()):
            body.add_widget(part)
        if self.roomy():
            body.add_widget(Widget())  # Export and New game stay at the bottom
        if self.app.notice.text:
            body.add_widget(TextLabel(self.app.notice.text, size=theme.FONT_SMALL, size_hint_y=None, height=26))
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        if session.game_id is not None:
            for button in export_buttons(self.app, session.game_id):
                row.add_widget(button)
            game_id = session.game_id
            row.add_widget(BigButton(_("Rematch"), role="ok", tag=("rematch", ""),
                                     on_tap=lambda: self.app.rematch(game_id)))
        row.add_widget(BigButton(_("New game"), role="accent", on_tap=lambda: self.app.go("new_game")))
        body.add_widget(row)
        root.add_widget(body)

"""New game: which game the table plays; its own set-up screen then asks who plays."""

from __future__ import annotations

from functools import partial

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games import game
from app.ui import theme
from app.ui.games import game_ui, playable_games
from app.ui.i18n import _, translator
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, TextLabel


class NewGameScreen(BaseScreen):
    screen_name = "new_game"

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("New game")))
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP * 2)
        body.add_widget(TextLabel(_("Which game does the table play?"), size=theme.FONT_NORMAL,
                                  size_hint_y=None, height=36))
        grid = GridLayout(cols=1 if self.portrait() else 2, spacing=theme.GAP * 2, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        tall = 104 if self.roomy() else 72
        for game_id in playable_games():
            grid.add_widget(BigButton(translator.message(game(game_id).title), role="accent",
                                      size=theme.FONT_LARGE, height=tall, tag=("game", game_id),
                                      on_tap=partial(self._set_up, game_id)))
        body.add_widget(grid)
        body.add_widget(Widget())
        root.add_widget(body)

    def _set_up(self, game_id: str) -> None:
        """The chosen game's set-up screen; its UI module is imported at the tap, not before."""
        self.app.go(game_ui(game_id).setup_screen)

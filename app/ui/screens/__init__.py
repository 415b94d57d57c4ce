"""The app's screens by name, each made the first time it is asked for.

A screen's module is imported only then: the camera check pulls in OpenCV and
numpy (some 40 MB), which a table without a camera never needs, and the first
screen comes up sooner.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from kivy.uix.screenmanager import Screen, ScreenManager

from app.ui.games import game_screen_class

SCREENS: dict[str, str] = {
    "start": "app.ui.screens.start:StartScreen",
    "new_game": "app.ui.screens.new_game:NewGameScreen",
    "game": "app.ui.screens.game:GameScreen",
    "history": "app.ui.screens.history:HistoryScreen",
    "score": "app.ui.screens.score:ScoreScreen",
    "past_games": "app.ui.screens.past_games:PastGamesScreen",
    "past_game": "app.ui.screens.past_games:PastGameScreen",
    "import_game": "app.ui.screens.import_game:ImportGameScreen",
    "settings": "app.ui.screens.settings:SettingsScreen",
    "camera": "app.ui.screens.camera:CameraScreen",
}


def screen_class(name: str) -> type[Screen]:
    """The class of a shell screen or of a game's own screen (KeyError for an unknown name)."""
    where = SCREENS.get(name) or game_screen_class(name)
    if where is None:
        raise KeyError(name)
    module, _, class_name = where.partition(":")
    return getattr(importlib.import_module(module), class_name)


class LazyScreenManager(ScreenManager):
    """A ScreenManager that makes a known screen on first use (`make(screen class)`), so
    `get_screen`, `current = name` and `app.go(name)` work for every name in SCREENS and
    every game's own screen."""

    def __init__(self, make: Callable[[type[Screen]], Screen], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._make = make

    def get_screen(self, name: str) -> Screen:
        if not self.has_screen(name) and (name in SCREENS or game_screen_class(name) is not None):
            self.add_widget(self._make(screen_class(name)))
        return super().get_screen(name)

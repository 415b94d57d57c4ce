"""The app's screens; `all_screens()` lists them for the screen manager."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen


def all_screens() -> list[type[Screen]]:
    from app.ui.screens.camera import CameraScreen
    from app.ui.screens.game import GameScreen
    from app.ui.screens.history import HistoryScreen
    from app.ui.screens.new_game import NewGameScreen
    from app.ui.screens.past_games import PastGameScreen, PastGamesScreen
    from app.ui.screens.score import ScoreScreen
    from app.ui.screens.settings import SettingsScreen
    from app.ui.screens.start import StartScreen

    return [StartScreen, NewGameScreen, GameScreen, HistoryScreen, ScoreScreen, PastGamesScreen,
            PastGameScreen, SettingsScreen, CameraScreen]

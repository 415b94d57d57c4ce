"""The game UIs: registered game id -> the UI package that shows it.

The shell (app, navigation, widgets, history, score, past games, settings,
camera check) finds a game's screens, phase panels, player view and score
breakdown here, so it never names a game. Adding a game's UI is one line in
GAME_UIS; its package is imported the first time it is asked for.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.games import all_games

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

    from app.games.base import ScoreTable
    from app.ui.panel import PanelHost, PhasePanel

GAME_UIS: dict[str, str] = {
    "macao": "app.ui.macao:UI",
    "marcopolo2": "app.ui.marcopolo2:UI",
    "shadows": "app.ui.shadows:UI",
    "guild_columns": "app.ui.guild_columns:UI",
    "voyage": "app.ui.voyage:UI",
}


class PlayersView(ABC):
    """The players beside the phase panel (e.g. each player's board), kept by the game screen
    across redraws so unchanged players are not drawn again."""

    @abstractmethod
    def build(self, state: Any, acting: str | None, portrait: bool) -> Widget:
        """Every player's part of the screen now; `acting` is outlined."""

    def header(self, state: Any, acting: str | None) -> Widget | None:
        """A one-line strip about all players (e.g. the turn order), shown over their part of the
        screen; None: nothing."""
        return None

    def release(self) -> None:
        """Forget what is kept for quick redraws (the screen lets go of its widgets)."""


class SettingsSection(ABC):
    """A game's own part of the Settings screen: a titled row, the result of its last use, and
    optionally a page of its own in place of the settings (set the screen's `choosing`)."""

    @abstractmethod
    def title(self) -> str:
        """The row's name, in the table's language."""

    @abstractmethod
    def row(self) -> Widget:
        """The row's controls."""

    def result(self) -> Widget | None:
        """What the last use of the row did, shown under the settings (None: nothing to say)."""
        return None

    def reset(self) -> None:
        """Forget the last result (the screen is entered again)."""

    def build_chooser(self, root: Widget) -> None:
        """The section's own page, while the screen's `choosing` is this section."""
        raise NotImplementedError

    def tour(self, tour: Any) -> Iterator[None]:
        """The section's pictures in the screenshot tour (app.ui.tour.Tour)."""
        return iter(())


class GameUi(ABC):
    """What a game's UI package offers the shell."""

    game: str  # the registered game's id
    setup_screen: str  # the screen that asks who plays, reached from New game
    screens: dict[str, str]  # the game's own screens: name -> "module:Class"
    # A table ruling the rules cannot check, logged from the History screen: the counters it
    # may change (action field, title marked with N_) and the button that opens the form.
    corrections: tuple[tuple[str, str], ...] = ()
    correction_prompt: str = ""

    @abstractmethod
    def panel(self, host: PanelHost, state: Any) -> PhasePanel:
        """A new phase panel for what the game waits for in `state`."""

    @abstractmethod
    def step_key(self, state: Any, actions: int) -> Hashable:
        """Equal keys keep the same panel (and the input typed into it); a new key makes a new one."""

    @abstractmethod
    def phase_title(self, state: Any) -> Widget:
        """The top bar's middle: where in the game the table is."""

    @abstractmethod
    def players_view(self) -> PlayersView:
        """A new view of the players for the game screen."""

    @abstractmethod
    def score_widgets(self, table: ScoreTable, roomy: bool, narrow: bool) -> list[Widget]:
        """The final score's breakdown (table, chart, legend...) for the score and past-game screens."""

    def summary_after(self, screen: Any, session: Any) -> Any:
        """What the game `screen` shows once over itself after the action just made (e.g. the
        summary of the round it ended): a ModalView ready to open, or None."""
        return None

    def correction(self, player: str, amounts: dict[str, int], note: str) -> dict[str, Any]:
        """The action that logs a correction of `player`'s counters (only changed ones in `amounts`)."""
        raise NotImplementedError

    def prepare(self, context: Any, home: Path) -> list[Any]:
        """Open what the game keeps beside the journal (e.g. a learned card list) into the app's
        context; returns start-up warnings (Message, PlayerNotice or text)."""
        return []

    def settings_sections(self, screen: Any) -> list[SettingsSection]:
        """The game's own rows on the Settings screen."""
        return []

    def tour(self, tour: Any) -> Iterator[None]:
        """The game's part of the screenshot tour (app.ui.tour.Tour): set up, play and score a game."""
        return iter(())


@cache
def game_ui(game_id: str) -> GameUi:
    """The UI of a registered game (LookupError when it has none)."""
    if game_id not in GAME_UIS:
        raise LookupError(f"the game {game_id!r} has no touchscreen UI")
    module, _, name = GAME_UIS[game_id].partition(":")
    found: GameUi = getattr(importlib.import_module(module), name)
    return found


def playable_games() -> list[str]:
    """The registered games that have a UI, in registry order (what New game offers)."""
    return [g.id for g in all_games() if g.id in GAME_UIS]


def game_screen_class(name: str) -> str | None:
    """Where a game's own screen lives ("module:Class"), or None if no game has one by that name."""
    for game_id in GAME_UIS:
        found = game_ui(game_id).screens.get(name)
        if found is not None:
            return found
    return None

"""What the score-sheet games' UI packages share: a panel that hosts a game's score pad on the
game screen for the whole game, the top bar's progress line, and the score breakdown."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from kivy.uix.widget import Widget

from app.games import game
from app.games.base import ScoreTable
from app.ui import theme
from app.ui.games import GameUi, PlayersView
from app.ui.i18n import translator
from app.ui.panel import PanelHost, PhasePanel
from app.ui.sheet_pad import breakdown_grid
from app.ui.widgets import TextLabel

# A game's pad: made from the state, a way to act (True when the action was taken) and portrait or not.
PadMaker = Callable[[Any, Callable[[dict[str, Any]], bool], bool], Widget]


class SheetPanel(PhasePanel):
    """The score pad for the whole game: it keeps the lit field and the typed number across the
    actions it sends, and is shown the new state after each one (or after an undo)."""

    shows_players = False  # the pad lists the players itself
    spans_phase = True

    def __init__(self, screen: PanelHost, make_pad: PadMaker) -> None:
        super().__init__(screen)
        self.make_pad = make_pad
        self.pad: Any = None

    def build(self, expect: Any) -> Widget:
        if self.pad is None:
            self.pad = self.make_pad(self.state, self.app.act, self.screen.portrait())
            if hasattr(self.pad, "link_dice"):  # a pad that takes the camera's dice
                self.pad.link_dice(self.app.context.dice)
        else:
            if self.pad.parent is not None:
                self.pad.parent.remove_widget(self.pad)
            self.pad.update(self.state, self.screen.portrait())
        return self.pad


    def on_status(self, status: Any) -> None:
        """The dice station's news, for a pad that reads the camera's dice."""
        if hasattr(self.pad, "on_status"):
            self.pad.on_status(status)

    def on_roll_button(self) -> None:
        """The roll button or space bar, for a pad that reads the camera's dice."""
        if hasattr(self.pad, "on_roll_button"):
            self.pad.on_roll_button()


class NoPlayersView(PlayersView):
    """Sheet games show their players on the pad, not beside it."""

    def build(self, state: Any, acting: str | None, portrait: bool) -> Widget:
        return Widget()


class SheetGameUi(GameUi):
    """A sheet game's UI: its set-up screen, its pad on the game screen, the breakdown at the end.

    `demo` is a small game for the screenshot tour: the players' names (in seating order) and
    the actions that fill the sheet in.
    """

    demo: tuple[tuple[str, ...], tuple[dict[str, Any], ...]] = ((), ())

    def make_pad(self, state: Any, act: Callable[[dict[str, Any]], bool], portrait: bool) -> Widget:
        raise NotImplementedError

    def panel(self, host: PanelHost, state: Any) -> PhasePanel:
        return SheetPanel(host, self.make_pad)

    def step_key(self, state: Any, actions: int) -> Hashable:
        return ("sheet",)  # one panel for the whole game

    def phase_title(self, state: Any) -> Widget:
        label = game(self.game).progress(state).label
        return TextLabel(translator.message(label), size=theme.FONT_LARGE, bold=True, halign="center")

    def players_view(self) -> PlayersView:
        return NoPlayersView()

    def score_widgets(self, table: ScoreTable, roomy: bool, narrow: bool) -> list[Widget]:
        return [breakdown_grid(table, roomy=roomy)]

    def tour(self, tour: Any) -> Iterator[None]:
        """The set-up with the demo's names, the pad half filled in, the final score."""
        names, actions = self.demo
        app = tour.app
        app.go(self.setup_screen)
        setup = app.manager.get_screen(self.setup_screen)
        setup.names[:len(names)] = list(names)
        setup.refresh()
        yield from tour.shot(f"{self.game}-setup")
        setup.start()
        half = len(actions) // 2
        yield from self.tour_play(tour, actions[:half])
        yield from tour.shot(f"{self.game}-entry")
        yield from self.tour_play(tour, actions[half:])
        app.go("score")
        yield from tour.shot(f"{self.game}-score", all_sizes=True)

    @staticmethod
    def tour_play(tour: Any, actions: Sequence[dict[str, Any]]) -> Iterator[None]:
        for action in actions:
            if not tour.app.act(dict(action)):
                raise RuntimeError(f"the app refused the demo's action: {tour.app.notice.text}")
        tour.app.go("game")
        yield

"""What a phase panel is: a little form that keeps its half-entered input across redraws."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol

from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import translator


class PanelHost(Protocol):
    """The screen a panel sits in: the app, a way to redraw just the panel, and the window's
    shape that the panel's layout follows (the screen's answers, so every panel agrees)."""

    app: Any

    def redraw_panel(self) -> None: ...

    def portrait(self) -> bool: ...

    def roomy(self) -> bool: ...

    def narrow(self) -> bool: ...

    def tall_portrait(self) -> bool: ...


class PhasePanel:
    """Builds the game screen's body for one phase; its attributes hold the table's input so far.

    The game screen keeps one panel per (phase, round, player) and rebuilds its
    widgets on every refresh, so nothing typed is lost when the screen redraws.
    """

    # Whether the players' windroses are shown beside this panel.
    shows_players = True
    # Whether one panel serves its whole phase, keeping input across the actions it sends
    # (the game end: one player's saved scores must not wipe another's half-typed ones).
    spans_phase = False

    def __init__(self, screen: PanelHost) -> None:
        self.screen = screen
        self.app = screen.app
        self._memo: dict[str, tuple[Hashable, Widget]] = {}

    def memo(self, name: str, key: Hashable, build: Callable[[], Widget]) -> Widget:
        """The widget built last time for `name` if its `key` is unchanged, else a new one.

        Redraws after every tap stay quick on a Pi: only the parts whose input
        changed are made again (making Kivy labels is the costly part).
        """
        full_key = (key, translator.language, theme.text_scale.factor)
        cached = self._memo.get(name)
        if cached is not None and cached[0] == full_key:
            widget = cached[1]
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            return widget
        widget = build()
        self._memo[name] = (full_key, widget)
        return widget

    @property
    def state(self) -> Any:
        return self.app.session.state

    def redraw(self) -> None:
        """Show the panel's input so far (the game itself has not changed)."""
        self.screen.redraw_panel()

    def build(self, expect: Any) -> Widget:
        raise NotImplementedError

    def question(self) -> str:
        """What the panel asks in the prompt strip instead of the game's prompt (nothing here)."""
        return ""

    def name_of(self, colour: str | None) -> str:
        return self.state.player(colour).name if colour else ""

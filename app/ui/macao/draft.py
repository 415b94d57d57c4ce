"""Taking cards: the set-up pick, and each round's draft in wall order with the sixth-card prompt."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.base import RecordError, RulesError
from app.games.macao import apply_action
from app.ui import theme
from app.ui.i18n import _
from app.ui.panel import PhasePanel
from app.ui.macao.card_tile import card_tile
from app.ui.widgets import BigButton, TextLabel


def _grid(tall_portrait: bool) -> GridLayout:
    """Three columns of card tiles; two on a tall portrait window. A 480x800 panel keeps three:
    in two columns its three rows of tiles were too low for a card and ran into each other."""
    return GridLayout(cols=2 if tall_portrait else 3, spacing=theme.GAP)


class SetupPickPanel(PhasePanel):
    """The player whose turn it is takes one of the set-up cards (one tap)."""

    def build(self, expect: Any) -> Widget:
        who = expect.player
        root = BoxLayout(orientation="vertical", spacing=theme.GAP)
        grid = _grid(self.screen.tall_portrait())
        for i, card in enumerate(self.state.setup_cards):
            grid.add_widget(card_tile(card, partial(self._pick, who, i) if card is not None else None,
                                      note=_("taken") if card is None else "", tag=("card", i)))
        root.add_widget(grid)
        return root

    def _pick(self, who: str, index: int) -> None:
        self.app.act({"type": "setup_pick", "player": who, "card": index})


class TakeCardPanel(PhasePanel):
    """One card each in wall order; a sixth tableau card asks which card to discard."""

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.pending: int | None = None  # the chosen card while the discard prompt is open

    def build(self, expect: Any) -> Widget:
        who = expect.player
        root = BoxLayout(orientation="vertical", spacing=theme.GAP)
        if self.pending is not None:
            return self._discard_prompt(root, who)
        price, gain = self.state.tribute
        root.add_widget(TextLabel(_("Tribute this round: {gold} gold buys {prestige} prestige").format(gold=price, prestige=gain),
                                  size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=24))
        grid = _grid(self.screen.tall_portrait())
        for i, card in enumerate(self.state.revealed):
            grid.add_widget(card_tile(card, partial(self._take, who, i) if card is not None else None,
                                      note=_("gone") if card is None else "", tag=("card", i)))
        root.add_widget(grid)
        return root

    def _take(self, who: str, index: int) -> None:
        action = {"type": "take_card", "player": who, "card": index}
        try:
            apply_action(self.state, action)
        except (RulesError, RecordError):
            if self._needs_discard(action):
                self.pending = index
                self.redraw()
                return
        self.app.act(action)

    def _needs_discard(self, action: dict[str, Any]) -> bool:
        """Ask the rules whether the same take goes through with a discard (the tableau is full)."""
        try:
            apply_action(self.state, {**action, "discard": len(self.state.player(action["player"]).tableau)})
        except (RulesError, RecordError):
            return False
        return True

    def _discard_prompt(self, root: BoxLayout, who: str) -> Widget:
        assert self.pending is not None
        chosen = self.state.revealed[self.pending]
        cards = list(self.state.player(who).tableau) + [chosen]
        grid = _grid(self.screen.tall_portrait())
        for i, card in enumerate(cards):
            grid.add_widget(card_tile(card, partial(self._discard, who, i), tag=("discard", i),
                                      note=_("new card") if i == len(cards) - 1 else ""))
        root.add_widget(grid)
        root.add_widget(BigButton(_("Cancel: choose another card"), on_tap=self._cancel))
        return root

    def question(self) -> str:
        """The discard question takes the prompt strip's place: under the game's own prompt
        ("take one of the open cards") it read as a second, other instruction."""
        if self.pending is None:
            return ""
        return _("{name}: the tableau is full. Which card goes? (punish marker)").format(
            name=self.name_of(self.app.session.waiting_for().player))

    def _discard(self, who: str, discard: int) -> None:
        index = self.pending
        self.pending = None
        self.app.act({"type": "take_card", "player": who, "card": index, "discard": discard})

    def _cancel(self) -> None:
        self.pending = None
        self.redraw()

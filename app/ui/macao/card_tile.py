"""A card as a tappable tile: name, kind, cost cubes and tribute numbers."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.widgets import CubeRow, TextLabel, Tile

GOLD_HEX = "f5d92e"
PRESTIGE_HEX = "ff8a80"
# The name the card form gives a card the table did not name: kind, round and place ("Office 3.1").
FALLBACK_NAME = re.compile(r"(?:Office|Building|Person) (\d+)\.\d+")


def card_title(name: str) -> str:
    """A card's name as the table knows it: a name given at the table as it is; one the card form
    gave a card without a name, as the round the card came from (round 0: the starting pick)."""
    fallback = FALLBACK_NAME.fullmatch(name)
    if fallback is None:
        return name
    number = int(fallback.group(1))
    return _("card from round {n}").format(n=number) if number > 0 else _("starting card")


def tribute_label(gold: int, prestige: int) -> TextLabel:
    """The card's two tribute numbers in the colours printed on it (gold yellow, prestige red)."""
    text = "[color={g}]{gold} {gold_word}[/color]  [color={p}]{prestige} {prestige_word}[/color]".format(
        g=GOLD_HEX, p=PRESTIGE_HEX, gold=gold, prestige=prestige,
        gold_word=_("gold"), prestige_word=_("prest."))
    return TextLabel(text, size=theme.FONT_SMALL, bold=True, markup=True, size_hint_y=None, height=22)


def card_tile(card: Any, on_tap: Callable[[], None] | None, lit: bool = False, note: str = "", **kwargs: Any) -> Tile:
    """`card` is a core Card; None shows an empty place with `note` (taken, discarded)."""
    tile = Tile(on_tap=on_tap, orientation="vertical", padding=6, spacing=2,
                bg=list(theme.LIT if lit else theme.PANEL_LIGHT if card is not None else theme.PANEL), **kwargs)
    if card is None:
        tile.add_widget(TextLabel(note, size=theme.FONT_SMALL, color=theme.TEXT_DIM, halign="center"))
        return tile
    tile.add_widget(Widget())  # with the one at the end: spare height above and below, the card in the middle
    tile.add_widget(TextLabel(card.name, size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=26))
    # A note shares the kind's line: a line of its own ran the tile past its top at 800x480.
    kind = translator.gettext(card.kind) + (f"  [color={theme.WARN_HEX}]{escape_markup(note)}[/color]" if note else "")
    tile.add_widget(TextLabel(kind, size=theme.FONT_SMALL, color=theme.TEXT_DIM, markup=True, size_hint_y=None,
                              height=20))
    tile.add_widget(CubeRow(list(card.cost or ()), cube_size=26))  # no cost yet: entered when activated
    tile.add_widget(tribute_label(*card.tribute))
    tile.add_widget(Widget())
    return tile

"""Macao's players beside the phase panel: the wall strip over them (every disc in turn order), and
each player's windrose with gold, prestige, punish markers and cards (waiting and activated) and the
total were the game to end now. Panels keep their seats when the wall order changes (the strip
shows the order); the acting player is outlined; tapping a panel opens the player's sheet."""

from __future__ import annotations

import json
import re
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.macao import score_if_ended_now
from app.ui import theme
from app.ui.games import PlayersView
from app.ui.i18n import _, ngettext, translator
from app.ui.macao.player_sheet import player_sheet
from app.ui.macao.wall_strip import WallStrip
from app.ui.macao.windrose import WindroseWidget
from app.ui.widgets import Panel, TextLabel, Tile

# A player cell's height above its rose when the counters stand over it (badge and counter rows).
STACKED_HEADER = 92
COUNTER_MIN_WIDTH = 96  # px a counter such as "12 prestige" needs at the small font ...
COUNTER_MIN_HEIGHT = 18  # ... and its line's height
LABEL_INSET = 8  # px of a label's width its text may not use (TextLabel's text_size)
MARKUP_TAG = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")
CELL_CHROME = 40  # px of a player cell's height taken by its padding and name badge
CELL_PADDING = 20  # px of a player cell's width around its counters (cell and counters' padding, spacing)


class Windroses(PlayersView):
    """The wall strip and every player's rose and counters; the cells of players an action did not
    change are reused."""

    def __init__(self) -> None:
        self.roses: dict[str, WindroseWidget] = {}
        self.sheet: Any = None  # the player sheet open now, if any
        self._state: Any = None
        self._last_phase = ""
        self._cells: dict[str, tuple[Any, Widget, WindroseWidget]] = {}

    def release(self) -> None:
        self._cells = {}
        self.roses = {}

    def build(self, state: Any, acting: str | None, portrait: bool) -> Widget:
        self._state = state
        grid = GridLayout(cols=2 if portrait else 1, spacing=theme.GAP)
        # The roses turn when the dice have been chosen: animate that moment once.
        turning = self._last_phase == "choose_dice" and state.phase == "actions"
        self._last_phase = state.phase
        self.roses = {}
        totals = score_if_ended_now(state)
        for player in state.players:  # in their seats: a panel never moves when the wall order does
            colour = player.colour
            # Most actions change one player: the others' cells are reused as they are.
            key = (json.dumps(player.to_json(), sort_keys=True, default=str), colour == acting, totals[colour],
                   translator.language, theme.text_scale.factor)
            cached = self._cells.get(colour)
            if cached is not None and cached[0] == key and not turning:
                cell, rose = cached[1], cached[2]
                if cell.parent is not None:
                    cell.parent.remove_widget(cell)
            else:
                cell, rose = _player_cell(player, colour == acting, totals[colour],
                                          lambda c=colour: self.open_sheet(c))
                if turning:
                    rose.turn(player.windrose)
                self._cells[colour] = (key, cell, rose)
            self.roses[colour] = rose
            grid.add_widget(cell)
        return grid

    def header(self, state: Any, acting: str | None) -> Widget:
        return WallStrip(state, acting)

    def open_sheet(self, colour: str) -> None:
        """The player's sheet over the screen, as the game stands now."""
        self.sheet = player_sheet(self._state, colour)
        self.sheet.open(animation=False)


def _player_cell(player: Any, acting: bool, total: int, on_tap: Any) -> tuple[Widget, WindroseWidget]:
    """A player's panel: name and live total on the badge, counters, rose; a tap opens the sheet."""
    colour = player.colour
    cell = Tile(on_tap=on_tap, orientation="horizontal", padding=4, spacing=4,
                bg=list(theme.player_colour(colour) if acting else theme.PANEL))
    cell.sheet_of = colour
    info = Panel(orientation="vertical", padding=(4, 2), bg=list(theme.PANEL))
    badge = Panel(bg=list(theme.player_colour(colour)), size_hint_y=None, height=28, padding=(6, 0))
    badge.add_widget(TextLabel(player.name, size=theme.FONT_NORMAL, bold=True, color=theme.on_player_text(colour)))
    # The total were the game to end now (the rules core's): a number with an equals sign, its
    # meaning on the player's sheet. On the badge, or under the counters where the badge is narrow.
    text = f"= {total}"
    live = TextLabel(text, size=theme.FONT_NORMAL, bold=True, halign="right", size_hint_x=None,
                     color=theme.on_player_text(colour),
                     width=_text_width(text, theme.font(theme.FONT_NORMAL)) + LABEL_INSET + 2)
    live.live_total = total
    badge.add_widget(live)
    info.add_widget(badge)
    counters = GridLayout(cols=2)
    # Cards: waiting on the tableau / activated; a narrow column shows those waiting only.
    waiting, active = len(player.tableau), len(player.activated)
    cards = ngettext("card", "cards", waiting)
    for value, caption, short_value, short, tint in (
        (player.gold, _("gold"), player.gold, _("gold"), "f5d92e"),
        (player.prestige, _("prestige"), player.prestige, _("prest."), "f2f2f2"),
        (player.punish, _("punish"), player.punish, _("pun."), "ff8a80"),
        (f"{waiting}/{active}", cards, waiting, cards, "f2f2f2"),
    ):
        number, short_number = (f"[b][color={tint}]{v}[/color][/b] " for v in (value, short_value))
        label = TextLabel(number + caption, size=theme.FONT_SMALL, markup=True, color=theme.TEXT_DIM)
        label.captions = (number + caption, short_number + short)  # the short one for a narrow column
        counters.add_widget(label)
    info.add_widget(counters)
    cell.add_widget(info)
    rose = WindroseWidget(colour, player.windrose, size_hint_x=None)
    cell.add_widget(rose)
    name_width = _text_width(player.name, theme.font(theme.FONT_NORMAL)) + LABEL_INSET

    def arrange(*_args: Any) -> None:
        _arrange_cell(cell, info, counters, rose, cell.width, cell.height)
        _place_total(badge, counters, live, colour, name_width)

    cell.bind(size=arrange)
    badge.bind(width=lambda *_a: _place_total(badge, counters, live, colour, name_width))
    return cell, rose


def _place_total(badge: Panel, counters: GridLayout, live: TextLabel, colour: str, name_width: float) -> None:
    """The live total on the badge beside the name where both fit; else (a tall, narrow panel, as two
    players in landscape) one more line under the counters, which has room there."""
    on_badge_width = _text_width(live.text, theme.font(theme.FONT_NORMAL)) + LABEL_INSET + 2
    fits = badge.width - badge.padding[0] - badge.padding[2] >= name_width + on_badge_width
    home = badge if fits or counters.cols > 1 else counters
    if live.parent is home:
        return
    if live.parent is not None:
        live.parent.remove_widget(live)
    on_badge = home is badge
    live.font_size = theme.font(theme.FONT_NORMAL)
    live.color = theme.on_player_text(colour) if on_badge else theme.TEXT
    live.halign = "right" if on_badge else "left"
    live.size_hint_x = None if on_badge else 1
    if on_badge:  # back from the counters' grid, which gave it a column's width
        live.width = on_badge_width
    home.add_widget(live)


def _arrange_cell(cell: Panel, info: Widget, counters: GridLayout, rose: WindroseWidget,
                  width: float, height: float) -> None:
    """Lay a player's cell out the way that gives the bigger rose: beside the counters (a wide
    cell, as in landscape) or under them (a tall one, as two players in portrait)."""
    beside = max(40.0, min(height - 8, width * 0.55))  # leaves the counters at least 45% of the width
    under = min(width - 8, height - STACKED_HEADER)
    if under > beside:
        cell.orientation = "vertical"
        info.size_hint_y, info.height = None, STACKED_HEADER - 8
        counters.cols = 4 if width > 420 else 2
        _counter_font(counters, theme.FONT_NORMAL)
        _counter_captions(counters, (width - CELL_PADDING) / counters.cols)
        rose.size_hint = (1, 1)
        return
    cell.orientation = "horizontal"
    info.size_hint_y = 1
    # Tall cells list the counters one per line, and so do narrow ones with room for four lines
    # (four players on a portrait panel), where two side by side would be cut short; others
    # pack them two by two.
    narrow = width - beside < 2 * COUNTER_MIN_WIDTH and height - CELL_CHROME >= 4 * COUNTER_MIN_HEIGHT
    counters.cols = 1 if height > 150 or narrow else 2
    _counter_font(counters, theme.FONT_SMALL)
    _counter_captions(counters, (width - beside - CELL_PADDING) / counters.cols)
    rose.size_hint = (None, 1)
    rose.width = beside


def _counter_captions(counters: GridLayout, column_width: float) -> None:
    """Full captions where a column holds the whole text ('12 prestige', '0 Strafmarker'), else
    the short ones ('12 prest.'): measured, since German words run longer than English ones."""
    for label in counters.children:
        if not hasattr(label, "captions"):  # the live total, when it stands under the counters
            continue
        full = label.captions[0]
        label.text = full if _text_width(full, label.font_size) <= column_width - LABEL_INSET else label.captions[1]


def _text_width(markup: str, font_size: float) -> float:
    """The width of a counter's text drawn bold (its number is, and bold is the wider)."""
    core = CoreLabel(font_size=font_size, bold=True)
    return float(core.get_extents(MARKUP_TAG.sub("", markup))[0])


def _counter_font(counters: GridLayout, base: int) -> None:
    """The counters' text size: larger where they stand over a big rose."""
    for label in counters.children:
        label.font_size = theme.font(base)

"""Macao's players beside the phase panel: each player's windrose with gold, prestige, punish
markers and cards, in wall order, the acting player outlined."""

from __future__ import annotations

import json
from typing import Any

from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.games import PlayersView
from app.ui.i18n import _, ngettext, translator
from app.ui.macao.windrose import WindroseWidget
from app.ui.widgets import Panel, TextLabel

# A player cell's height above its rose when the counters stand over it (badge and counter rows).
STACKED_HEADER = 92
COUNTER_MIN_WIDTH = 96  # px a counter such as "12 prestige" needs at the small font ...
COUNTER_MIN_HEIGHT = 18  # ... and its line's height
CELL_CHROME = 40  # px of a player cell's height taken by its padding and name badge
CELL_PADDING = 20  # px of a player cell's width around its counters (cell and counters' padding, spacing)


class Windroses(PlayersView):
    """Every player's rose and counters; the cells of players an action did not change are reused."""

    def __init__(self) -> None:
        self.roses: dict[str, WindroseWidget] = {}
        self._last_phase = ""
        self._cells: dict[str, tuple[Any, Widget, WindroseWidget]] = {}

    def release(self) -> None:
        self._cells = {}
        self.roses = {}

    def build(self, state: Any, acting: str | None, portrait: bool) -> Widget:
        order = state.turn_order()
        grid = GridLayout(cols=2 if portrait else 1, spacing=theme.GAP)
        # The roses turn when the dice have been chosen: animate that moment once.
        turning = self._last_phase == "choose_dice" and state.phase == "actions"
        self._last_phase = state.phase
        self.roses = {}
        for colour in order:
            player = state.player(colour)
            # Most actions change one player: the others' cells are reused as they are.
            key = (json.dumps(player.to_json(), sort_keys=True, default=str), colour == acting,
                   translator.language, theme.text_scale.factor)
            cached = self._cells.get(colour)
            if cached is not None and cached[0] == key and not turning:
                cell, rose = cached[1], cached[2]
                if cell.parent is not None:
                    cell.parent.remove_widget(cell)
            else:
                cell, rose = _player_cell(player, colour == acting)
                if turning:
                    rose.turn(player.windrose)
                self._cells[colour] = (key, cell, rose)
            self.roses[colour] = rose
            grid.add_widget(cell)
        return grid


def _player_cell(player: Any, acting: bool) -> tuple[Widget, WindroseWidget]:
    colour = player.colour
    cell = Panel(orientation="horizontal", padding=4, spacing=4,
                 bg=list(theme.player_colour(colour) if acting else theme.PANEL))
    info = Panel(orientation="vertical", padding=(4, 2), bg=list(theme.PANEL))
    badge = Panel(bg=list(theme.player_colour(colour)), size_hint_y=None, height=28, padding=(6, 0))
    badge.add_widget(TextLabel(player.name, size=theme.FONT_NORMAL, bold=True, color=theme.on_player_text(colour)))
    info.add_widget(badge)
    counters = GridLayout(cols=2)
    cards = ngettext("card", "cards", len(player.tableau))
    for value, caption, short, tint in (
        (player.gold, _("gold"), _("gold"), "f5d92e"),
        (player.prestige, _("prestige"), _("prest."), "f2f2f2"),
        (player.punish, _("punish"), _("pun."), "ff8a80"),
        (len(player.tableau), cards, cards, "f2f2f2"),
    ):
        number = f"[b][color={tint}]{value}[/color][/b] "
        label = TextLabel(number + caption, size=theme.FONT_SMALL, markup=True, color=theme.TEXT_DIM)
        label.captions = (number + caption, number + short)  # the short one for a narrow column
        counters.add_widget(label)
    info.add_widget(counters)
    cell.add_widget(info)
    rose = WindroseWidget(colour, player.windrose, size_hint_x=None)
    cell.add_widget(rose)
    cell.bind(size=lambda _c, size: _arrange_cell(cell, info, counters, rose, size[0], size[1]))
    return cell, rose


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
    """Full captions where a column holds '12 prestige', else the short ones ('12 prest.'):
    four players in an 800x480 window leave about 85 px a column."""
    for label in counters.children:
        needed = COUNTER_MIN_WIDTH * label.font_size / theme.font(theme.FONT_SMALL)
        label.text = label.captions[0] if column_width >= needed else label.captions[1]


def _counter_font(counters: GridLayout, base: int) -> None:
    """The counters' text size: larger where they stand over a big rose."""
    for label in counters.children:
        label.font_size = theme.font(base)

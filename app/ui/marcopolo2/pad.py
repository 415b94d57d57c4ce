"""Marco Polo II at the table: every round each player's own dice (tapped in), their sum and the
compensation owed below 15; after round 5 the end-scoring pad."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.marcopolo2 import ROUNDS, compensation, current_round
from app.ui import theme
from app.ui.i18n import N_, _
from app.ui.marcopolo2.dice import ColouredDie, fill_of
from app.ui.sheet_pad import PadField, PadSeat, SheetPad, Value
from app.ui.widgets import BigButton, Panel, TextLabel

MAX_DICE = 6
END_FIELDS = (
    PadField("vp_track", N_("Score track"), 0, 999),
    PadField("guild_seals_vp", N_("Guild seals (VP)"), 0, 999),
    PadField("shields_vp", N_("Shields (VP)"), 0, 999),
    PadField("goods", N_("Goods left"), 0, 999),
    PadField("coins", N_("Coins left"), 0, 999),
    PadField("contracts", N_("Contracts completed"), 0, 999),
    PadField("camels", N_("Camels"), 0, 999),
)


class MarcoPolo2Pad(BoxLayout):
    """The rounds' dice, then the end scoring: `act(action)` records an entry (False: refused)."""

    def __init__(self, state: dict[str, Any], act: Callable[[dict[str, Any]], bool], portrait: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.GAP, padding=theme.GAP, **kwargs)
        self.act = act
        self.portrait = portrait
        self.state = state
        self.lit: str | None = None
        self.drafts: dict[str, list[int]] = {}
        self.end_pad: SheetPad | None = None
        self.shown_round = 0
        self.update(state)

    @property
    def round(self) -> int:
        return current_round(self.state)

    def update(self, state: dict[str, Any], portrait: bool | None = None) -> None:
        """Show a new state (after an action or an undo), in a window turned (`portrait`) or not."""
        if portrait is not None:
            self.portrait = portrait
            if self.end_pad is not None:
                self.end_pad.portrait = portrait
        new_round = self.shown_round != current_round(state)
        self.state = state
        self.shown_round = self.round
        if new_round:
            self.drafts = {}
        if new_round or self.lit is None or self._rolled(self.lit) is not None:
            self.lit = next((p["name"] for p in state["players"] if self._rolled(p["name"]) is None), None)
        self.redraw()

    def _rolled(self, name: str) -> list[int] | None:
        """This round's dice of a player, once recorded."""
        rolls = next(p for p in self.state["players"] if p["name"] == name).get("rolls", [])
        return list(rolls[self.round - 1]) if len(rolls) >= self.round else None

    # -- taps ----------------------------------------------------------------------------
    def light(self, name: str) -> None:
        self.lit = name
        self.redraw()

    def add_die(self, value: int) -> None:
        if self.lit is None:
            return
        dice = self.drafts.setdefault(self.lit, [])
        if len(dice) < MAX_DICE:
            dice.append(value)
        self.redraw()

    def remove_die(self, name: str, index: int) -> None:
        self.drafts.get(name, []).pop(index)
        self.redraw()

    def confirm(self) -> None:
        """Record the lit player's dice for this round; the next player without dice lights up."""
        if self.lit is None:
            return
        dice = self.drafts.get(self.lit, [])
        self.act({"type": "round_dice", "player": self.lit, "round": self.round, "dice": list(dice)})

    # -- drawing ---------------------------------------------------------------------------
    def redraw(self) -> None:
        self.clear_widgets()
        if self.round > ROUNDS:
            self._draw_end()
            return
        body = BoxLayout(orientation="vertical" if self.portrait else "horizontal", spacing=theme.GAP)
        rows = BoxLayout(orientation="vertical", spacing=3)
        for player in self.state["players"]:
            rows.add_widget(self._player_row(player))
        rows.add_widget(Widget())
        body.add_widget(rows)
        body.add_widget(self._dice_keys())
        self.add_widget(body)

    def _player_row(self, player: dict[str, Any]) -> Panel:
        name = player["name"]
        rolled = self._rolled(name)
        dice = rolled if rolled is not None else self.drafts.get(name, [])
        lit = name == self.lit
        row = Panel(spacing=theme.GAP, padding=3, size_hint_y=None, height=theme.TOUCH_MIN + 6,
                    bg=list(theme.ACCENT if lit else theme.dimmed(theme.OK) if rolled is not None else theme.PANEL))
        row.add_widget(BigButton(name, fill=fill_of(player["colour"]), size_hint=(None, 1), size_hint_y=1,
                                 width=120, tag=("player", name), on_tap=lambda n=name: self.light(n)))
        dice_box = BoxLayout(spacing=2)
        for index, value in enumerate(dice):
            dice_box.add_widget(ColouredDie(player["colour"], value, tag=("die", name, index),
                                            on_tap=None if rolled is not None else
                                            lambda n=name, i=index: self.remove_die(n, i)))
        for _free in range(len(dice), MAX_DICE):
            dice_box.add_widget(Widget())
        row.add_widget(dice_box)
        owed = compensation(dice)
        if not dice:
            text = ""
        elif owed:
            text = _("sum {total}, owed {count}").format(total=sum(dice), count=owed)
        else:
            text = _("sum {total}, none owed").format(total=sum(dice))
        row.add_widget(TextLabel(text, size=theme.FONT_SMALL, color=theme.WARN if dice and owed else theme.TEXT,
                                 size_hint_x=None, width=170, halign="center"))
        return row

    def _dice_keys(self) -> BoxLayout:
        box = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=None if not self.portrait else 1,
                        width=220)
        if self.lit is None:
            box.add_widget(Widget())
            return box
        box.add_widget(TextLabel(_("Dice of {name}").format(name=self.lit), size=theme.FONT_NORMAL, bold=True,
                                 size_hint_y=None, height=30))
        grid = GridLayout(cols=3, spacing=3, size_hint_y=None, height=2 * (theme.TOUCH_MIN + 3))
        for value in range(1, 7):
            grid.add_widget(BigButton(str(value), size=theme.FONT_LARGE, size_hint_y=None, height=theme.TOUCH_MIN,
                                      tag=("pips", value), on_tap=lambda v=value: self.add_die(v)))
        box.add_widget(grid)
        box.add_widget(BigButton(_("Dice are right"), role="ok", tag=("confirm", self.lit),
                                 disabled=not self.drafts.get(self.lit), on_tap=self.confirm))
        box.add_widget(Widget())
        return box

    def _draw_end(self) -> None:
        if self.end_pad is None:
            seats = [PadSeat(p["name"], fill_of(p["colour"])) for p in self.state["players"]]
            self.end_pad = SheetPad(seats, END_FIELDS, self._end_value, self._save_end, self.portrait)
        self.end_pad.sync()
        self.add_widget(self.end_pad)

    def _end_value(self, player: str, key: str) -> Value:
        entry = next(p for p in self.state["players"] if p["name"] == player)
        value = entry.get(key)
        return value if isinstance(value, int) else None

    def _save_end(self, player: str, key: str, value: Value) -> bool:
        return self.act({"type": "end", "player": player, key: value})


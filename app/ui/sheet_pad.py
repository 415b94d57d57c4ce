"""Number pads for score sheets: every player's values entered with taps, no keyboard.

A sheet game's UI package describes its fields (one number, or a list of numbers
such as a gang's cash values) and how a saved value becomes an action; this pad
shows the players with their fields, lights one, and offers a keypad for it. The
score breakdown (ranks, parts, totals) is drawn from the game's own ScoreTable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.base import ScoreTable
from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.widgets import BigButton, Panel, TextLabel

RGBA = tuple[float, float, float, float]
Value = int | list[int] | None  # None: not entered yet
NOT_ENTERED = "?"
NAME_WIDTH = 150  # a breakdown's first column: place and name
SIDE_FIELDS = 3  # up to this many fields: players down the side, fields across
WIDE_FIELDS = 4  # beyond this many: the wide layout, keys in one row below the sheet
EMPTY_LIST = "\u2013"


@dataclass(frozen=True)
class PadField:
    """One value a player enters: its key, its title (a msgid), the numbers it takes, and for a
    list how many entries it may hold (0: a single number)."""

    key: str
    title: str
    low: int
    high: int
    many: int = 0


@dataclass(frozen=True)
class PadSeat:
    name: str
    colour: RGBA


def shown_value(value: Value) -> str:
    if value is None:
        return NOT_ENTERED
    if isinstance(value, list):
        return " ".join(str(v) for v in value) or EMPTY_LIST
    return str(value)


def name_tag(seat: PadSeat, size: int = theme.FONT_NORMAL, **kwargs: Any) -> Panel:
    """A player's name on their colour (a neutral tag for games without player colours)."""
    tag = Panel(bg=list(seat.colour), padding=(8, 0), **kwargs)
    light = 0.3 * seat.colour[0] + 0.59 * seat.colour[1] + 0.11 * seat.colour[2] > 0.6
    tag.add_widget(TextLabel(seat.name, size=size, bold=True, color=(0.07, 0.07, 0.07, 1) if light else theme.TEXT))
    return tag


def keypad(on_key: Callable[[str], None], extra: Sequence[tuple[str, str, str]], columns: int = 3) -> GridLayout:
    """Digits 1-9, 0 and erase, then `extra` keys (key, label, role), in `columns` columns."""
    keys = [(str(d), str(d), "normal") for d in (*range(1, 10), 0)] + [("erase", _("Erase"), "normal"), *extra]
    rows = -(-len(keys) // columns)
    grid = GridLayout(cols=columns, spacing=3, size_hint_y=None, height=rows * (theme.TOUCH_MIN + 3))
    for key, label, role in keys:
        grid.add_widget(BigButton(label, role=role, size_hint_y=None, height=theme.TOUCH_MIN, tag=("key", key),
                                  on_tap=partial(on_key, key)))
    return grid


def breakdown_grid(table: ScoreTable, keys: tuple[str, ...] | None = None, roomy: bool = False) -> GridLayout:
    """One row per player in rank order: place and name, the breakdown columns (those named by
    `keys`, else all) and the total; titles may take two lines."""
    columns = [c for c in table.columns if keys is None or c.key in keys]
    titles = [_("Player"), *(translator.message(c.title) for c in columns), _("Total")]
    row = 44 if roomy else 34
    grid = GridLayout(cols=len(titles), spacing=2, size_hint_y=None,
                      height=2 * row + (row + 2) * len(table.lines))
    for index, title in enumerate(titles):
        grid.add_widget(TextLabel(title, size=theme.FONT_SMALL, bold=True, halign="center", color=theme.TEXT_DIM,
                                  size_hint=(None, None) if index == 0 else (1, None), width=NAME_WIDTH,
                                  height=2 * row))
    for line in table.lines:
        grid.add_widget(TextLabel(f"{line.rank}. {line.name}", size=theme.FONT_NORMAL, bold=True,
                                  size_hint=(None, None), width=NAME_WIDTH, height=row))
        for value in (*(table.part(line, c.key) for c in columns), line.total):
            grid.add_widget(TextLabel(str(value), size=theme.FONT_NORMAL, halign="center", size_hint_y=None,
                                      height=row))
    return grid


class SheetPad(BoxLayout):
    """Players with their fields beside a keypad for the lit field.

    `values(player, key)` reads what is entered; `save(player, key, value)` turns a value into
    an action and says whether it was taken (the host shows why not). After a save the next field still
    to be entered lights up. With more than three fields the fields are rows and the players
    columns, so a long end-scoring pad still fits a small screen.
    """

    def __init__(self, seats: Sequence[PadSeat], fields: Sequence[PadField],
                 values: Callable[[str, str], Value], save: Callable[[str, str, Value], bool],
                 portrait: bool = False, **kwargs: Any) -> None:
        super().__init__(orientation="vertical" if portrait else "horizontal", spacing=theme.GAP,
                         padding=theme.GAP, **kwargs)
        self.portrait = portrait
        self.seats = list(seats)
        self.fields = list(fields)
        self.values = values
        self.save = save
        self.lit: tuple[str, str] | None = None
        self.typed = ""
        self.draft: list[int] = []
        self.problem = ""
        self.typed_button: BigButton | None = None
        self.light_next()

    # -- what is lit and typed ----------------------------------------------------------
    def field(self, key: str) -> PadField:
        return next(f for f in self.fields if f.key == key)

    def light(self, player: str, key: str) -> None:
        self.lit = (player, key)
        self.typed = ""
        saved = self.values(player, key)
        self.draft = list(saved) if isinstance(saved, list) else []
        self.problem = ""
        self.redraw()

    def light_next(self) -> None:
        """Light the first field, player by player, that is still to be entered (if any)."""
        for seat in self.seats:
            for field in self.fields:
                if self.values(seat.name, field.key) is None:
                    self.light(seat.name, field.key)
                    return
        self.lit = None
        self.redraw()

    def sync(self) -> None:
        """After the sheet changed (an entry, an undo): keep the lit field while a value is being
        typed into it, otherwise light the next field still to be entered."""
        if self.lit is not None and (self.typed or self.values(*self.lit) is None):
            self.redraw()
        else:
            self.light_next()

    def press(self, key: str) -> None:
        if self.lit is None:
            return
        field = self.field(self.lit[1])
        self.problem = ""
        if key.isdigit():
            typed = (self.typed + key).lstrip("0") or "0"
            self.typed = typed if int(typed) <= field.high else key
            if self.typed_button is not None:  # only the typed number changes: no rebuild
                self.typed_button.text = self.typed
                return
        elif key == "erase":
            if self.typed:
                self.typed = self.typed[:-1]
            elif self.draft:
                self.draft.pop()
        elif key == "add":
            self._add_typed()
        elif key == "save":
            self._save()
            return
        self.redraw()

    def remove(self, index: int) -> None:
        del self.draft[index]
        self.redraw()

    def _add_typed(self) -> None:
        assert self.lit is not None
        field = self.field(self.lit[1])
        if not self.typed:
            return
        number = int(self.typed)
        self.typed = ""
        if not field.low <= number <= field.high:
            self.problem = _("Only {low} to {high} can be entered here.").format(low=field.low, high=field.high)
        elif len(self.draft) >= field.many:
            self.problem = _("At most {count} values can be entered here.").format(count=field.many)
        else:
            self.draft.append(number)

    def _save(self) -> None:
        assert self.lit is not None
        player, key = self.lit
        field = self.field(key)
        if field.many:
            self._add_typed()
            if self.problem:
                self.redraw()
                return
            value: Value = list(self.draft)
        else:
            saved = self.values(player, key)
            value = int(self.typed) if self.typed else saved if isinstance(saved, int) else None
            if value is None:
                self.problem = _("Type a number first.")
                self.redraw()
                return
        if self.save(player, key, value):
            self.light_next()

    # -- drawing ---------------------------------------------------------------------------
    @property
    def wide(self) -> bool:
        """Many fields (an end-scoring pad): the sheet across the whole width, the keys in a row below."""
        return len(self.fields) > WIDE_FIELDS

    def redraw(self) -> None:
        """The sheet beside the lit field's keypad (nothing lit: every value is in)."""
        self.clear_widgets()
        self.typed_button = None
        self.orientation = "vertical" if self.portrait or self.wide else "horizontal"
        self.add_widget(self._sheet())
        self.add_widget(self._editor() if self.lit is not None else Widget())

    def _field_button(self, seat: PadSeat, field: PadField) -> BigButton:
        value = self.values(seat.name, field.key)
        lit = self.lit == (seat.name, field.key)
        return BigButton(shown_value(value), role="selected" if lit else "normal", size=theme.FONT_NORMAL,
                         size_hint_y=None, height=theme.TOUCH_MIN, tag=(f"{seat.name}:{field.key}", "field"),
                         on_tap=partial(self.light, seat.name, field.key))

    def _sheet(self) -> GridLayout:
        players_across = SIDE_FIELDS < len(self.fields) <= WIDE_FIELDS
        row = theme.TOUCH_MIN + 2
        if players_across:
            grid = GridLayout(cols=len(self.seats) + 1, spacing=2, size_hint_y=None,
                              height=row * (len(self.fields) + 1))
            grid.add_widget(Widget())
            for seat in self.seats:
                grid.add_widget(name_tag(seat, size=theme.FONT_SMALL))
            for field in self.fields:
                grid.add_widget(TextLabel(_(field.title), size=theme.FONT_SMALL, color=theme.TEXT_DIM))
                for seat in self.seats:
                    grid.add_widget(self._field_button(seat, field))
        else:
            grid = GridLayout(cols=len(self.fields) + 1, spacing=2, size_hint_y=None,
                              height=row * (len(self.seats) + 1))
            grid.add_widget(Widget())
            for field in self.fields:
                grid.add_widget(TextLabel(_(field.title), size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                                          halign="center"))
            for seat in self.seats:
                grid.add_widget(name_tag(seat, size=theme.FONT_SMALL if self.wide else theme.FONT_NORMAL))
                for field in self.fields:
                    grid.add_widget(self._field_button(seat, field))
        for cell in grid.children:
            cell.size_hint_y, cell.height = None, theme.TOUCH_MIN
        if self.wide:  # titles of two lines over the fields
            grid.height += theme.TOUCH_MIN // 2
            for cell in grid.children[-len(self.fields) - 1:]:
                cell.height = theme.TOUCH_MIN + theme.TOUCH_MIN // 2
        holder = GridLayout(cols=1)
        holder.add_widget(grid)
        if not self.wide:
            holder.add_widget(Widget())
        return holder

    def _editor(self) -> BoxLayout:
        assert self.lit is not None
        player, key = self.lit
        field = self.field(key)
        if self.wide:
            return self._key_row(player, field)
        box = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.8)
        box.add_widget(TextLabel(f"{player}: {_(field.title)}", size=theme.FONT_NORMAL, bold=True,
                                 size_hint_y=None, height=32))
        if field.many:
            chips = BoxLayout(spacing=3, size_hint_y=None, height=theme.TOUCH_MIN)
            for index, number in enumerate(self.draft):
                chips.add_widget(BigButton(str(number), size_hint_y=1, tag=("remove", index),
                                           on_tap=partial(self.remove, index)))
            self.typed_button = BigButton(self.typed or "_", role="accent", size_hint_y=1, tag=("typed", ""))
            chips.add_widget(self.typed_button)
            for _free in range(len(self.draft) + 1, field.many):
                chips.add_widget(Widget())
            box.add_widget(chips)
        else:
            saved = self.values(player, key)
            self.typed_button = BigButton(self.typed or (str(saved) if saved is not None else "_"), role="accent",
                                          size=theme.FONT_LARGE, tag=("typed", ""))
            box.add_widget(self.typed_button)
        if self.problem:
            box.add_widget(TextLabel(self.problem, size=theme.FONT_SMALL, color=theme.DANGER, size_hint_y=None,
                                     height=40))
        extra = [("add", _("Add"), "normal"), ("save", _("Save"), "ok")] if field.many else [
            ("save", _("Save"), "ok")]
        box.add_widget(keypad(self.press, extra))
        box.add_widget(Widget())
        return box

    def _key_row(self, player: str, field: PadField) -> BoxLayout:
        """One number at a time under a wide sheet: what is lit and typed, then the keys in a row."""
        box = BoxLayout(orientation="vertical", spacing=3, size_hint_y=None, height=2 * theme.TOUCH_MIN + 6)
        top = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH_MIN)
        top.add_widget(TextLabel(f"{player}: {_(field.title)}", size=theme.FONT_NORMAL, bold=True))
        saved = self.values(player, field.key)
        self.typed_button = BigButton(self.typed or (str(saved) if saved is not None else "_"), role="accent",
                                      size=theme.FONT_LARGE, size_hint=(None, 1), size_hint_y=1, width=120,
                                      tag=("typed", ""))
        top.add_widget(self.typed_button)
        if self.problem:
            top.add_widget(TextLabel(self.problem, size=theme.FONT_SMALL, color=theme.DANGER))
        box.add_widget(top)
        box.add_widget(keypad(self.press, [("save", _("Save"), "ok")], columns=12))
        return box


class FieldsSheet(BoxLayout):
    """A game's sheet as one `SheetPad` of its `FIELDS`: `act(action)` records an entry (False:
    refused). A game says how a value is read from its state (`_value`; by default the player's
    entry under the field's key) and which action saves it (`_save`); `above` is what the game
    shows over the pad, and `shown(state)` refreshes it."""

    FIELDS: tuple[PadField, ...] = ()

    def __init__(self, state: dict[str, Any], act: Callable[[dict[str, Any]], bool], portrait: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.act = act
        self.state = state
        for widget in self.above():
            self.add_widget(widget)
        seats = [PadSeat(p["name"], theme.PANEL_LIGHT) for p in state["players"]]
        self.pad = SheetPad(seats, self.FIELDS, self._value, self._save, portrait)
        self.add_widget(self.pad)
        self.update(state)

    def above(self) -> list[Widget]:
        return []

    def shown(self, state: dict[str, Any]) -> None:
        """Refresh what the game shows over the pad for `state`."""

    def update(self, state: dict[str, Any], portrait: bool | None = None) -> None:
        """Show a new state (after an action or an undo), in a window turned (`portrait`) or not."""
        if portrait is not None:
            self.pad.portrait = portrait
        self.state = state
        self.shown(state)
        self.pad.sync()

    def _value(self, player: str, key: str) -> Value:
        entry = next(p for p in self.state["players"] if p["name"] == player)
        return list(entry[key]) if key in entry else None

    def _save(self, player: str, key: str, value: Value) -> bool:
        raise NotImplementedError

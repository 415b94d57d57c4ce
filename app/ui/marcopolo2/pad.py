"""Marco Polo II at the table: every round each player's own dice, read by the camera all at
once (grouped by player colour, the black and white dice apart) or tapped in, their sum and the
compensation owed below 15; after round 5 the end-scoring pad.

The dice service is imported only where a dice station runs (it loads OpenCV and numpy).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.marcopolo2 import MAX_DICE, NOBODYS_DICE, ROUNDS, compensation, current_round
from app.ui import theme
from app.ui.dice_words import UNSURE_WORDS
from app.ui.i18n import N_, _, translator
from app.ui.marcopolo2.dice import ColouredDie, fill_of
from app.ui.sheet_pad import PadField, PadSeat, SheetPad, Value
from app.ui.widgets import BigButton, Panel, TextLabel

if TYPE_CHECKING:
    from app.dice_service import DiceStatus
    from app.ui.dice_link import DiceLink

END_FIELDS = (
    PadField("vp_track", N_("Score track"), 0, 999),
    PadField("guild_seals_vp", N_("Guild seals (VP)"), 0, 999),
    PadField("shields_vp", N_("Shields (VP)"), 0, 999),
    PadField("goods", N_("Goods left"), 0, 999),
    PadField("coins", N_("Coins left"), 0, 999),
    PadField("contracts", N_("Contracts completed"), 0, 999),
    PadField("camels", N_("Camels"), 0, 999),
)
NOBODY = ""  # the owner of the black and white dice


class MarcoPolo2Pad(BoxLayout):
    """The rounds' dice, then the end scoring: `act(action)` records an entry (False: refused).

    A draft die is its pips, or None where the camera could not read it for sure; `doubts`
    holds the camera's reason for such a die. A tap on a die picks it, and the number keys then
    set it; with no die picked they add a die to the lit player.
    """

    def __init__(self, state: dict[str, Any], act: Callable[[dict[str, Any]], bool], portrait: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.GAP, padding=theme.GAP, **kwargs)
        self.act = act
        self.portrait = portrait
        self.state = state
        self.lit: str | None = None
        self.drafts: dict[str, list[int | None]] = {}
        self.doubts: dict[tuple[str, int], str] = {}  # (player or NOBODY, index) -> why the camera doubts it
        self.spare: list[tuple[str, int | None]] = []  # the black and white dice read, shown apart
        self.picked: tuple[str, int] | None = None
        self.link: DiceLink | None = None
        self.from_camera = False  # the drafts hold the camera's proposal, which the service then hears confirmed
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
            self._clear_drafts()
        if new_round or self.lit is None or self._rolled(self.lit) is not None:
            self.lit = next((p["name"] for p in state["players"] if self._rolled(p["name"]) is None), None)
        self.redraw()

    def _clear_drafts(self) -> None:
        self.drafts, self.doubts, self.spare, self.picked, self.from_camera = {}, {}, [], None, False

    def _rolled(self, name: str) -> list[int] | None:
        """This round's dice of a player, once recorded."""
        rolls = next(p for p in self.state["players"] if p["name"] == name).get("rolls", [])
        return list(rolls[self.round - 1]) if len(rolls) >= self.round else None

    # -- the camera --------------------------------------------------------------------------
    def link_dice(self, link: DiceLink | None) -> None:
        """The dice station's link (None: dice are tapped in); a proposal on show is taken in."""
        self.link = link
        if link is not None and link.status is not None:
            from app.dice_service import RollState

            if link.status.state is RollState.PROPOSED:
                self.take_proposal(link.status)
        self.redraw()

    def on_status(self, status: DiceStatus) -> None:
        from app.dice_service import RollState

        if status.state is RollState.PROPOSED:
            self.take_proposal(status)
        elif status.state is RollState.CANCELLED and self.from_camera:
            self._clear_drafts()  # the proposal is dropped: the dice are tapped in instead
        self.redraw()

    def on_roll_button(self) -> None:
        if self.link is not None and self.round <= ROUNDS:
            self.link.roll()
            self.redraw()

    def take_proposal(self, status: DiceStatus) -> None:
        """Every player still without dice this round gets the dice read in their colour; dice the
        camera is unsure of stay open ('?'), ringed, and the first of them is picked."""
        if self.round > ROUNDS:
            return
        groups = status.proposed_groups
        self._clear_drafts()
        owners = {p["colour"]: p["name"] for p in self.state["players"] if self._rolled(p["name"]) is None}
        for colour, dice in groups.items():
            owner = owners.get(colour, NOBODY if colour in NOBODYS_DICE else None)
            if owner is None:
                continue
            for die in dice:
                value = None if die.unsure else die.value
                if owner == NOBODY:
                    self.spare.append((colour, value))
                    continue
                draft = self.drafts.setdefault(owner, [])
                if die.unsure and die.reason is not None:
                    self.doubts[(owner, len(draft))] = die.reason.value
                draft.append(value)
        self.from_camera = True
        self.picked = next(((name, i) for name, dice in self.drafts.items() for i, v in enumerate(dice)
                            if v is None), None)

    # -- taps ----------------------------------------------------------------------------
    def light(self, name: str) -> None:
        self.lit = name
        self.picked = None
        self.redraw()

    def pick(self, name: str, index: int) -> None:
        """A tap on a die: the number keys now set it (a second tap lets it go)."""
        self.picked = None if self.picked == (name, index) else (name, index)
        self.lit = name
        self.redraw()

    def add_die(self, value: int) -> None:
        """A number key: the picked die gets these pips (then the next open die is picked), else
        the lit player gets a die more."""
        if self.picked is not None:
            name, index = self.picked
            self.drafts[name][index] = value
            self.doubts.pop(self.picked, None)
            self.picked = next(((n, i) for n, dice in self.drafts.items() for i, v in enumerate(dice)
                                if v is None), None)
        elif self.lit is not None:
            dice = self.drafts.setdefault(self.lit, [])
            if len(dice) < MAX_DICE:
                dice.append(value)
        self.redraw()

    def remove_die(self, name: str, index: int) -> None:
        """Take a die out of a player's draft (one the camera read that is not theirs, say)."""
        dice = self.drafts.get(name, [])
        if index < len(dice):
            dice.pop(index)
            self.doubts = {(n, i if n != name or i < index else i - 1): why
                           for (n, i), why in self.doubts.items() if (n, i) != (name, index)}
        self.picked = None
        self.redraw()

    def take_out_picked(self) -> None:
        if self.picked is not None:
            self.remove_die(*self.picked)

    @property
    def ready(self) -> list[str]:
        """The players whose dice this round are all numbered and not yet recorded, in seat order."""
        return [p["name"] for p in self.state["players"] if self._rolled(p["name"]) is None
                and self.drafts.get(p["name"]) and None not in self.drafts[p["name"]]]

    @property
    def open_dice(self) -> bool:
        return any(None in dice for dice in self.drafts.values())

    def confirm(self) -> None:
        """Record the dice on show for this round, player by player (each a journalled entry);
        after a camera proposal the dice service hears them confirmed."""
        names = self.ready
        if not names or self.open_dice:
            return
        if self.from_camera and self.link is not None:
            self._confirm_with_service(self.link, names)
        number = self.round
        for name in names:
            dice = [int(v) for v in self.drafts[name] if v is not None]
            if not self.act({"type": "round_dice", "player": name, "round": number, "dice": dice}):
                return

    def _confirm_with_service(self, link: DiceLink, names: list[str]) -> None:
        """The proposal is over: the station goes back to waiting for the next roll. A refusal
        (dice the service does not take) is left to the rules, which then say what is wrong."""
        from app.dice_service import InvalidDice

        colours = {p["name"]: p["colour"] for p in self.state["players"]}
        groups: dict[str, list[int]] = {colours[name]: [int(v) for v in self.drafts[name] if v is not None]
                                        for name in names}
        for colour, value in self.spare:
            if value is not None:
                groups.setdefault(colour, []).append(value)
        try:
            link.confirm_groups(groups)
        except InvalidDice:
            pass
        self.from_camera = False

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
        if self.spare:
            rows.add_widget(self._spare_row())
        rows.add_widget(Widget())
        body.add_widget(rows)
        body.add_widget(self._dice_keys())
        self.add_widget(body)

    def _die(self, owner: str, colour: str, index: int, value: int | None, rolled: bool) -> ColouredDie:
        why = self.doubts.get((owner, index))
        return ColouredDie(colour, value or 0, tag=("die", owner, index), unsure=why is not None or value is None,
                           selected=self.picked == (owner, index),
                           note=_(UNSURE_WORDS[why]) if why in UNSURE_WORDS else "",
                           on_tap=None if rolled else partial(self.pick, owner, index))

    def _player_row(self, player: dict[str, Any]) -> Panel:
        name = player["name"]
        rolled = self._rolled(name)
        dice: list[int | None] = list(rolled) if rolled is not None else list(self.drafts.get(name, []))
        lit = name == self.lit
        row = Panel(spacing=theme.GAP, padding=3, size_hint_y=None, height=theme.TOUCH_MIN + 6,
                    bg=list(theme.ACCENT if lit else theme.dimmed(theme.OK) if rolled is not None else theme.PANEL))
        row.add_widget(BigButton(name, fill=fill_of(player["colour"]), size_hint=(None, 1), size_hint_y=1,
                                 width=120, tag=("player", name), on_tap=partial(self.light, name)))
        dice_box = BoxLayout(spacing=2)
        for index, value in enumerate(dice):
            dice_box.add_widget(self._die(name, player["colour"], index, value, rolled is not None))
        for _free in range(len(dice), MAX_DICE):
            dice_box.add_widget(Widget())
        row.add_widget(dice_box)
        numbered = [v for v in dice if v is not None]
        owed = compensation(numbered)
        if not dice:
            text = ""
        elif len(numbered) < len(dice):
            text = _("sum so far {total}").format(total=sum(numbered))
        elif owed:
            text = _("sum {total}, owed {count}").format(total=sum(numbered), count=owed)
        else:
            text = _("sum {total}, none owed").format(total=sum(numbered))
        row.add_widget(TextLabel(text, size=theme.FONT_SMALL, color=theme.WARN if dice and owed else theme.TEXT,
                                 size_hint_x=None, width=170, halign="center"))
        return row

    def _spare_row(self) -> Panel:
        """The black and white dice the camera read: shown, never added to a player's sum."""
        row = Panel(spacing=theme.GAP, padding=3, size_hint_y=None, height=theme.TOUCH_MIN + 6, bg=list(theme.PANEL))
        row.add_widget(TextLabel(_("Black and white dice"), size=theme.FONT_SMALL, size_hint_x=None, width=120,
                                 halign="center"))
        dice_box = BoxLayout(spacing=2)
        for index, (colour, value) in enumerate(self.spare):
            dice_box.add_widget(ColouredDie(colour, value or 0, tag=("spare", index), unsure=value is None))
        for _free in range(len(self.spare), MAX_DICE):
            dice_box.add_widget(Widget())
        row.add_widget(dice_box)
        row.add_widget(Widget(size_hint_x=None, width=170))
        return row

    def _dice_keys(self) -> BoxLayout:
        box = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=None if not self.portrait else 1,
                        width=220)
        if self.link is not None and self.link.station is not None:
            box.add_widget(BigButton(_("Rolling...") if self.link.rolling else _("Roll (button or space bar)"),
                                     role="accent", size=theme.FONT_SMALL, size_hint_y=None, height=theme.TOUCH_MIN,
                                     tag=("roll",), on_tap=self.on_roll_button))
            status = self.link.status
            if status is not None:
                box.add_widget(TextLabel(translator.gettext(status.note).format(**status.params),
                                         size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=40))
        if self.lit is None and not self.drafts:
            box.add_widget(Widget())
            return box
        if self.picked is not None:
            title = _("Pips of {name}'s die").format(name=self.picked[0])
        else:
            title = _("Dice of {name}").format(name=self.lit)
        box.add_widget(TextLabel(title, size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=30))
        grid = GridLayout(cols=3, spacing=3, size_hint_y=None, height=2 * (theme.TOUCH_MIN + 3))
        for value in range(1, 7):
            grid.add_widget(BigButton(str(value), size=theme.FONT_LARGE, size_hint_y=None, height=theme.TOUCH_MIN,
                                      tag=("pips", value), on_tap=partial(self.add_die, value)))
        box.add_widget(grid)
        if self.picked is not None:
            box.add_widget(BigButton(_("Take the die out"), size=theme.FONT_SMALL, size_hint_y=None,
                                     height=theme.TOUCH_MIN, tag=("take_out",), on_tap=self.take_out_picked))
        box.add_widget(BigButton(_("Every die needs a number") if self.open_dice else _("Dice are right"),
                                 role="ok", tag=("confirm", self.lit), disabled=self.open_dice or not self.ready,
                                 on_tap=self.confirm))
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


"""Dice: roll (camera proposal or typed by hand, tap a die to correct it), then each player
taps two dice and watches the windrose fill; it turns when the last player has chosen.

A camera proposal the reader is sure of in every die is shown as read, for the first player
to choose from: that player's first die accepts the roll (the table has looked at the dice
while choosing), and "Correct a die" opens the corrections instead.

The dice service and the camera view are imported only where a dice station runs: they load
OpenCV and numpy (some 30 MB), which a table typing its dice in never needs.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.macao import CUBE_COLOURS, apply_action, effective_pips, waiting_for
from app.ui import theme
from app.ui.dice_words import UNSURE_WORDS
from app.ui.i18n import _, translator
from app.ui.panel import PanelHost, PhasePanel
from app.ui.widgets import BigButton, DieWidget, Panel, TextLabel

if TYPE_CHECKING:
    from app.dice_service import DiceStatus

PIPS = (1, 2, 3, 4, 5, 6)


class DiceHost(PanelHost, Protocol):
    """The game screen, which outlives the panels: these panels set an attribute of their own on
    it to carry the die that accepted a sure proposal, (round, colour), from the roll's panel to
    the choosing panel that follows. The shell names no game, so the attribute is not declared
    there and is read with a default: it is absent until the first sure roll."""

    first_die_carried: tuple[int, str] | None


class RollPanel(PhasePanel):
    """The six dice of the round: the camera's proposal (unsure ones ringed) or typed by hand."""

    screen: DiceHost

    def __init__(self, screen: DiceHost) -> None:
        super().__init__(screen)
        self.values: dict[str, int | None] = {c: None for c in CUBE_COLOURS}
        self.unsure: set[str] = set()
        self.why_unsure: dict[str, str] = {}  # colour -> the camera's reason (UnsureReason's value), while unsure
        self.selected: str | None = CUBE_COLOURS[0]
        self.problem = ""
        self.proposal: DiceStatus | None = None  # the camera's reading taken in, whose note stays shown
        self.correcting = False  # the table chose to correct a proposal the reader was sure of
        link = self.app.context.dice
        if link is not None and link.status is not None:
            from app.dice_service import RollState

            if link.status.state is RollState.PROPOSED:
                self.take_proposal(link.status)

    # -- input -----------------------------------------------------------------------
    def take_proposal(self, status: DiceStatus) -> None:
        """Fill the dice from the camera's proposal; dice it is not sure of stay open and ringed."""
        self.proposal = status
        proposed = status.proposed_dice
        self.values = {c: proposed.get(c) for c in CUBE_COLOURS}
        self.unsure = {c for c, v in self.values.items() if v is None}
        self.why_unsure = {}
        if status.reading is not None:
            self.unsure |= {d.colour for d in status.reading.dice if d.unsure and d.colour}
            self.why_unsure = {d.colour: d.reason.value for d in status.reading.dice
                               if d.unsure and d.colour and d.reason is not None}
        open_dice = [c for c in CUBE_COLOURS if self.values[c] is None]
        doubtful = [c for c in CUBE_COLOURS if c in self.unsure]
        first_choices = open_dice or doubtful
        self.selected = first_choices[0] if first_choices else None
        self.correcting = False

    def sure(self) -> bool:
        """Whether the camera's proposal is whole and sure, and nobody asked to correct it."""
        return (self.proposal is not None and not self.correcting and not self.unsure
                and all(v is not None for v in self.values.values()))

    def correct(self) -> None:
        self.correcting = True
        self.screen.first_die_carried = None
        self.redraw()

    def choose_first(self, colour: str) -> None:
        """A die tapped on a sure proposal: the roll is accepted and the die is the first
        player's first choice, carried to the choosing panel that follows (with a dice station
        the roll arrives a frame later, from the dice service)."""
        carried = getattr(self.screen, "first_die_carried", None)
        if carried is not None and carried[0] == self.state.round:
            return  # a second tap before the roll arrived
        self.screen.first_die_carried = (self.state.round, colour)
        if not self.confirm() and self.app.context.dice is None:
            self.screen.first_die_carried = None  # refused: nothing follows to carry it to

    def on_status(self, status: DiceStatus) -> None:
        from app.dice_service import RollState

        if status.state is RollState.PROPOSED:
            self.take_proposal(status)
        self.redraw()

    def on_roll_button(self) -> None:
        link = self.app.context.dice
        if link is not None:
            self.values = {c: None for c in CUBE_COLOURS}
            self.unsure = set()
            link.roll()
            self.redraw()

    def select(self, colour: str) -> None:
        self.selected = colour
        self.correcting = True
        self.redraw()

    def set_value(self, pips: int) -> None:
        """Give the selected die its pips and move on: to the next die without a value, else the
        next ringed one, else simply the next die (corrections go left to right without a tap
        on each die; a die that is right needs no number)."""
        if self.selected is None:
            return
        self.correcting = True  # a corrected proposal stays in the corrections, to be confirmed
        self.values[self.selected] = pips
        self.unsure.discard(self.selected)
        later = CUBE_COLOURS[CUBE_COLOURS.index(self.selected) + 1:]
        after = later + CUBE_COLOURS
        self.selected = next((c for c in after if self.values[c] is None),
                             next((c for c in after if c in self.unsure), later[0] if later else None))
        self.redraw()

    def confirm(self) -> bool:
        """Send the dice as they stand; whether the rules took them."""
        dice = {c: v for c, v in self.values.items() if v is not None}
        link = self.app.context.dice
        if link is None:
            return self.app.act({"type": "roll", "dice": dice})
        from app.dice_service import InvalidDice

        try:
            action = link.confirm(dice)
        except InvalidDice as err:
            self.screen.first_die_carried = None
            self.app.say(str(err), "error")
            self.redraw()
            return False
        return action is not None and self.app.act(action)

    # -- widgets ---------------------------------------------------------------------
    def build(self, expect: Any) -> Widget:
        root = BoxLayout(orientation="vertical", spacing=theme.GAP)
        link = self.app.context.dice
        status = link.status if link is not None else self.proposal
        view = self._camera_view()
        # Spare height goes to the live picture when there is one, else to taller keys and dice.
        roomy = self.screen.roomy() and view is None
        top = BoxLayout(spacing=theme.GAP, **theme.touch_row(roomy, theme.BUTTON_HEIGHT, tallest=80))
        rolling = link is not None and link.rolling
        top.add_widget(BigButton(_("Roll (button or space bar)") if not rolling else _("Rolling..."),
                                 role="accent", on_tap=self.on_roll_button, disabled=link is None or link.station is None,
                                 size_hint_y=1))
        root.add_widget(top)
        if status is not None:
            root.add_widget(TextLabel(translator.gettext(status.note).format(**status.params),
                                      size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=26))
        else:
            root.add_widget(TextLabel(_("No camera: tap a die, then its number."), size=theme.FONT_SMALL,
                                      color=theme.TEXT_DIM, size_hint_y=None, height=26))
        if view is not None:
            root.add_widget(view)
        if self.sure():
            self._as_read(root, roomy)
            return root
        root.add_widget(self._dice_row(roomy))
        root.add_widget(self._pips_row(roomy, roomy and self.screen.tall_portrait()))
        ready = all(v is not None for v in self.values.values())
        root.add_widget(BigButton(_("Dice are right") if ready else _("Every die needs a number"),
                                  role="ok", disabled=not ready, on_tap=self.confirm,
                                  **theme.touch_row(roomy, theme.BUTTON_HEIGHT, tallest=80)))
        if view is None:
            root.add_widget(Widget(size_hint_y=0.3 if roomy else 1))
        return root

    def _as_read(self, root: BoxLayout, roomy: bool) -> None:
        """The sure proposal as the dice to choose from, with what the rules core says the first
        player should know (asked of the state the roll would make, not worked out here)."""
        dice = {c: v for c, v in self.values.items() if v is not None}
        after = apply_action(self.state, {"type": "roll", "dice": dice})
        expect = waiting_for(after)
        who = after.player(expect.player).name if expect.player else ""
        root.add_widget(TextLabel(_("{name}: tap your first die (it accepts the roll), or correct a die.").format(
            name=who), size=theme.FONT_SMALL, size_hint_y=None, height=26))
        row = BoxLayout(spacing=theme.GAP, **theme.touch_row(roomy, 92, tallest=140))
        for colour in CUBE_COLOURS:
            die = DieWidget(colour, dice[colour])
            die.selected = False
            counted = after.dice.get(colour, dice[colour])
            die.note = _("counts {n}").format(n=counted) if counted != dice[colour] else _("sector {n}").format(n=counted)
            die.bind(on_release=lambda _w, c=colour: self.choose_first(c))
            row.add_widget(die)
        root.add_widget(row)
        for hint in expect.hints:
            root.add_widget(TextLabel(translator.message(hint), size=theme.FONT_SMALL, color=theme.WARN, bold=True,
                                      size_hint_y=None, height=44))
        root.add_widget(BigButton(_("Correct a die"), on_tap=self.correct, tag=("correct", "dice"),
                                  **theme.touch_row(roomy, theme.BUTTON_HEIGHT, tallest=80)))
        root.add_widget(Widget(size_hint_y=0.3 if roomy else 1))

    def _camera_view(self) -> Widget | None:
        """The live picture of the tray, when there is a camera and the settings want it."""
        link = self.app.context.dice
        if link is None or not link.has_camera or not self.app.context.camera_view:
            return None
        from app.ui.camera_view import CameraView

        return CameraView(link)

    def _dice_row(self, roomy: bool) -> Widget:
        row = BoxLayout(spacing=theme.GAP, **theme.touch_row(roomy, 92, tallest=140))
        for colour in CUBE_COLOURS:
            value = self.values[colour]
            die = DieWidget(colour, value or 0)
            die.unsure = colour in self.unsure
            die.selected = colour == self.selected
            if die.unsure and self.why_unsure.get(colour) in UNSURE_WORDS:
                die.note = _(UNSURE_WORDS[self.why_unsure[colour]])
            elif value is not None and self.state.round >= 8 and effective_pips(self.state.round, value) != value:
                die.note = _("counts {n}").format(n=effective_pips(self.state.round, value))
            die.bind(on_release=lambda _w, c=colour: self.select(c))
            row.add_widget(die)
        return row

    def _pips_row(self, roomy: bool, two_rows: bool) -> Widget:
        return self.memo("pips", (self.selected is None, roomy, two_rows), lambda: self._make_pips_row(roomy, two_rows))

    def _make_pips_row(self, roomy: bool, two_rows: bool) -> Widget:
        """The numbers 1-6: one row (taller on a tall window), or two rows of three big keys."""
        if two_rows:
            row: BoxLayout | GridLayout = GridLayout(
                cols=3, spacing=theme.GAP, **theme.touch_row(True, 2 * theme.BUTTON_HEIGHT + theme.GAP, tallest=220))
            key: dict[str, Any] = {"size": theme.FONT_HUGE, "size_hint_y": 1}
        else:
            row = BoxLayout(spacing=theme.GAP, **theme.touch_row(roomy, theme.BUTTON_HEIGHT, tallest=110))
            key = {"size": theme.FONT_HUGE if roomy else theme.FONT_LARGE, "size_hint_y": 1}
        for pips in PIPS:
            row.add_widget(BigButton(str(pips), on_tap=partial(self.set_value, pips), tag=("pips", pips),
                                     disabled=self.selected is None, **key))
        return row


class ChooseDicePanel(PhasePanel):
    """The player whose turn it is taps two dice; the choice goes to the rules at the second tap."""

    screen: DiceHost

    def __init__(self, screen: DiceHost) -> None:
        super().__init__(screen)
        self.first: str | None = None
        carried = getattr(screen, "first_die_carried", None)  # the die that accepted a sure proposal
        if carried is not None and carried[0] == self.state.round and self.state.turn is not None:
            self.first = carried[1]
        screen.first_die_carried = None

    def build(self, expect: Any) -> Widget:
        who = expect.player
        state = self.state
        root = BoxLayout(orientation="vertical", spacing=theme.GAP)
        if state.round >= 8:
            root.add_widget(TextLabel(_("From round 8, high dice count as 1 (shown under the die)."),
                                      size=theme.FONT_SMALL, color=theme.WARN, size_hint_y=None, height=24))
        roomy = self.screen.roomy()
        if self.screen.portrait():  # two rows of three dice, as big as the width allows
            grid: BoxLayout | GridLayout = GridLayout(cols=3, spacing=theme.GAP,
                                                      **theme.touch_row(True, 2 * 110, tallest=2 * 270))
        else:
            grid = BoxLayout(spacing=theme.GAP, **theme.touch_row(roomy, 110, tallest=170))
        for colour in CUBE_COLOURS:
            pips = state.dice.get(colour, 0)
            die = DieWidget(colour, pips)
            die.selected = colour == self.first
            rolled = state.rolled.get(colour, pips)
            die.note = _("rolled {n}").format(n=rolled) if rolled != pips else _("sector {n}").format(n=pips)
            die.bind(on_release=lambda _w, c=colour: self.tap(who, c))
            grid.add_widget(die)
        root.add_widget(grid)
        chosen = Panel(size_hint_y=None, height=40, padding=(8, 0))
        chosen.add_widget(TextLabel(
            _("First die: {colour}. Now tap the second; {colour} again puts it back.").format(
                colour=translator.gettext(self.first)) if self.first
            else _("Each die brings as many cubes as it shows, to that sector."),
            size=theme.FONT_SMALL))
        root.add_widget(chosen)
        for hint in expect.hints:  # a punish marker ahead, said before the choice makes it happen
            root.add_widget(TextLabel(translator.message(hint), size=theme.FONT_SMALL, color=theme.WARN, bold=True,
                                      size_hint_y=None, height=44))
        root.add_widget(Widget(size_hint_y=0.2 if roomy else 1))
        return root

    def tap(self, who: str, colour: str) -> None:
        if self.first is None:
            self.first = colour
            self.redraw()
        elif self.first == colour:
            self.first = None
            self.redraw()
        else:
            first, self.first = self.first, None
            self.app.act({"type": "choose_dice", "player": who, "dice": [first, colour]})

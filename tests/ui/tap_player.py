"""Plays a seeded game of Macao on the real screens by taps only.

The rules core's seeded random table says what the table does next; this
player performs each of those actions by tapping what a person would tap,
and counts the taps per round. The table's own state is the reference the
test compares the app against.

Every tap is counted under one of three parts, so "taps beyond the actions the
players take" is a figure of its own:
- table facts: copying what lies on the table into the app (the cards' printed
  cost and tribute, the dice, a quarter's printed cost and tile, a port's
  prestige, the roll button press);
- actions: the players' own choices (which action, card, dice, cubes to pay,
  spaces, good, joker, end of turn);
- overhead: taps that only move the form along (choosing a card slot, a die to
  correct, confirm buttons, a scroll to reach a known card).
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.uix.layout import Layout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from app.games.macao import CUBE_COLOURS, legal_options
from app.games.macao.simulate import RandomTable
from app.ui.macao.player_sheet import OneTapModal
from tests.ui.harness import UiHarness, parents

FACTS, ACTIONS, OVERHEAD = "table facts", "actions", "overhead"
PARTS = (FACTS, ACTIONS, OVERHEAD)


# The card phase: every tap from the reveal to the round's last draft pick.
CARD_PHASE = ("reveal", "take_card")

# What a tap beyond the actions is for, by the action being entered (a tap may name its own).
BEYOND_KIND = {"reveal": "card entry", "setup_draw": "card entry", "roll": "roll: corrections",
               "take_quarter": "quarter: printed cost and tile", "deliver": "delivery: port's prestige",
               "final": "game end"}


def open_summary() -> ModalView | None:
    """The round's summary shown over the game screen, if one is open (not a dialog such as
    "which card goes?", which asks for an answer)."""
    return next((child for child in Window.children if isinstance(child, OneTapModal)), None)


def lay_out(view: Widget) -> None:
    """Lay out a view just opened over the screen, as its first frame would."""
    for _pass in range(3):
        for child in view.walk():
            if isinstance(child, Layout):
                child.do_layout()


def twin_on_summary(summary: ModalView, widget: Widget) -> Widget | None:
    """The button on the summary's next-move row tagged as `widget` is, if it has one."""
    tag, row = getattr(widget, "tag", None), getattr(summary, "next_move", None)
    if tag is None or row is None:
        return None
    return next((w for w in row.walk(restrict=True) if getattr(w, "tag", None) == tag), None)


class TapPlayer:
    """`cards`: "typed" (the "check costs" setting: every card's cost, kind and tribute typed at
    reveal) or "tribute" (the table taps only each card's tribute; a card's cost is the cubes
    paid when someone activates it)."""

    def __init__(self, ui: UiHarness, seed: int, players: int = 2, activity: float = 0.7,
                 use_catalogue: bool = False, camera: Any = None, stage_roll: Any = None,
                 cards: str = "typed") -> None:
        self.ui = ui
        self.camera = camera  # (dice station, MockFactory, clock) to roll with the button and camera
        self.stage_roll = stage_roll  # (throw, dice) -> None: puts the table's roll before the camera
        self.camera_rolls = 0
        self.use_catalogue = use_catalogue  # pick cards from the learned catalogue instead of typing them
        self.cards = cards
        self.table = RandomTable(seed, players=players, activity=activity,
                                 unknown_costs=1.0 if cards == "tribute" else 0.0)
        self.card_phase_by_round: dict[int, int] = {}
        ui.app.context.settings.check_costs = cards == "typed"
        self.taps_by_round: dict[int, int] = {}
        self.taps_by_kind: dict[str, int] = {}  # per action type: where a round's taps go
        self.taps_by_part: dict[int, dict[str, int]] = {}  # per round: table facts, actions, overhead
        self.beyond_by_kind: dict[int, dict[str, int]] = {}  # per round: what the taps beyond the actions were
        self.round = 0
        self.doing = "set-up"  # the kind of a tap beyond the actions when no other is named
        self.pending_confirm: str | None = None  # the kind of a form's Confirm still to tap

    @property
    def session(self) -> Any:
        return self.ui.app.session

    def press(self, widget: Widget, part: str, kind: str = "") -> None:
        """Tap `widget`; over it a round's summary: the same button on the summary's next-move
        row if it has one (closing it too), else one tap closes the summary first."""
        summary = open_summary()
        if summary is not None:
            twin = twin_on_summary(summary, widget)
            if twin is not None:
                lay_out(summary)  # drawn, as a finger would see it, before the tap finds its place
                self.ui.tap(twin)
                self.count(part, kind)
                return
            self.ui.tap_at(Window.width / 2, Window.height / 2)
            self.count(OVERHEAD, "round summary")
        self.ui.tap(widget)
        self.count(part, kind)

    def count(self, part: str, kind: str = "") -> None:
        """One tap under its part; a tap beyond the actions also under its kind (`kind`, else what
        the tap was for: "card entry", "roll", "confirm dice", ...), for the bench's breakdown."""
        parts = self.taps_by_part.setdefault(self.round, dict.fromkeys(PARTS, 0))
        parts[part] += 1
        if part != ACTIONS:
            kinds = self.beyond_by_kind.setdefault(self.round, {})
            kinds[kind or self.doing] = kinds.get(kind or self.doing, 0) + 1

    def tap(self, *tag: Any, part: str = ACTIONS, kind: str = "") -> None:
        if tag[0] == "tribute" and not self.ui.find(Widget, tag=tuple(tag)):
            # A pair the pad does not show now sits behind its toggle ("Other" or "Usual").
            self.press(self.ui.tagged("tribute", "more"), OVERHEAD, "card entry: tribute toggle")
        self.press(self.ui.tagged(*tag), part, kind)

    def tap_text(self, text: str, part: str = OVERHEAD, kind: str = "") -> None:
        self.press(self.ui.button(text), part, kind)

    # -- set-up --------------------------------------------------------------------
    def seat_players(self) -> None:
        """Start screen -> New game -> Macao -> seat the colours in wall order (top first) -> start."""
        self.tap_text("New game")
        self.tap("game", "macao", part=OVERHEAD)
        for colour in self.table.wall:
            self.tap("seat", colour, part=FACTS)
        self.tap_text("Start the game")

    # -- one action ----------------------------------------------------------------
    def step(self) -> dict[str, Any]:
        """Let the table choose its next action and perform it by taps; returns the action."""
        round_before = self.round = self.session.state.round
        taps_before = self.ui.taps
        self.before = self.table.state.copy()
        self.table.step()
        action = self.table.actions[-1]
        self.doing = BEYOND_KIND.get(action["type"], f"{action['type']}: form's extra taps")
        if not self.settle_form(action):
            getattr(self, "do_" + action["type"])(action)
        if self.ui.app.notice.level == "error":
            raise AssertionError(f"the app refused {action}: {self.ui.app.notice.text}")
        self.close_summary()
        taps = self.ui.taps - taps_before
        self.taps_by_round[round_before] = self.taps_by_round.get(round_before, 0) + taps
        self.taps_by_kind[action["type"]] = self.taps_by_kind.get(action["type"], 0) + taps
        if action["type"] in CARD_PHASE:
            number = self.table.state.round  # the reveal opens the round it belongs to
            self.card_phase_by_round[number] = self.card_phase_by_round.get(number, 0) + taps
        return action

    def close_summary(self) -> None:
        """The round's summary, shown over the screen when a round ends, closes with one tap
        anywhere; one that offers the next move (the first card's tribute) waits for it (press)."""
        summary = open_summary()
        if summary is not None and getattr(summary, "next_move", None) is None:
            self.ui.tap_at(Window.width / 2, Window.height / 2)
            self.count(OVERHEAD, "round summary")

    def defer_confirm(self) -> None:
        """A form waits for Confirm: the player taps it with what comes next (see settle_form)."""
        self.pending_confirm = self.doing

    def settle_form(self, action: dict[str, Any]) -> bool:
        """A form left open for Confirm: when the player's next move is the end of the turn, the
        form's "Confirm, end turn" does both (one tap, the end of turn); else Confirm first.
        Whether `action` is done."""
        if self.pending_confirm is None:
            return False
        kind, self.pending_confirm = self.pending_confirm, None
        if action["type"] == "end_turn":
            self.tap("confirm", "end_turn")
            return True
        self.tap("confirm", True, part=OVERHEAD, kind=kind)
        return False

    def play_until(self, done: Any) -> None:
        while not done(self.table.state):
            self.step()

    def enter_cards(self, cards: list[dict[str, Any]]) -> None:
        if self.cards == "tribute":
            self.tap_tributes(cards)
        else:
            self.type_cards(cards)

    def tap_tributes(self, cards: list[dict[str, Any]]) -> None:
        """One tap per card on the tribute pad: each tap moves on to the next card, and the tap
        that completes the last one sends them. Abbot and Jester are said at activation."""
        for card in cards:
            self.tap("tribute", *card["tribute"], part=FACTS)

    def type_cards(self, cards: list[dict[str, Any]]) -> None:
        """Each card typed in (cost, kind, then the tribute pair, which moves on to the next card),
        or, with the catalogue, picked from the known cards once the cost cubes typed so far
        have narrowed the list enough to show it without scrolling."""
        known = {(c["kind"], c["name"]): c for c in self.ui.app.context.catalogue.cards()}
        for index, card in enumerate(cards):
            panel = self.ui.app.manager.get_screen("game").current_panel()
            if panel.selected != index:
                self.tap("slot", index, part=OVERHEAD)
            if self.use_catalogue and known.get((card["kind"], card["name"])) == card:
                self.pick_known(card)
                continue
            for colour in card["cost"]:
                self.tap("cube", colour, part=FACTS)
            if card["kind"] == "person":
                self.tap("kind", "person", part=FACTS)
            for effect in card.get("effects", []):
                self.tap("effect", effect, part=FACTS)
            self.tap("tribute", *card["tribute"], part=FACTS)
        self.tap_text("Cards are right", kind="card entry: confirm cards")

    def pick_known(self, card: dict[str, Any]) -> None:
        tag = ("known", card["kind"], card["name"])
        for colour in card["cost"]:
            if self._in_view(self.ui.tagged(*tag)):
                break
            self.tap("cube", colour, part=FACTS)
        if not self._in_view(self.ui.tagged(*tag)):
            self.count(OVERHEAD)  # the swipe that scrolls the list to the card
            self.ui.taps += 1
        self.tap(*tag, part=FACTS)

    @staticmethod
    def _in_view(widget: Widget) -> bool:
        """Whether the widget shows whole inside its scrolling list as the list stands."""
        scroll = next((p for p in parents(widget) if isinstance(p, ScrollView)), None)
        if scroll is None:
            return True
        left, bottom = scroll.to_window(scroll.x, scroll.y)
        x, y = widget.to_window(widget.x, widget.y)
        return bottom - 1 <= y and y + widget.height <= bottom + scroll.height + 1

    def do_setup_draw(self, action: dict[str, Any]) -> None:
        self.enter_cards(action["cards"])

    def do_reveal(self, action: dict[str, Any]) -> None:
        self.enter_cards(list(action["office"]) + list(action["cards"]))

    def do_setup_pick(self, action: dict[str, Any]) -> None:
        self.tap("card", action["card"])

    def do_setup_cubes(self, action: dict[str, Any]) -> None:
        self.tap("one", action["one"])
        self.tap("two", action["two"])

    def do_take_card(self, action: dict[str, Any]) -> None:
        self.tap("card", action["card"])
        if "discard" in action:
            self.tap("discard", action["discard"])

    def do_roll(self, action: dict[str, Any]) -> None:
        if self.camera is not None:
            self.roll_with_camera(action)
            return
        for colour in CUBE_COLOURS:  # the first die is selected; each number moves on to the next die
            self.tap("pips", action["dice"][colour], part=FACTS, kind="roll: typed dice")
        self.tap_text("Dice are right", kind="roll: confirm dice")

    def roll_with_camera(self, action: dict[str, Any]) -> None:
        """Press the physical button, let the camera read, then correct the dice that differ."""
        station, pins, clock = self.camera
        if self.stage_roll is not None:
            self.stage_roll(self.camera_rolls + 1, action["dice"])
        pins.pin(17).drive_low()
        clock.now += 0.2
        pins.pin(17).drive_high()
        self.ui.taps += 1  # the button press is the player's one move to start the roll
        self.count(FACTS, "roll: button")
        for _ in range(800):
            clock.now += 0.1
            station.button.poll(clock.now)
            station.service.tick(clock.now)
            if station.service.state.value in ("proposed", "error"):
                break
        self.ui.idle()
        if station.service.state.value != "proposed":
            raise AssertionError(f"no camera proposal: {station.service.status.message}")
        self.camera_rolls += 1
        panel = self.ui.app.manager.get_screen("game").current_panel()
        for _ in range(10):  # the proposal reaches the panel through Kivy's clock
            if panel.proposal is not None:
                break
            self.ui.idle()
        if panel.sure():
            if all(panel.values[c] == action["dice"][c] for c in CUBE_COLOURS):
                return  # the first player's first die accepts the roll (counted as that choice)
            self.tap("correct", "dice", part=OVERHEAD, kind="roll: corrections")
        for colour in CUBE_COLOURS:
            die = next(w for w in self.ui.walk() if getattr(w, "colour", None) == colour and hasattr(w, "unsure"))
            if die.value != action["dice"][colour]:
                if not die.selected:
                    self.press(die, OVERHEAD)
                self.tap("pips", action["dice"][colour], part=FACTS)
        self.tap_text("Dice are right", kind="roll: confirm dice")

    def do_choose_dice(self, action: dict[str, Any]) -> None:
        for colour in action["dice"]:
            die = next(w for w in self.ui.walk() if getattr(w, "colour", None) == colour and hasattr(w, "selected"))
            self.press(die, ACTIONS)

    def do_activate(self, action: dict[str, Any]) -> None:
        """A card of known cost is paid by its button; one of unknown cost asks for the cubes paid
        (they become its cost): the cube after which the payment can grow no further sends it,
        else it waits for Confirm (one cube fewer could be a cost as well)."""
        self.tap("activate", action["card"])
        if "pay" not in action:
            return
        card = self.before.player(action["player"]).tableau[action["card"]]
        for effect in card.effects:  # the table's card as printed: Abbot or Jester, said first
            self.tap("activation_effect", effect, part=FACTS, kind="activate: Abbot or Jester")
        for colour in action["pay"]:
            self.tap("cube", colour)
        if self.ui.app.manager.get_screen("game").current_panel().form == "activate":
            self.defer_confirm()  # the payment could still grow: it waits for Confirm

    def do_take_quarter(self, action: dict[str, Any]) -> None:
        """The quarter's printed cost, then its tile: the tile tap sends it."""
        self.tap("action", "take_quarter")
        for colour in action["cost"]:
            self.tap("cube", colour, part=FACTS)
        self.tap("tile", action["tile"], part=FACTS)

    def _spaces_and_pay(self, kind: str, action: dict[str, Any]) -> None:
        """Spaces in one tap; the cube that completes the payment sends it, unless the app
        has filled in the only possible payment, which the player confirms."""
        self.tap("action", kind)
        if action["spaces"] > 1:
            self.set_number("spaces", action["spaces"])
        panel = self.ui.app.manager.get_screen("game").current_panel()
        if panel.pay:
            assert sorted(panel.pay) == sorted(action["pay"]), (panel.pay, action)
            self.defer_confirm()
            return
        for colour in action["pay"]:
            self.tap("cube", colour)

    def set_number(self, key: str, number: int) -> None:
        """A number on a number pad: one tap, or the "N+" button tapped on to a large one."""
        if any(getattr(w, "tag", None) == (key, number) for w in self.ui.walk()):
            self.tap(key, number)
            return
        panel = self.ui.app.manager.get_screen("game").current_panel()
        while getattr(panel, key) != number:
            self.tap(key, "more")

    def do_wall(self, action: dict[str, Any]) -> None:
        self._spaces_and_pay("wall", action)

    def do_ship(self, action: dict[str, Any]) -> None:
        self._spaces_and_pay("ship", action)

    def do_deliver(self, action: dict[str, Any]) -> None:
        """The good (chosen already when the ship carries one kind), then the port's prestige sends it."""
        self.tap("action", "deliver")
        panel = self.ui.app.manager.get_screen("game").current_panel()
        if panel.good != action["good"]:
            self.tap("good", action["good"])
        self.tap("value", action["prestige"], part=FACTS)

    def do_buy_prestige(self, action: dict[str, Any]) -> None:
        self.tap("action", "buy_prestige")

    def do_joker(self, action: dict[str, Any]) -> None:
        """A joker is sent at the pick that completes it; one pick of two needs Confirm."""
        self.tap("action", "joker")
        take = action["take"] if isinstance(action["take"], list) else [action["take"]]
        for item in take:
            self.tap("cube", item)
        panel = self.ui.app.manager.get_screen("game").current_panel()
        if panel.form == "joker":
            self.defer_confirm()

    def do_card_effect(self, action: dict[str, Any]) -> None:
        """Cards are unnamed on screen (no typing), so the table's card is found by its place."""
        table_names = [e.name for e in self._table_effects() if e.ok]
        screen_names = [e.name for e in self.session.options(action["player"]).card_effects if e.ok]
        self.tap("action", "card_effect")
        name = screen_names[table_names.index(action["card"])]
        if len(screen_names) > 1:
            self.tap("effect_card", name)
        for key, part in (("gain_gold", action.get("gain", {}).get("gold", 0)),
                          ("gain_prestige", action.get("gain", {}).get("prestige", 0)),
                          ("pay_gold", action.get("pay", {}).get("gold", 0))):
            if part:
                self.set_number(key, part)
        self.defer_confirm()

    def _table_effects(self) -> Any:
        """The card effects the table could use just before its action (its state has moved on)."""
        return legal_options(self.before, self.table.actions[-1]["player"]).card_effects

    def do_end_turn(self, action: dict[str, Any]) -> None:
        self.tap("action", "end_turn")

    def do_final(self, action: dict[str, Any]) -> None:
        """Card points, then city group, on the number pad (the lit field moves on), then Save."""
        colour = action["player"]
        panel = self.ui.app.manager.get_screen("game").current_panel()
        for index, field in enumerate(("card_points", "city_group")):
            if panel.field != (colour, index):
                self.tap(f"{colour}:{field}", "field", part=OVERHEAD)
            self.final_number(action[field])
        self.tap("save", colour, part=OVERHEAD)

    def final_number(self, number: int) -> None:
        if any(getattr(w, "tag", None) == ("final", number) for w in self.ui.walk()):
            self.tap("final", number, part=FACTS)
            return
        panel = self.ui.app.manager.get_screen("game").current_panel()
        colour, index = panel.field
        while panel.entries[colour][index] != number:
            self.tap("final", "more", part=FACTS)

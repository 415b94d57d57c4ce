"""Plays a seeded game of Macao on the real screens by taps only.

The rules core's seeded random table says what the table does next; this
player performs each of those actions by tapping what a person would tap,
and counts the taps per round. The table's own state is the reference the
test compares the app against.
"""

from __future__ import annotations

from typing import Any

from app.games.macao import CUBE_COLOURS, legal_options
from app.games.macao.simulate import RandomTable
from tests.ui.harness import UiHarness


class TapPlayer:
    def __init__(self, ui: UiHarness, seed: int, players: int = 2, activity: float = 0.7,
                 use_catalogue: bool = False, camera: Any = None) -> None:
        self.ui = ui
        self.camera = camera  # (dice station, MockFactory, clock) to roll with the button and camera
        self.camera_rolls = 0
        self.use_catalogue = use_catalogue  # pick cards from the learned catalogue instead of typing them
        self.table = RandomTable(seed, players=players, activity=activity)
        self.taps_by_round: dict[int, int] = {}
        self.taps_by_kind: dict[str, int] = {}  # per action type: where a round's taps go

    @property
    def session(self) -> Any:
        return self.ui.app.session

    def tap(self, *tag: Any) -> None:
        self.ui.tap(self.ui.tagged(*tag))

    def tap_text(self, text: str) -> None:
        self.ui.tap_text(text)

    # -- set-up --------------------------------------------------------------------
    def seat_players(self) -> None:
        """Start screen -> New game -> seat the colours in wall order (top first) -> start."""
        self.tap_text("New game")
        for colour in self.table.wall:
            self.tap("seat", colour)
        self.tap_text("Start the game")

    # -- one action ----------------------------------------------------------------
    def step(self) -> dict[str, Any]:
        """Let the table choose its next action and perform it by taps; returns the action."""
        round_before = self.session.state.round
        taps_before = self.ui.taps
        self.before = self.table.state.copy()
        self.table.step()
        action = self.table.actions[-1]
        getattr(self, "do_" + action["type"])(action)
        if self.ui.app.notice.level == "error":
            raise AssertionError(f"the app refused {action}: {self.ui.app.notice.text}")
        taps = self.ui.taps - taps_before
        self.taps_by_round[round_before] = self.taps_by_round.get(round_before, 0) + taps
        self.taps_by_kind[action["type"]] = self.taps_by_kind.get(action["type"], 0) + taps
        return action

    def play_until(self, done: Any) -> None:
        while not done(self.table.state):
            self.step()

    def enter_cards(self, cards: list[dict[str, Any]]) -> None:
        """Each card in one tap from the catalogue when it knows it exactly, else typed in."""
        known = {(c["kind"], c["name"]): c for c in self.ui.app.context.catalogue.cards()}
        for index, card in enumerate(cards):
            panel = self.ui.app.manager.get_screen("game").current_panel()
            if panel.selected != index:
                self.tap("slot", index)
            if self.use_catalogue and known.get((card["kind"], card["name"])) == card:
                self.tap("known", card["kind"], card["name"])
                continue
            for colour in card["cost"]:
                self.tap("cube", colour)
            gold, prestige = card["tribute"]
            if gold:
                self.tap("gold", gold)
            if prestige:
                self.tap("prestige", prestige)
            if card["kind"] == "person":
                self.tap("kind", "person")
            for effect in card.get("effects", []):
                self.tap("effect", effect)
        self.tap_text("Cards are right")

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
            self.tap("pips", action["dice"][colour])
        self.tap_text("Dice are right")

    def roll_with_camera(self, action: dict[str, Any]) -> None:
        """Press the physical button, let the camera read, then correct the dice that differ."""
        station, pins, clock = self.camera
        pins.pin(17).drive_low()
        clock.now += 0.2
        pins.pin(17).drive_high()
        self.ui.taps += 1  # the button press is the player's one move to start the roll
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
        for colour in CUBE_COLOURS:
            die = next(w for w in self.ui.walk() if getattr(w, "colour", None) == colour and hasattr(w, "unsure"))
            if die.value != action["dice"][colour]:
                if not die.selected:
                    self.ui.tap(die)
                self.tap("pips", action["dice"][colour])
        self.tap_text("Dice are right")

    def do_choose_dice(self, action: dict[str, Any]) -> None:
        for colour in action["dice"]:
            die = next(w for w in self.ui.walk() if getattr(w, "colour", None) == colour and hasattr(w, "selected"))
            self.ui.tap(die)

    def do_activate(self, action: dict[str, Any]) -> None:
        self.tap("activate", action["card"])

    def do_take_quarter(self, action: dict[str, Any]) -> None:
        self.tap("action", "take_quarter")
        for colour in action["cost"]:
            self.tap("cube", colour)
        self.tap("tile", action["tile"])
        self.tap("confirm", True)

    def _spaces_and_pay(self, kind: str, action: dict[str, Any]) -> None:
        self.tap("action", kind)
        for _ in range(action["spaces"] - 1):
            self.tap("spaces", 1)
        for colour in action["pay"]:
            self.tap("cube", colour)
        self.tap("confirm", True)

    def do_wall(self, action: dict[str, Any]) -> None:
        self._spaces_and_pay("wall", action)

    def do_ship(self, action: dict[str, Any]) -> None:
        self._spaces_and_pay("ship", action)

    def do_deliver(self, action: dict[str, Any]) -> None:
        self.tap("action", "deliver")
        self.tap("good", action["good"])
        if action["prestige"]:
            self.tap("value", action["prestige"])
        self.tap("confirm", True)

    def do_buy_prestige(self, action: dict[str, Any]) -> None:
        self.tap("action", "buy_prestige")

    def do_joker(self, action: dict[str, Any]) -> None:
        self.tap("action", "joker")
        take = action["take"] if isinstance(action["take"], list) else [action["take"]]
        for item in take:
            self.tap("cube", item)
        self.tap("confirm", True)

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
            for _ in range(part):
                self.tap(key, 1)
        self.tap("confirm", True)

    def _table_effects(self) -> Any:
        """The card effects the table could use just before its action (its state has moved on)."""
        return legal_options(self.before, self.table.actions[-1]["player"]).card_effects

    def do_end_turn(self, action: dict[str, Any]) -> None:
        self.tap("action", "end_turn")

    def do_final(self, action: dict[str, Any]) -> None:
        colour = action["player"]
        for _ in range(action["card_points"]):
            self.tap(f"{colour}:card_points", 1)
        for _ in range(action["city_group"]):
            self.tap(f"{colour}:city_group", 1)
        self.tap("save", colour)


"""A small, independent bookkeeper that writes Macao game records for tests.

It exists so golden records can be written round by round without counting
windrose cubes by hand: it tracks every player's windrose, supply, gold,
prestige and punish markers, refuses any action it considers illegal (so a
record it writes is valid per spec/macao-record.md), and can fill in cube
payments from what a player actually holds. It shares no code with the rules
core on purpose: golden tests compare two separate readings of the rules.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

COLOURS = ("red", "blue", "green", "black", "gray", "violet")
GOODS = ("lacquer", "rice", "tea", "jade", "silk", "paper", "porcelain", "spices")
WALL_SPACES = 16


class BuilderError(Exception):
    """An action the builder's reading of the rules does not allow."""


def card(
    name: str,
    kind: str,
    cost: list[str],
    tribute: tuple[int, int],
    effects: list[str] | None = None,
) -> dict[str, Any]:
    """A card as the record format writes it."""
    doc: dict[str, Any] = {"name": name, "kind": kind, "cost": list(cost), "tribute": list(tribute)}
    if effects:
        doc["effects"] = list(effects)
    return doc


@dataclass
class Seat:
    """One player's books."""

    colour: str
    name: str
    gold: int = 5
    prestige: int = 0
    punish: int = 0
    windrose: list[Counter] = field(default_factory=lambda: [Counter() for _ in range(7)])
    tableau: list[dict[str, Any]] = field(default_factory=list)
    activated: list[dict[str, Any]] = field(default_factory=list)
    ship: list[str] = field(default_factory=list)
    jokers: int = 0
    quarters: int = 0
    used: set[str] = field(default_factory=set)
    effects_used: set[str] = field(default_factory=set)
    final: tuple[int, int] | None = None
    ledger: list[str] = field(default_factory=list)
    sailed: bool = False
    berth: str | None = None  # where the last ship move said it went, if it said

    @property
    def supply(self) -> Counter:
        return self.windrose[0]

    def has_effect(self, tag: str) -> bool:
        return any(tag in c.get("effects", []) for c in self.activated)


class RecordBuilder:
    """Writes a record action by action, checking each one first."""

    def __init__(self, players: list[tuple[str, str]], wall: list[str], started: str) -> None:
        self.seats = {colour: Seat(colour, name) for colour, name in players}
        self.order_of_record = [colour for colour, _ in players]
        if sorted(wall) != sorted(self.order_of_record):
            raise BuilderError("wall must hold every player once")
        self.doc = {
            "format": "macao-record/1",
            "started": started,
            "players": [{"colour": c, "name": n} for c, n in players],
            "wall": list(wall),
            "actions": [],
        }
        self.spaces: list[list[str]] = [[] for _ in range(WALL_SPACES)]
        self.spaces[0] = list(wall)
        self.round = 0
        self.phase = "setup_draw"
        self.pending: list[str] = []
        self.setup_cards: list[dict | None] = []
        self.revealed: list[dict | None] = []
        self.tribute = (0, 0)
        self.dice: dict[str, int] = {}
        self.tiles = {good: 3 for good in GOODS}
        self.jokers_on_board = 6
        self.port_wants: dict[str, str] = {}

    # ----- helpers -------------------------------------------------------
    def seat(self, colour: str) -> Seat:
        return self.seats[colour]

    def turn_order(self) -> list[str]:
        """Front to back along the wall, top to bottom in a stack."""
        return [c for space in reversed(self.spaces) for c in space]

    def wall_space(self, colour: str) -> int:
        for index, stack in enumerate(self.spaces):
            if colour in stack:
                return index
        raise BuilderError(colour)

    def _emit(self, action: dict[str, Any]) -> None:
        self.doc["actions"].append(action)

    def _expect(self, phase: str, colour: str | None) -> None:
        if self.phase != phase:
            raise BuilderError(f"expected phase {self.phase}, not {phase}")
        if colour is not None and (not self.pending or self.pending[0] != colour):
            raise BuilderError(f"{colour} acts out of turn; waiting for {self.pending[:1]}")

    def _pay_cubes(self, seat: Seat, cubes: list[str]) -> None:
        need = Counter(cubes)
        for colour, count in need.items():
            if seat.supply[colour] < count:
                raise BuilderError(f"{seat.colour} cannot pay {cubes}; supply {dict(seat.supply)}")
        for colour, count in need.items():
            seat.supply[colour] -= count
            if seat.supply[colour] == 0:
                del seat.supply[colour]

    def _gain_cubes(self, seat: Seat, cubes: list[str]) -> None:
        for colour in cubes:
            if colour not in COLOURS:
                raise BuilderError(colour)
            seat.supply[colour] += 1

    def any_cubes(self, colour: str, count: int) -> list[str]:
        """Pick `count` cubes from the supply (most plentiful colour first)."""
        supply = self.seat(colour).supply
        picked: list[str] = []
        pool = Counter(supply)
        while len(picked) < count:
            if not pool:
                raise BuilderError(f"{colour} has only {sum(supply.values())} cubes, needs {count}")
            best = sorted(pool.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            picked.append(best)
            pool[best] -= 1
            if pool[best] == 0:
                del pool[best]
        return picked

    def supply_size(self, colour: str) -> int:
        return sum(self.seat(colour).supply.values())

    # ----- set-up ---------------------------------------------------------
    def setup_draw(self, cards: list[dict]) -> None:
        self._expect("setup_draw", None)
        if len(cards) != len(self.seats) + 2:
            raise BuilderError("setup draws players + 2 cards")
        self.setup_cards = list(cards)
        self._emit({"type": "setup_draw", "cards": cards})
        self.phase = "setup_pick"
        self.pending = list(reversed(self.spaces[0]))

    def setup_pick(self, colour: str, index: int) -> None:
        self._expect("setup_pick", colour)
        picked = self.setup_cards[index]
        if picked is None:
            raise BuilderError("card already picked")
        self.seat(colour).tableau.append(picked)
        self.setup_cards[index] = None
        self._emit({"type": "setup_pick", "player": colour, "card": index})
        self.pending.pop(0)
        if not self.pending:
            self.phase = "setup_cubes"
            self.pending = list(self.spaces[0])

    def setup_cubes(self, colour: str, one: str, two: str) -> None:
        self._expect("setup_cubes", colour)
        seat = self.seat(colour)
        seat.windrose[1][one] += 1
        seat.windrose[2][two] += 2
        self._emit({"type": "setup_cubes", "player": colour, "one": one, "two": two})
        self.pending.pop(0)
        if not self.pending:
            self.phase = "reveal"
            self.round = 1

    # ----- phase 1 --------------------------------------------------------
    def reveal(self, office: list[dict], cards: list[dict]) -> tuple[int, int]:
        self._expect("reveal", None)
        if len(office) != 2 or len(cards) != 4:
            raise BuilderError("a round reveals two offices and four other cards")
        if any(c["kind"] != "office" for c in office) or any(c["kind"] == "office" for c in cards):
            raise BuilderError("offices first, then four building/person cards")
        six = list(office) + list(cards)
        self.tribute = (sum(c["tribute"][0] for c in six), sum(c["tribute"][1] for c in six))
        dropped = {4: 0, 3: 1, 2: 2}[len(self.seats)]
        self.revealed = list(six)
        for i in range(6 - dropped, 6):
            self.revealed[i] = None
        self._emit({"type": "reveal", "office": office, "cards": cards})
        for seat in self.seats.values():
            seat.used.clear()
            seat.effects_used.clear()
        self.phase = "take_card"
        self.pending = self.turn_order()
        return self.tribute

    def take_card(self, colour: str, index: int, discard: int | None = None) -> None:
        self._expect("take_card", colour)
        seat = self.seat(colour)
        chosen = self.revealed[index]
        if chosen is None:
            raise BuilderError(f"card {index} is gone")
        action: dict[str, Any] = {"type": "take_card", "player": colour, "card": index}
        tableau = seat.tableau + [chosen]
        if len(tableau) == 6:
            if discard is None:
                raise BuilderError("sixth card needs a discard")
            dropped = tableau.pop(discard)
            seat.punish += 1
            seat.ledger.append(f"r{self.round}: sixth card, discarded {dropped['name']}: punish +1")
            action["discard"] = discard
        elif discard is not None:
            raise BuilderError("discard only with a sixth card")
        seat.tableau = tableau
        self.revealed[index] = None
        self._emit(action)
        self.pending.pop(0)
        if not self.pending:
            self.phase = "roll"

    # ----- phase 2 --------------------------------------------------------
    def roll(self, dice: dict[str, int]) -> dict[str, int]:
        self._expect("roll", None)
        if sorted(dice) != sorted(COLOURS):
            raise BuilderError("all six dice")
        limit = 13 - self.round
        self.dice = {c: (1 if self.round >= 8 and p > limit else p) for c, p in dice.items()}
        self._emit({"type": "roll", "dice": dict(dice)})
        self.phase = "choose_dice"
        self.pending = self.turn_order()
        return self.dice

    def choose_dice(self, colour: str, first: str, second: str) -> None:
        self._expect("choose_dice", colour)
        if first == second:
            raise BuilderError("two different dice")
        seat = self.seat(colour)
        for die in (first, second):
            pips = self.dice[die]
            seat.windrose[pips][die] += pips
        self._emit({"type": "choose_dice", "player": colour, "dice": [first, second]})
        self.pending.pop(0)
        if not self.pending:
            self._turn_windroses()

    def _turn_windroses(self) -> None:
        for seat in self.seats.values():
            if sum(seat.windrose[0].values()):
                raise BuilderError("supply left over from last round")
            seat.windrose = seat.windrose[1:] + [Counter()]
            if not sum(seat.supply.values()):
                seat.punish += 1
                seat.ledger.append(f"r{self.round}: empty windrose supply: punish +1")
        self.phase = "actions"
        self.pending = self.turn_order()

    # ----- phase 3 --------------------------------------------------------
    def _acting(self, colour: str) -> Seat:
        self._expect("actions", colour)
        return self.seat(colour)

    def activate(self, colour: str, index: int, pay: list[str] | None = None) -> dict:
        """Pays the card's cost; a card revealed without one (`cost: null`) costs what `pay` names."""
        seat = self._acting(colour)
        chosen = seat.tableau[index]
        if chosen["cost"] is None:
            if not pay or (chosen["kind"] == "office" and len(set(pay)) > 1):
                raise BuilderError("a card of unknown cost needs a payment (one colour for an office)")
            chosen = {**chosen, "cost": list(pay)}
        elif pay is not None and sorted(pay) != sorted(chosen["cost"]):
            raise BuilderError(f"{chosen['name']} costs {chosen['cost']}, not {pay}")
        self._pay_cubes(seat, chosen["cost"])
        seat.tableau.pop(index)
        seat.activated.append(chosen)
        action: dict[str, Any] = {"type": "activate", "player": colour, "card": index}
        if pay is not None:
            action["pay"] = list(pay)
        self._emit(action)
        return chosen

    def activate_named(self, colour: str, name: str) -> dict:
        names = [c["name"] for c in self.seat(colour).tableau]
        return self.activate(colour, names.index(name))

    def take_quarter(self, colour: str, cost: list[str], tile: str) -> None:
        seat = self._acting(colour)
        if "quarter" in seat.used:
            raise BuilderError("one quarter a round")
        if tile == "joker":
            if self.jokers_on_board == 0:
                raise BuilderError("no joker left")
        elif self.tiles[tile] == 0:
            raise BuilderError(f"no {tile} left")
        self._pay_cubes(seat, cost)
        if tile == "joker":
            self.jokers_on_board -= 1
            seat.jokers += 1
        else:
            self.tiles[tile] -= 1
            seat.ship.append(tile)
        seat.quarters += 1
        seat.used.add("quarter")
        self._emit({"type": "take_quarter", "player": colour, "cost": list(cost), "tile": tile})

    def wall(self, colour: str, spaces: int, pay: list[str] | None = None) -> None:
        seat = self._acting(colour)
        if "wall" in seat.used:
            raise BuilderError("one wall move a round")
        if spaces < 1:
            raise BuilderError("at least one space")
        pay = pay if pay is not None else self.any_cubes(colour, 2 * spaces - 1)
        if len(pay) != 2 * spaces - 1:
            raise BuilderError("wall costs 2n-1")
        self._pay_cubes(seat, pay)
        start = self.wall_space(colour)
        self.spaces[start].remove(colour)
        target = start + spaces
        if target >= WALL_SPACES - 1:
            self.spaces[WALL_SPACES - 1].append(colour)
        else:
            self.spaces[target].insert(0, colour)
        seat.used.add("wall")
        self._emit({"type": "wall", "player": colour, "spaces": spaces, "pay": list(pay)})

    def ship(self, colour: str, spaces: int, pay: list[str] | None = None, to: str | None = None) -> None:
        seat = self._acting(colour)
        pay = pay if pay is not None else self.any_cubes(colour, spaces)
        if len(pay) != spaces or spaces < 1:
            raise BuilderError("ship costs one cube a space")
        self._pay_cubes(seat, pay)
        seat.sailed = True
        seat.berth = to
        action: dict[str, Any] = {"type": "ship", "player": colour, "spaces": spaces, "pay": list(pay)}
        if to is not None:
            action["to"] = to
        self._emit(action)

    def deliver(self, colour: str, good: str, prestige: int, port: str | None = None) -> None:
        seat = self._acting(colour)
        if good not in seat.ship:
            raise BuilderError(f"{good} not on the ship")
        if not seat.sailed:
            raise BuilderError("the ship starts off the route: it must sail before delivering")
        if port is not None and seat.berth is not None and port != seat.berth:
            raise BuilderError(f"the ship is at {seat.berth}, not {port}")
        if port is not None and self.port_wants.setdefault(port, good) != good:
            raise BuilderError(f"{port} takes only {self.port_wants[port]}")
        seat.ship.remove(good)
        seat.prestige += prestige
        seat.ledger.append(f"r{self.round}: delivered {good}: prestige +{prestige}")
        action: dict[str, Any] = {"type": "deliver", "player": colour, "good": good, "prestige": prestige}
        if port is not None:
            action["port"] = port
        self._emit(action)

    def buy_prestige(self, colour: str) -> None:
        seat = self._acting(colour)
        if "buy_prestige" in seat.used:
            raise BuilderError("once a round")
        price, gain = self.tribute
        if seat.gold < price:
            raise BuilderError(f"{colour} has {seat.gold} gold, price {price}")
        seat.gold -= price
        seat.prestige += gain
        seat.used.add("buy_prestige")
        seat.ledger.append(f"r{self.round}: bought prestige for {price} gold: prestige +{gain}")
        self._emit({"type": "buy_prestige", "player": colour})

    def joker(self, colour: str, take: Any) -> None:
        seat = self._acting(colour)
        if seat.jokers < 1:
            raise BuilderError("no joker")
        parts = ["gold"] if take == "gold" else list(take)
        if len(parts) == 2 and not seat.has_effect("double_jokers"):
            raise BuilderError("double take needs double_jokers")
        if len(parts) not in (1, 2):
            raise BuilderError("one or two parts")
        for part in parts:
            if part == "gold":
                seat.gold += 3
            else:
                self._gain_cubes(seat, [part])
        seat.jokers -= 1
        self._emit({"type": "joker", "player": colour, "take": take})

    def card_effect(
        self,
        colour: str,
        name: str,
        gain: dict[str, Any] | None = None,
        pay: dict[str, Any] | None = None,
        note: str | None = None,
    ) -> None:
        seat = self._acting(colour)
        named = [c for c in seat.activated if c["name"] == name]
        if not named:
            raise BuilderError(f"{name} not activated")
        repeatable = any("repeatable" in c.get("effects", []) for c in named)
        if name in seat.effects_used and not repeatable:
            raise BuilderError(f"{name} already used this round")
        pay = pay or {}
        gain = gain or {}
        if seat.gold < pay.get("gold", 0) or seat.prestige < pay.get("prestige", 0):
            raise BuilderError("cannot afford")
        self._pay_cubes(seat, pay.get("cubes", []))
        seat.gold -= pay.get("gold", 0)
        seat.prestige -= pay.get("prestige", 0)
        self._gain_cubes(seat, gain.get("cubes", []))
        seat.gold += gain.get("gold", 0)
        seat.prestige += gain.get("prestige", 0)
        if gain.get("prestige") or pay.get("prestige"):
            net = gain.get("prestige", 0) - pay.get("prestige", 0)
            seat.ledger.append(f"r{self.round}: card {name}: prestige {net:+d}")
        seat.effects_used.add(name)
        action: dict[str, Any] = {"type": "card_effect", "player": colour, "card": name}
        if gain:
            action["gain"] = gain
        if pay:
            action["pay"] = pay
        if note:
            action["note"] = note
        self._emit(action)

    def end_turn(self, colour: str) -> None:
        seat = self._acting(colour)
        seat.windrose[0] = Counter()
        self._emit({"type": "end_turn", "player": colour})
        self.pending.pop(0)
        if not self.pending:
            if self.round == 12:
                self.phase = "final"
                self.pending = []
                self.round = 13
            else:
                self.round += 1
                self.phase = "reveal"

    # ----- any time -------------------------------------------------------
    def adjust(self, colour: str, note: str, gold: int = 0, prestige: int = 0, punish: int = 0) -> None:
        seat = self.seat(colour)
        if seat.gold + gold < 0 or seat.prestige + prestige < 0 or seat.punish + punish < 0:
            raise BuilderError("adjust below zero")
        seat.gold += gold
        seat.prestige += prestige
        seat.punish += punish
        seat.ledger.append(f"r{self.round}: adjust gold {gold:+d} prestige {prestige:+d} punish {punish:+d}")
        action: dict[str, Any] = {"type": "adjust", "player": colour}
        if gold:
            action["gold"] = gold
        if prestige:
            action["prestige"] = prestige
        if punish:
            action["punish"] = punish
        action["note"] = note
        self._emit(action)

    # ----- end ------------------------------------------------------------
    def final(self, colour: str, card_points: int, city_group: int) -> None:
        if self.phase != "final":
            raise BuilderError("final only after round 12")
        seat = self.seat(colour)
        if seat.final is not None:
            raise BuilderError("final given twice")
        if city_group > seat.quarters or (seat.quarters and city_group < 1):
            raise BuilderError("city group out of range")
        if card_points and not seat.activated:
            raise BuilderError("game-end card points need an activated card")
        seat.final = (card_points, city_group)
        self._emit({"type": "final", "player": colour, "card_points": card_points, "city_group": city_group})

    def scores(self) -> dict[str, Any]:
        """The builder's own reading of the end scoring (cross-check only)."""
        order = self.turn_order()
        rows = []
        for colour in self.order_of_record:
            seat = self.seat(colour)
            assert seat.final is not None, colour
            card_points, group = seat.final
            markers = seat.punish + (0 if seat.has_effect("no_tableau_penalty") else len(seat.tableau))
            total = max(0, seat.prestige - 3 * markers) + card_points + 2 * group
            rows.append(
                {
                    "colour": colour,
                    "name": seat.name,
                    "prestige": seat.prestige,
                    "card_points": card_points,
                    "city_points": 2 * group,
                    "punish_markers": markers,
                    "total": total,
                }
            )
        rows.sort(key=lambda row: (-row["total"], order.index(row["colour"])))
        for rank, row in enumerate(rows, start=1):
            row["rank"] = rank
        return {"players": rows, "winner": rows[0]["colour"]}

    def to_json(self) -> str:
        return json.dumps(self.doc, indent=2) + "\n"

    def apply(self, action: dict[str, Any]) -> None:
        """Apply an action written in the record format (for differential tests)."""
        kind = action["type"]
        who = action.get("player", "")
        if kind == "setup_draw":
            self.setup_draw(action["cards"])
        elif kind == "setup_pick":
            self.setup_pick(who, action["card"])
        elif kind == "setup_cubes":
            self.setup_cubes(who, action["one"], action["two"])
        elif kind == "reveal":
            self.reveal(action["office"], action["cards"])
        elif kind == "take_card":
            self.take_card(who, action["card"], action.get("discard"))
        elif kind == "roll":
            self.roll(action["dice"])
        elif kind == "choose_dice":
            self.choose_dice(who, *action["dice"])
        elif kind == "activate":
            self.activate(who, action["card"], action.get("pay"))
        elif kind == "take_quarter":
            self.take_quarter(who, action["cost"], action["tile"])
        elif kind in ("wall", "ship"):
            getattr(self, kind)(who, action["spaces"], action["pay"])
        elif kind == "deliver":
            self.deliver(who, action["good"], action["prestige"])
        elif kind == "buy_prestige":
            self.buy_prestige(who)
        elif kind == "joker":
            self.joker(who, action["take"])
        elif kind == "card_effect":
            self.card_effect(who, action["card"], action.get("gain"), action.get("pay"))
        elif kind == "end_turn":
            self.end_turn(who)
        elif kind == "adjust":
            self.adjust(who, action["note"], action.get("gold", 0), action.get("prestige", 0), action.get("punish", 0))
        elif kind == "final":
            self.final(who, action["card_points"], action["city_group"])
        else:
            raise BuilderError(f"unknown action {kind}")

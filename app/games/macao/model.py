"""Game state of Macao as plain data.

Everything here can be turned into JSON (`to_json`) so a state can be compared,
logged and shown; cards are immutable and shared between copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PLAYER_COLOURS: tuple[str, ...] = ("orange", "white", "yellow", "brown")
CUBE_COLOURS: tuple[str, ...] = ("red", "blue", "green", "black", "gray", "violet")
GOODS: tuple[str, ...] = ("lacquer", "rice", "tea", "jade", "silk", "paper", "porcelain", "spices")
CARD_KINDS: tuple[str, ...] = ("office", "building", "person")

WALL_SPACES = 16
ROUNDS = 12
START_GOLD = 5
TILES_PER_GOOD = 3
JOKER_TILES = 6
TABLEAU_LIMIT = 5
JOKER_GOLD = 3
PUNISH_PRESTIGE = 3
CITY_POINTS_PER_QUARTER = 2

# Card effect tags the rules act on.
NO_TABLEAU_PENALTY = "no_tableau_penalty"
DOUBLE_JOKERS = "double_jokers"
REPEATABLE = "repeatable"
# The effects an activation may name for a card whose effects were not given at its reveal.
ACTIVATION_EFFECTS: tuple[str, ...] = (NO_TABLEAU_PENALTY, DOUBLE_JOKERS)

# Once-per-round actions, as stored in PlayerState.used.
ONCE_PER_ROUND: tuple[str, ...] = ("take_quarter", "wall", "buy_prestige")

PHASES: tuple[str, ...] = (
    "setup_draw",
    "setup_pick",
    "setup_cubes",
    "reveal",
    "take_card",
    "roll",
    "choose_dice",
    "actions",
    "final",
    "over",
)


@dataclass(frozen=True)
class Card:
    """A card as printed: activation cost, tribute numbers and effect tags.

    `cost` is None while it is unknown (not entered at reveal); the cubes paid
    to activate the card then become its cost.
    """

    name: str
    kind: str
    cost: tuple[str, ...] | None
    tribute: tuple[int, int]
    effects: tuple[str, ...] = ()
    id: str | None = None

    @property
    def cost_known(self) -> bool:
        return self.cost is not None

    @property
    def gold(self) -> int:
        return self.tribute[0]

    @property
    def prestige(self) -> int:
        return self.tribute[1]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Card":
        return cls(
            name=data["name"],
            kind=data["kind"],
            cost=tuple(data["cost"]) if data["cost"] is not None else None,
            tribute=(int(data["tribute"][0]), int(data["tribute"][1])),
            effects=tuple(data.get("effects", ())),
            id=data.get("id"),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "cost": list(self.cost) if self.cost is not None else None,
            "tribute": list(self.tribute),
        }
        if self.effects:
            data["effects"] = list(self.effects)
        if self.id is not None:
            data["id"] = self.id
        return data


def empty_windrose() -> list[dict[str, int]]:
    """Seven piles: index 0 is this round's supply, 1..6 the die sectors."""
    return [{} for _ in range(7)]


@dataclass
class PlayerState:
    colour: str
    name: str
    gold: int = START_GOLD
    prestige: int = 0
    punish: int = 0
    windrose: list[dict[str, int]] = field(default_factory=empty_windrose)
    tableau: list[Card] = field(default_factory=list)
    activated: list[Card] = field(default_factory=list)
    ship: list[str] = field(default_factory=list)
    jokers: int = 0
    quarters: int = 0
    delivered: list[tuple[str, int]] = field(default_factory=list)
    ship_moves: int = 0
    ship_place: str | None = None
    used: set[str] = field(default_factory=set)
    effects_used: dict[str, int] = field(default_factory=dict)
    final: tuple[int, int] | None = None
    cubes_taken: int = 0  # from the general supply, over the whole game
    cubes_returned: int = 0  # paid or handed back to the general supply

    @property
    def supply(self) -> dict[str, int]:
        return self.windrose[0]

    def has_effect(self, tag: str) -> bool:
        return any(tag in card.effects for card in self.activated)

    def cubes_held(self) -> int:
        return sum(sum(pile.values()) for pile in self.windrose)

    def copy(self) -> "PlayerState":
        return PlayerState(
            colour=self.colour,
            name=self.name,
            gold=self.gold,
            prestige=self.prestige,
            punish=self.punish,
            windrose=[dict(pile) for pile in self.windrose],
            tableau=list(self.tableau),
            activated=list(self.activated),
            ship=list(self.ship),
            jokers=self.jokers,
            quarters=self.quarters,
            delivered=list(self.delivered),
            ship_moves=self.ship_moves,
            ship_place=self.ship_place,
            used=set(self.used),
            effects_used=dict(self.effects_used),
            final=self.final,
            cubes_taken=self.cubes_taken,
            cubes_returned=self.cubes_returned,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "colour": self.colour,
            "name": self.name,
            "gold": self.gold,
            "prestige": self.prestige,
            "punish": self.punish,
            "windrose": [dict(sorted(pile.items())) for pile in self.windrose],
            "tableau": [card.to_json() for card in self.tableau],
            "activated": [card.to_json() for card in self.activated],
            "ship": list(self.ship),
            "jokers": self.jokers,
            "quarters": self.quarters,
            "delivered": [list(item) for item in self.delivered],
            "ship_moves": self.ship_moves,
            "ship_place": self.ship_place,
            "used": sorted(self.used),
            "effects_used": dict(sorted(self.effects_used.items())),
            "final": list(self.final) if self.final is not None else None,
            "cubes_taken": self.cubes_taken,
            "cubes_returned": self.cubes_returned,
        }


@dataclass
class GameState:
    players: list[PlayerState]
    wall: list[list[str]]
    round: int = 0
    phase: str = "setup_draw"
    order: list[str] = field(default_factory=list)  # who acts in this phase, in turn
    order_pos: int = 0
    setup_cards: list[Card | None] = field(default_factory=list)
    revealed: list[Card | None] = field(default_factory=list)
    tribute: tuple[int, int] = (0, 0)
    rolled: dict[str, int] = field(default_factory=dict)
    dice: dict[str, int] = field(default_factory=dict)
    tiles_left: dict[str, int] = field(default_factory=lambda: {g: TILES_PER_GOOD for g in GOODS})
    jokers_left: int = JOKER_TILES
    quarter_ids: set[str] = field(default_factory=set)  # quarters taken by id, over the whole game
    port_goods: dict[str, str] = field(default_factory=dict)  # the good each named port wants
    port_prestige: dict[str, int] = field(default_factory=dict)  # what a named port's last delivery scored
    actions_applied: int = 0

    def player(self, colour: str) -> PlayerState:
        for p in self.players:
            if p.colour == colour:
                return p
        raise KeyError(colour)

    def has_player(self, colour: object) -> bool:
        return any(p.colour == colour for p in self.players)

    @property
    def turn(self) -> str | None:
        """The colour expected to act now, or None when the whole table acts."""
        if self.order_pos < len(self.order):
            return self.order[self.order_pos]
        return None

    def turn_order(self) -> list[str]:
        """Front to back along the wall, top to bottom within a stack."""
        order: list[str] = []
        for space in reversed(self.wall):
            order.extend(space)
        return order

    def wall_position(self, colour: str) -> tuple[int, int]:
        """(space index 0..15, depth in the stack from the top)."""
        for index, space in enumerate(self.wall):
            if colour in space:
                return index, space.index(colour)
        raise KeyError(colour)

    def copy(self) -> "GameState":
        return GameState(
            players=[p.copy() for p in self.players],
            wall=[list(space) for space in self.wall],
            round=self.round,
            phase=self.phase,
            order=list(self.order),
            order_pos=self.order_pos,
            setup_cards=list(self.setup_cards),
            revealed=list(self.revealed),
            tribute=self.tribute,
            rolled=dict(self.rolled),
            dice=dict(self.dice),
            tiles_left=dict(self.tiles_left),
            jokers_left=self.jokers_left,
            quarter_ids=set(self.quarter_ids),
            port_goods=dict(self.port_goods),
            port_prestige=dict(self.port_prestige),
            actions_applied=self.actions_applied,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "wall": [list(space) for space in self.wall],
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "order": list(self.order),
            "setup_cards": [c.to_json() if c else None for c in self.setup_cards],
            "revealed": [c.to_json() if c else None for c in self.revealed],
            "tribute": list(self.tribute),
            "rolled": dict(self.rolled),
            "dice": dict(self.dice),
            "tiles_left": dict(self.tiles_left),
            "jokers_left": self.jokers_left,
            "quarter_ids": sorted(self.quarter_ids),
            "port_goods": dict(sorted(self.port_goods.items())),
            "port_prestige": dict(sorted(self.port_prestige.items())),
            "actions_applied": self.actions_applied,
        }

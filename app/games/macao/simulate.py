"""Seeded random play: whole legal games for tests, benchmarks and the demo.

The cards are made up (cost, tribute and a neutral name); only the Abbot and
Jester carry the effects the rules know. Nothing here claims to be the printed
deck.
"""

from __future__ import annotations

import random
from typing import Any

from .model import CUBE_COLOURS, DOUBLE_JOKERS, GOODS, NO_TABLEAU_PENALTY, PLAYER_COLOURS, GameState
from .options import CardOption, legal_options
from .record import FORMAT, Record
from .rules import apply_in_place, new_game

NAMES = ("Ann", "Ben", "Cleo", "Dara")


def random_card(rng: random.Random, kind: str, serial: int) -> dict[str, Any]:
    size = rng.choice((1, 1, 2, 2, 3, 4))
    base = rng.choice(CUBE_COLOURS)
    mixed = [base if rng.random() < 0.6 else rng.choice(CUBE_COLOURS) for _ in range(size)]
    cost = [base] * size if kind == "office" else mixed  # an office costs cubes of one colour
    card: dict[str, Any] = {
        "name": f"{kind.title()} {serial}",
        "kind": kind,
        "cost": sorted(cost, key=CUBE_COLOURS.index),
        "tribute": list(rng.choice(((0, 0), (1, 1), (2, 2), (0, 1), (1, 2)))),
    }
    roll = rng.random()
    if kind != "office" and roll < 0.04:
        card.update(name="Abbot", effects=[NO_TABLEAU_PENALTY])
    elif kind != "office" and roll < 0.08:
        card.update(name="Jester", effects=[DOUBLE_JOKERS])
    return card


class RandomTable:
    """Plays a game by picking, each time, a random action the rules accept."""

    def __init__(self, seed: int, players: int = 4, activity: float = 0.8, unknown_costs: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.activity = activity
        self.unknown_costs = unknown_costs  # share of cards revealed with `cost: null`, paid by naming cubes
        colours = list(PLAYER_COLOURS[:players])
        self.rng.shuffle(colours)
        self.players = [{"colour": c, "name": NAMES[i]} for i, c in enumerate(colours)]
        self.wall = list(colours)
        self.rng.shuffle(self.wall)
        self.state: GameState = new_game([(p["colour"], p["name"]) for p in self.players], self.wall)
        self.actions: list[dict[str, Any]] = []
        self.serial = 0

    def record(self) -> Record:
        return Record(players=self.players, wall=self.wall, actions=list(self.actions),
                      started="2026-11-29T19:30:00+01:00", format=FORMAT)

    def _card(self, kind: str) -> dict[str, Any]:
        self.serial += 1
        card = random_card(self.rng, kind, self.serial)
        if self.unknown_costs and self.rng.random() < self.unknown_costs:
            card["cost"] = None
        return card

    def _payment(self, option: CardOption) -> list[str]:
        """Cubes a table might name for a card of unknown cost, within what the options allow."""
        rng = self.rng
        if option.one_colour:
            colour = rng.choice(sorted(option.payable))
            return [colour] * rng.randint(1, option.payable[colour])
        pool = [colour for colour, n in option.payable.items() for _ in range(n)]
        return rng.sample(pool, rng.randint(1, option.max_cubes))

    def act(self, action: dict[str, Any]) -> None:
        apply_in_place(self.state, action)
        self.actions.append(action)

    def play(self, until_phase: str = "over") -> Record:
        while self.state.phase != until_phase:
            self.step()
        return self.record()

    def step(self) -> None:
        s, rng = self.state, self.rng
        who = s.turn
        if s.phase == "setup_draw":
            kinds = [rng.choice(("building", "person")) for _ in range(len(s.players) + 2)]
            self.act({"type": "setup_draw", "cards": [self._card(k) for k in kinds]})
        elif s.phase == "setup_pick":
            free = [i for i, c in enumerate(s.setup_cards) if c is not None]
            self.act({"type": "setup_pick", "player": who, "card": rng.choice(free)})
        elif s.phase == "setup_cubes":
            self.act({"type": "setup_cubes", "player": who, "one": rng.choice(CUBE_COLOURS),
                      "two": rng.choice(CUBE_COLOURS)})
        elif s.phase == "reveal":
            others = [self._card(rng.choice(("building", "person"))) for _ in range(4)]
            self.act({"type": "reveal", "office": [self._card("office"), self._card("office")], "cards": others})
        elif s.phase == "take_card":
            assert who is not None
            free = [i for i, c in enumerate(s.revealed) if c is not None]
            action: dict[str, Any] = {"type": "take_card", "player": who, "card": rng.choice(free)}
            if len(s.player(who).tableau) >= 5:
                action["discard"] = rng.randrange(6)
            self.act(action)
        elif s.phase == "roll":
            self.act({"type": "roll", "dice": {c: rng.randint(1, 6) for c in CUBE_COLOURS}})
        elif s.phase == "choose_dice":
            self.act({"type": "choose_dice", "player": who, "dice": rng.sample(CUBE_COLOURS, 2)})
        elif s.phase == "actions":
            assert who is not None
            self._turn_action(who)
        elif s.phase == "final":
            p = next(p for p in s.players if p.final is None)
            group = rng.randint(1, p.quarters) if p.quarters else 0
            points = rng.randint(0, 8)
            points = points if p.activated else 0  # game-end points come only from activated cards
            self.act({"type": "final", "player": p.colour, "card_points": points, "city_group": group})

    def _turn_action(self, who: str) -> None:
        s, rng = self.state, self.rng
        p = s.player(who)
        opts = legal_options(s, who)
        supply = [c for c, n in p.supply.items() for _ in range(n)]
        choices: list[dict[str, Any]] = []
        for card in opts.activate:
            if card.ok and card.cost_known:
                choices.append({"type": "activate", "player": who, "card": card.index})
            elif card.ok:
                choices.append({"type": "activate", "player": who, "card": card.index, "pay": self._payment(card)})
        if opts.quarter.ok and supply:
            size = min(len(supply), rng.randint(1, 3))
            tiles = [g for g in GOODS if s.tiles_left[g]] + (["joker"] if s.jokers_left else [])
            if tiles:
                choices.append({"type": "take_quarter", "player": who, "cost": rng.sample(supply, size),
                                "tile": rng.choice(tiles)})
        if opts.wall.ok:
            n = rng.randint(1, opts.wall.max_spaces)
            choices.append({"type": "wall", "player": who, "spaces": n, "pay": rng.sample(supply, 2 * n - 1)})
        if opts.ship.ok:
            n = rng.randint(1, min(2, opts.ship.max_spaces))
            choices.append({"type": "ship", "player": who, "spaces": n, "pay": rng.sample(supply, n)})
        for good in opts.deliver:
            choices.append({"type": "deliver", "player": who, "good": good, "prestige": rng.randint(1, 9)})
        if opts.buy_prestige.ok:
            choices.append({"type": "buy_prestige", "player": who})
        if opts.joker.ok:
            take: Any = rng.choice([["gold"], "gold", [rng.choice(CUBE_COLOURS)]])
            if opts.joker.double and rng.random() < 0.5:
                take = [rng.choice(CUBE_COLOURS), "gold"]
            choices.append({"type": "joker", "player": who, "take": take})
        for effect in opts.card_effects:
            if effect.ok and rng.random() < 0.3:
                choices.append({"type": "card_effect", "player": who, "card": effect.name,
                                "gain": {"gold": rng.randint(0, 2)}})
        if choices and rng.random() < self.activity:
            self.act(rng.choice(choices))
        else:
            self.act({"type": "end_turn", "player": who})


def random_record(seed: int, players: int = 4, unknown_costs: float = 0.0) -> Record:
    """A whole, legal, seeded game (with `unknown_costs` of its cards revealed without a cost)."""
    return RandomTable(seed, players, unknown_costs=unknown_costs).play()

"""Random legal games, played to the end, keep the books straight after every action.

A seeded random table picks among what the core's `waiting_for` and
`legal_options` offer. After every action it checks:
- cubes are conserved: taken from the general supply = held on windroses + paid back;
- gold never goes negative; prestige and punish markers neither;
- the once-a-round actions (quarter, wall, prestige) happen at most once a round;
- the core agrees with tests/games/builder.py, a separate reading of the rules
  (gold, prestige, markers, every windrose pile, tableaus, wall), and at the end
  on the scores;
- what the options call allowed is accepted, what they refuse is refused, and a
  refused action (including the chosen action with one field bent) leaves the
  state untouched and raises nothing but a RulesError;
- at every round's end, export then import then replay gives the same state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.base import RulesError
from app.games.macao import (
    CUBE_COLOURS,
    GOODS,
    PLAYER_COLOURS,
    GameState,
    Record,
    apply_action,
    apply_in_place,
    dump_record,
    legal_options,
    load_record,
    new_game,
    replay,
    score,
    waiting_for,
)
from tests.games.builder import RecordBuilder

ONCE_A_ROUND = ("take_quarter", "wall", "buy_prestige")
EFFECTS = ((0.05, ["no_tableau_penalty"]), (0.10, ["double_jokers"]), (0.18, ["repeatable"]))


def counted_pips(round_number: int, pips: int) -> int:
    """The rulebook's late-round dice, written out here independently of the core."""
    return 1 if round_number >= 8 and pips > 13 - round_number else pips


class Table:
    """One random game: the core's state, the builder's books and our own cube tally."""

    def __init__(self, rng: random.Random, players: int) -> None:
        self.rng = rng
        colours = rng.sample(PLAYER_COLOURS, players)
        self.players = [{"colour": c, "name": f"P{i}"} for i, c in enumerate(colours)]
        self.wall = rng.sample(colours, players)
        self.state = new_game([(p["colour"], p["name"]) for p in self.players], self.wall)
        self.books = RecordBuilder([(p["colour"], p["name"]) for p in self.players], self.wall, "2026-12-01T20:00:00Z")
        self.actions: list[dict[str, Any]] = []
        self.taken: Counter[str] = Counter()
        self.returned: Counter[str] = Counter()
        self.once: Counter[tuple[int, str, str]] = Counter()
        self.serial = 0

    # --- making actions ---------------------------------------------------------------------
    def card(self, kind: str) -> dict[str, Any]:
        self.serial += 1
        rng = self.rng
        doc: dict[str, Any] = {
            "name": f"{kind} {self.serial}",
            "kind": kind,
            "cost": [rng.choice(CUBE_COLOURS) for _ in range(rng.choice((1, 1, 1, 2, 2, 3)))],
            "tribute": list(rng.choice(((0, 0), (1, 1), (2, 2), (0, 1), (1, 2)))),
        }
        roll = rng.random()
        for limit, effects in EFFECTS:
            if kind != "office" and roll < limit:
                doc["effects"] = effects
                break
        return doc

    def supply_cubes(self, colour: str) -> list[str]:
        return [c for c, n in self.state.player(colour).supply.items() for _ in range(n)]

    def next_action(self) -> dict[str, Any]:
        s, rng = self.state, self.rng
        expect = waiting_for(s)
        who = expect.player
        if s.phase != "over" and rng.random() < 0.01:
            target = rng.choice(s.players)
            return {"type": "adjust", "player": target.colour, "prestige": rng.randint(-target.prestige, 2) or 1,
                    "punish": rng.randint(0, 1), "note": "a correction between actions"}
        if s.phase == "setup_draw":
            return {"type": "setup_draw", "cards": [self.card(rng.choice(("building", "person")))
                                                    for _ in range(len(s.players) + 2)]}
        if s.phase == "setup_pick":
            free = [i for i, c in enumerate(s.setup_cards) if c is not None]
            return {"type": "setup_pick", "player": who, "card": rng.choice(free)}
        if s.phase == "setup_cubes":
            return {"type": "setup_cubes", "player": who, "one": rng.choice(CUBE_COLOURS),
                    "two": rng.choice(CUBE_COLOURS)}
        if s.phase == "reveal":
            return {"type": "reveal", "office": [self.card("office"), self.card("office")],
                    "cards": [self.card(rng.choice(("building", "person"))) for _ in range(4)]}
        if s.phase == "take_card":
            free = [i for i, c in enumerate(s.revealed) if c is not None]
            action: dict[str, Any] = {"type": "take_card", "player": who, "card": rng.choice(free)}
            if len(s.player(who).tableau) == 5:
                action["discard"] = rng.randrange(6)
            return action
        if s.phase == "roll":
            return {"type": "roll", "dice": {c: rng.randint(1, 6) for c in CUBE_COLOURS}}
        if s.phase == "choose_dice":
            return {"type": "choose_dice", "player": who, "dice": rng.sample(CUBE_COLOURS, 2)}
        if s.phase == "actions":
            return self.turn_action(who)
        if s.phase == "final":
            p = rng.choice([p for p in s.players if p.final is None])
            group = rng.randint(1, p.quarters) if p.quarters else 0
            return {"type": "final", "player": p.colour, "card_points": rng.randint(0, 9), "city_group": group}
        raise AssertionError(f"nothing to do in phase {s.phase}")

    def turn_action(self, who: str) -> dict[str, Any]:
        s, rng = self.state, self.rng
        me = s.player(who)
        opts = legal_options(s, who)
        assert opts.my_turn and opts.end_turn.ok
        supply = self.supply_cubes(who)
        choices: list[dict[str, Any]] = []
        choices += [{"type": "activate", "player": who, "card": o.index} for o in opts.activate if o.ok]
        if opts.quarter.ok:
            tiles = [g for g in GOODS if s.tiles_left[g]] + (["joker"] if s.jokers_left else [])
            if tiles and supply:
                cost = rng.sample(supply, rng.randint(1, min(3, len(supply))))
                tile = "joker" if s.jokers_left and rng.random() < 0.4 else rng.choice(tiles)
                choices.append({"type": "take_quarter", "player": who, "cost": cost, "tile": tile})
        if opts.wall.ok:
            n = rng.randint(1, opts.wall.max_spaces)
            choices.append({"type": "wall", "player": who, "spaces": n, "pay": rng.sample(supply, 2 * n - 1)})
        if opts.ship.ok:
            n = rng.randint(1, min(3, opts.ship.max_spaces))
            choices.append({"type": "ship", "player": who, "spaces": n, "pay": rng.sample(supply, n)})
        choices += [{"type": "deliver", "player": who, "good": g, "prestige": rng.randint(0, 9)} for g in opts.deliver]
        if opts.buy_prestige.ok:
            choices.append({"type": "buy_prestige", "player": who})
        if opts.joker.ok:
            takes: list[Any] = ["gold", [rng.choice(CUBE_COLOURS)], ["gold"]]
            if opts.joker.double:
                takes += [[rng.choice(CUBE_COLOURS), rng.choice(CUBE_COLOURS)],
                          [rng.choice(CUBE_COLOURS), "gold"], ["gold", "gold"]]
            choices.append({"type": "joker", "player": who, "take": rng.choice(takes)})
        for effect in opts.card_effects:
            if effect.ok:
                gain = {"gold": rng.randint(0, 2), "cubes": rng.sample(CUBE_COLOURS, rng.randint(0, 1)),
                        "prestige": rng.randint(0, 1)}
                pay = {"gold": rng.randint(0, me.gold), "cubes": rng.sample(supply, rng.randint(0, min(1, len(supply))))}
                choices.append({"type": "card_effect", "player": who, "card": effect.name, "gain": gain, "pay": pay})
        if rng.random() < 0.03:
            target = rng.choice(s.players)
            choices.append({"type": "adjust", "player": target.colour, "gold": rng.randint(-target.gold, 3) or 1,
                            "note": "a table ruling"})
        if choices and rng.random() < 0.8:
            return rng.choice(choices)
        return {"type": "end_turn", "player": who}

    # --- checks -----------------------------------------------------------------------------
    def probe_refusals(self) -> None:
        """What the options refuse is refused, and a refusal changes nothing."""
        s, rng = self.state, self.rng
        probes: list[dict[str, Any]] = []
        if s.phase == "actions" and s.turn is not None:
            who = s.turn
            opts = legal_options(s, who)
            probes += [{"type": "activate", "player": who, "card": o.index} for o in opts.activate if not o.ok]
            if not opts.buy_prestige.ok:
                probes.append({"type": "buy_prestige", "player": who})
            if not opts.joker.ok:
                probes.append({"type": "joker", "player": who, "take": "gold"})
            if not opts.quarter.ok:
                probes.append({"type": "take_quarter", "player": who, "cost": ["red"], "tile": "tea"})
            if not opts.wall.ok:
                probes.append({"type": "wall", "player": who, "spaces": 1, "pay": ["red"]})
            others = [p.colour for p in s.players if p.colour != who]
            probes.append({"type": "end_turn", "player": rng.choice(others)})
            probes.append({"type": "wall", "player": who, "spaces": 2, "pay": ["red", "red"]})
        elif s.phase == "choose_dice":
            probes.append({"type": "choose_dice", "player": s.turn, "dice": ["red", "red"]})
        if not probes:
            return
        probe = rng.choice(probes)
        snapshot = json.dumps(s.to_json(), sort_keys=True)
        trial = s.copy()
        try:
            apply_in_place(trial, probe)
        except RulesError:
            assert json.dumps(trial.to_json(), sort_keys=True) == snapshot, f"refused {probe} changed the state"
        else:
            raise AssertionError(f"the core accepted {probe}, which the options had refused")
        assert json.dumps(s.to_json(), sort_keys=True) == snapshot

    def mutated(self, action: dict[str, Any]) -> dict[str, Any]:
        """The same action with one field bent, often (not always) into an illegal one."""
        rng = self.rng
        bent = json.loads(json.dumps(action))
        field = rng.choice([k for k in bent if k != "type"] or ["type"])
        value = bent.get(field)
        if field == "player":
            bent[field] = rng.choice(PLAYER_COLOURS)
        elif isinstance(value, int):
            bent[field] = value + rng.choice((-1, 1, 5))
        elif isinstance(value, list):
            bent[field] = value + [rng.choice(CUBE_COLOURS)] if rng.random() < 0.5 else value[1:]
        elif isinstance(value, dict):
            bent[field] = {**value, "gold": 99}
        else:
            bent[field] = rng.choice(["tea", "joker", "gold", "red"])
        return bent

    def probe_mutation(self, action: dict[str, Any]) -> None:
        """A bent action is either accepted whole or refused with nothing changed."""
        snapshot = json.dumps(self.state.to_json(), sort_keys=True)
        trial = self.state.copy()
        try:
            apply_in_place(trial, self.mutated(action))
        except RulesError:
            assert json.dumps(trial.to_json(), sort_keys=True) == snapshot, "a refused action changed the state"

    def agrees(self, allowed: bool, action: dict[str, Any]) -> None:
        """The core accepts `action` exactly when the options said it may."""
        try:
            apply_action(self.state, action)
        except RulesError as err:
            assert not allowed, f"options allowed {action}, the core refused: {err}"
        else:
            assert allowed, f"options refused {action}, the core accepted it"

    def check_options(self) -> None:
        """Every answer of legal_options matches what the core then does."""
        s = self.state
        if s.phase in ("take_card", "roll", "choose_dice"):
            for player in s.players:
                for effect in legal_options(s, player.colour).card_effects:
                    self.agrees(effect.ok, {"type": "card_effect", "player": player.colour, "card": effect.name,
                                            "gain": {"gold": 1}})
        if s.phase != "actions" or s.turn is None:
            return
        who = s.turn
        opts = legal_options(s, who)
        supply = self.supply_cubes(who)
        for option in opts.activate:
            self.agrees(option.ok, {"type": "activate", "player": who, "card": option.index})
        self.agrees(opts.buy_prestige.ok, {"type": "buy_prestige", "player": who})
        self.agrees(opts.joker.ok, {"type": "joker", "player": who, "take": "gold"})
        for effect in opts.card_effects:
            self.agrees(effect.ok, {"type": "card_effect", "player": who, "card": effect.name})
        if opts.wall.ok:
            n = opts.wall.max_spaces
            self.agrees(True, {"type": "wall", "player": who, "spaces": n, "pay": supply[: 2 * n - 1]})
            self.agrees(False, {"type": "wall", "player": who, "spaces": n + 1, "pay": (supply * 3)[: 2 * n + 1]})
        if opts.ship.ok:
            self.agrees(True, {"type": "ship", "player": who, "spaces": len(supply), "pay": supply})
        self.agrees(True, {"type": "end_turn", "player": who})
        for other in s.players:
            if other.colour != who:
                theirs = legal_options(s, other.colour)
                assert not theirs.my_turn and not theirs.end_turn.ok and theirs.end_turn.reason is not None
                assert not any(o.ok for o in theirs.activate)
                assert not (theirs.quarter.ok or theirs.wall.ok or theirs.ship.ok or theirs.buy_prestige.ok)
                self.agrees(False, {"type": "end_turn", "player": other.colour})

    def tally(self, action: dict[str, Any], before: GameState) -> None:
        """Our own count of cubes leaving and returning to the general supply."""
        kind, who = action["type"], action.get("player")
        if kind == "setup_cubes":
            self.taken[who] += 3
        elif kind == "choose_dice":
            self.taken[who] += sum(counted_pips(before.round, before.rolled[d]) for d in action["dice"])
        elif kind == "activate":
            self.returned[who] += len(before.player(who).tableau[action["card"]].cost)
        elif kind == "take_quarter":
            self.returned[who] += len(action["cost"])
        elif kind in ("wall", "ship"):
            self.returned[who] += len(action["pay"])
        elif kind == "joker":
            self.taken[who] += 0 if action["take"] == "gold" else sum(1 for t in action["take"] if t != "gold")
        elif kind == "card_effect":
            self.taken[who] += len(action.get("gain", {}).get("cubes", []))
            self.returned[who] += len(action.get("pay", {}).get("cubes", []))
        elif kind == "end_turn":
            self.returned[who] += sum(before.player(who).supply.values())
        if kind in ONCE_A_ROUND:
            self.once[(before.round, who, kind)] += 1

    def check_books(self) -> None:
        s, b = self.state, self.books
        for p in s.players:
            held = sum(sum(pile.values()) for pile in p.windrose)
            assert held == self.taken[p.colour] - self.returned[p.colour], f"{p.colour}: cubes not conserved"
            assert p.gold >= 0 and p.prestige >= 0 and p.punish >= 0
            seat = b.seat(p.colour)
            assert (p.gold, p.prestige, p.punish) == (seat.gold, seat.prestige, seat.punish), p.colour
            assert [dict(pile) for pile in p.windrose] == [
                {c: n for c, n in pile.items() if n} for pile in seat.windrose], p.colour
            assert [c.name for c in p.tableau] == [c["name"] for c in seat.tableau]
            assert len(p.tableau) <= 5
            assert sorted(p.ship) == sorted(seat.ship)
            assert (p.jokers, p.quarters) == (seat.jokers, seat.quarters)
        assert s.turn_order() == b.turn_order()
        assert max(self.once.values(), default=0) <= 1

    def check_round_trip(self) -> None:
        record = Record(players=self.players, wall=self.wall, actions=list(self.actions),
                        started="2026-12-01T20:00:00Z")
        again = replay(load_record(dump_record(record)))
        assert again.to_json() == self.state.to_json()

    # --- playing ----------------------------------------------------------------------------
    def step(self) -> None:
        self.probe_refusals()
        self.check_options()
        action = self.next_action()
        before = self.state
        self.probe_mutation(action)
        expect = waiting_for(before)
        assert action["type"] in expect.actions or action["type"] == "adjust", (action["type"], expect)
        if expect.player is not None and action["type"] != "adjust":
            assert action.get("player") == expect.player
        after = apply_action(before, action)  # must not raise: it came from the options
        self.books.apply(action)
        self.tally(action, before)
        self.state = after
        self.actions.append(action)
        self.check_books()
        if action["type"] == "end_turn" and self.state.phase != "actions":
            self.check_round_trip()

    def play(self) -> None:
        for _ in range(5000):
            if self.state.phase == "over":
                return
            self.step()
        raise AssertionError("the game did not end")


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.integers(min_value=2, max_value=4))
def test_random_legal_games_keep_the_books(seed: int, players: int) -> None:
    table = Table(random.Random(seed), players)
    table.play()
    assert table.state.round == 13
    table.check_round_trip()
    assert score(table.state).to_json() == table.books.scores()

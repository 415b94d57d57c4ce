"""Applying actions to a game of Macao.

Every action is checked completely before anything changes, so a refused
action leaves the state exactly as it was. `apply_action` is the pure form
(returns a new state); `apply_in_place` is the fast path for replaying a
record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import cubes
from app.games.base import Message, RecordError, RulesError, player_name_problem
from .model import (
    CUBE_COLOURS,
    DOUBLE_JOKERS,
    JOKER_GOLD,
    PLAYER_COLOURS,
    REPEATABLE,
    ROUNDS,
    TABLEAU_LIMIT,
    WALL_SPACES,
    Card,
    GameState,
    PlayerState,
)
from .shapes import ACTION_TYPES, PLAYER_ACTIONS, check_action


class _Refusal(Exception):
    """Raised inside a handler; turned into a RulesError that names the action."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template)
        self.message = Message(template, params)


def new_game(players: list[tuple[str, str]], wall: list[str]) -> GameState:
    """A game before set-up: everyone on the first wall space, stacked as given."""
    colours = [colour for colour, _ in players]
    if not 2 <= len(players) <= 4:
        raise RecordError("players", f"Macao is for 2 to 4 players, not {len(players)}")
    for colour in colours:
        if colour not in PLAYER_COLOURS:
            raise RecordError("players", f"unknown player colour {colour!r}")
    if len(set(colours)) != len(colours):
        raise RecordError("players", "two players have the same colour")
    if sorted(wall) != sorted(colours):
        raise RecordError("wall", "the starting stack must hold each player's colour exactly once")
    state = GameState(
        players=[PlayerState(colour=colour, name=name) for colour, name in players],
        wall=[list(wall)] + [[] for _ in range(WALL_SPACES - 1)],
    )
    return state


def effective_pips(round_number: int, pips: int) -> int:
    """From round 8 on, a die above 13 - round counts as 1."""
    return 1 if round_number >= 8 and pips > 13 - round_number else pips


def wall_cost(spaces: int) -> int:
    """Cubes to move `spaces` along the wall: 1, 3, 5, 7, ..."""
    return 2 * spaces - 1


# --- handlers: each checks everything first, then changes the state --------------------------


def _names(state: GameState, colours: list[str]) -> str:
    return ", ".join(state.player(c).name for c in colours)


def _start_phase(state: GameState, phase: str, order: list[str]) -> None:
    state.phase = phase
    state.order = order
    state.order_pos = 0


def _advance(state: GameState) -> bool:
    """Next player in this phase; True when everyone has acted."""
    state.order_pos += 1
    return state.order_pos >= len(state.order)


def _setup_draw(state: GameState, action: dict[str, Any], _: PlayerState | None) -> None:
    needed = len(state.players) + 2
    cards = [Card.from_json(c) for c in action["cards"]]
    if len(cards) != needed:
        raise _Refusal(
            "With {players} players the first pick shows {needed} cards, not {found}.",
            players=len(state.players), needed=needed, found=len(cards),
        )
    if any(card.kind == "office" for card in cards):
        raise _Refusal("The first pick uses building and person cards only, not offices.")
    state.setup_cards = list(cards)
    stack = state.wall[0]
    _start_phase(state, "setup_pick", list(reversed(stack)))


def _setup_pick(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    index = action["card"]
    if index >= len(state.setup_cards) or state.setup_cards[index] is None:
        raise _Refusal("{name} cannot pick card {index}: it is not on the table.", name=player.name, index=index)
    card = state.setup_cards[index]
    assert card is not None
    player.tableau.append(card)
    state.setup_cards[index] = None
    if _advance(state):
        state.setup_cards = []
        _start_phase(state, "setup_cubes", list(state.wall[0]))


def _setup_cubes(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    cubes.add(player.windrose[1], action["one"], 1)
    cubes.add(player.windrose[2], action["two"], 2)
    player.cubes_taken += 3
    if _advance(state):
        _begin_round(state, 1)


def _begin_round(state: GameState, number: int) -> None:
    state.round = number
    state.revealed = []
    state.tribute = (0, 0)
    state.rolled = {}
    state.dice = {}
    for p in state.players:
        p.used.clear()
        p.effects_used.clear()
    _start_phase(state, "reveal", [])


def _reveal(state: GameState, action: dict[str, Any], _: PlayerState | None) -> None:
    offices = [Card.from_json(c) for c in action["office"]]
    others = [Card.from_json(c) for c in action["cards"]]
    for card in offices:
        if card.kind != "office":
            raise _Refusal("{card} is a {kind} card, but the round's first two cards are offices.",
                           card=card.name, kind=card.kind)
    for card in others:
        if card.kind == "office":
            raise _Refusal("{card} is an office, but the last four cards come from the building and person stack.",
                           card=card.name)
    for card in offices:
        if card.cost is not None and len(set(card.cost)) > 1:
            raise _Refusal("{card} is an office, and an office costs cubes of one colour, not {cost_cubes}.",
                           card=card.name, cost_cubes=cubes.count(card.cost))
    six: list[Card | None] = [*offices, *others]
    state.tribute = (sum(c.gold for c in offices + others), sum(c.prestige for c in offices + others))
    discard = {4: 0, 3: 1, 2: 2}[len(state.players)]
    for i in range(discard):
        six[5 - i] = None
    state.revealed = six
    _start_phase(state, "take_card", state.turn_order())


def _take_card(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    index = action["card"]
    card = state.revealed[index]
    if card is None:
        raise _Refusal("{name} cannot take card {index}: it has already been taken or discarded.",
                       name=player.name, index=index)
    discard = action.get("discard")
    sixth = len(player.tableau) >= TABLEAU_LIMIT
    if sixth and discard is None:
        raise _Refusal(
            "{name} already has {limit} cards waiting; say which of the six to discard "
            "(this costs a punish marker).",
            name=player.name, limit=TABLEAU_LIMIT,
        )
    if not sixth and discard is not None:
        raise _Refusal("{name} has room for this card; nothing needs to be discarded.", name=player.name)
    player.tableau.append(card)
    state.revealed[index] = None
    if sixth:
        assert discard is not None
        player.tableau.pop(discard)
        player.punish += 1
    if _advance(state):
        state.revealed = [None] * len(state.revealed)
        _start_phase(state, "roll", [])


def _roll(state: GameState, action: dict[str, Any], _: PlayerState | None) -> None:
    rolled = {c: action["dice"][c] for c in CUBE_COLOURS}
    state.rolled = rolled
    state.dice = {c: effective_pips(state.round, pips) for c, pips in rolled.items()}
    _start_phase(state, "choose_dice", state.turn_order())


def _choose_dice(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    first, second = action["dice"]
    if first == second:
        raise _Refusal("{name} must choose two different dice, not the {colour} one twice.",
                       name=player.name, colour=first)
    for colour in (first, second):
        pips = state.dice[colour]
        cubes.add(player.windrose[pips], colour, pips)
        player.cubes_taken += pips
    if _advance(state):
        _turn_windroses(state)


def _turn_windroses(state: GameState) -> None:
    """Each rose turns one sector: the pile at 1 becomes this round's supply."""
    for p in state.players:
        leftover = p.windrose[0]
        p.cubes_returned += cubes.total(leftover)
        p.windrose = [p.windrose[1], *p.windrose[2:], {}]
        if not p.supply:
            p.punish += 1
    _start_phase(state, "actions", state.turn_order())


def _pay(state: GameState, player: PlayerState, need: dict[str, int], what: str) -> None:
    short = cubes.missing(player.supply, need)
    if short:
        raise _Refusal(
            "{name} needs {need_cubes} for {what}; the supply holds {have_cubes}.",
            name=player.name, need_cubes=need, what=what, have_cubes=cubes.ordered(player.supply),
        )


def _spend(player: PlayerState, need: dict[str, int]) -> None:
    cubes.remove(player.supply, need)
    player.cubes_returned += cubes.total(need)


def _activate(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    index = action["card"]
    if index >= len(player.tableau):
        raise _Refusal("{name} has no card at place {index} of the tableau (it holds {count}).",
                       name=player.name, index=index, count=len(player.tableau))
    card = player.tableau[index]
    cost = _activation_cost(card, action.get("pay"), player)
    effects = _activation_effects(card, action.get("effects"))
    need = cubes.count(cost)
    _pay(state, player, need, card.name)
    _spend(player, need)
    player.tableau.pop(index)
    player.activated.append(replace(card, cost=cost, effects=effects))


def _activation_effects(card: Card, named: list[str] | None) -> tuple[str, ...]:
    """The card's effects: as given at its reveal, or, when none were, as the activation names them
    (Abbot or Jester told when the card is played, so the reveal never has to ask)."""
    if named is None:
        return card.effects
    if card.effects:
        raise _Refusal("The effects of {card} were given when it was revealed; its activation cannot name them again.",
                       card=card.name)
    return tuple(named)


def _activation_cost(card: Card, pay: list[str] | None, player: PlayerState) -> tuple[str, ...]:
    """What activating `card` takes: its cost, or, while that is unknown, the cubes named as payment."""
    if card.cost is None:
        if pay is None:
            raise _Refusal("The cost of {card} was not entered when it was revealed: "
                           "say which cubes {name} pays for it.", card=card.name, name=player.name)
        if card.kind == "office" and len(set(pay)) > 1:
            raise _Refusal("{card} is an office, and an office costs cubes of one colour, not {cost_cubes}.",
                           card=card.name, cost_cubes=cubes.count(pay))
        return tuple(pay)
    if pay is not None and cubes.count(pay) != cubes.count(card.cost):
        raise _Refusal("{card} costs {cost_cubes}; the payment named {pay_cubes}.",
                       card=card.name, cost_cubes=cubes.count(card.cost), pay_cubes=cubes.count(pay))
    return card.cost


def _once(player: PlayerState, key: str, what: str) -> None:
    if key in player.used:
        raise _Refusal("{name} has already {what} this round.", name=player.name, what=what)


def _take_quarter(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    _once(player, "take_quarter", "taken a city quarter")
    tile = action["tile"]
    if tile == "joker":
        if state.jokers_left <= 0:
            raise _Refusal("{name} cannot take a joker quarter: all six are already taken.", name=player.name)
    elif state.tiles_left[tile] <= 0:
        raise _Refusal("{name} cannot take a quarter with {good}: none is left in the city.",
                       name=player.name, good=tile)
    quarter = str(action["quarter"]) if "quarter" in action else None
    if quarter is not None and quarter in state.quarter_ids:
        raise _Refusal("Quarter {quarter} has already been taken in this game.", quarter=quarter)
    need = cubes.count(action["cost"])
    _pay(state, player, need, "the quarter")
    _spend(player, need)
    player.used.add("take_quarter")
    player.quarters += 1
    if quarter is not None:
        state.quarter_ids.add(quarter)
    if tile == "joker":
        state.jokers_left -= 1
        player.jokers += 1
    else:
        state.tiles_left[tile] -= 1
        player.ship.append(tile)


def _wall(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    _once(player, "wall", "moved on the wall")
    spaces = action["spaces"]
    pay = action["pay"]
    space, _ = state.wall_position(player.colour)
    if space == WALL_SPACES - 1:
        raise _Refusal("{name} is already on the last space of the wall.", name=player.name)
    if len(pay) != wall_cost(spaces):
        template = ("{name} must pay 1 cube to move 1 space on the wall, not {paid}." if spaces == 1 else
                    "{name} must pay {cost} cubes to move {spaces} spaces on the wall, not {paid}.")
        raise _Refusal(template, name=player.name, spaces=spaces, cost=wall_cost(spaces), paid=len(pay))
    need = cubes.count(pay)
    _pay(state, player, need, "the wall")
    _spend(player, need)
    player.used.add("wall")
    state.wall[space].remove(player.colour)
    target = space + spaces
    if target >= WALL_SPACES - 1:
        state.wall[WALL_SPACES - 1].append(player.colour)
    else:
        state.wall[target].insert(0, player.colour)


def _ship(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    spaces = action["spaces"]
    pay = action["pay"]
    if len(pay) != spaces:
        raise _Refusal("{name} must pay one cube per space: {spaces} for this trip, not {paid}.",
                       name=player.name, spaces=spaces, paid=len(pay))
    need = cubes.count(pay)
    _pay(state, player, need, "the ship")
    _spend(player, need)
    player.ship_moves += spaces
    player.ship_place = str(action["to"]) if "to" in action else None  # only the last move's place counts


def _deliver(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    good = action["good"]
    port = action.get("port")
    if good not in player.ship:
        raise _Refusal("{name}'s ship carries no {good}.", name=player.name, good=good)
    if player.ship_moves == 0:
        raise _Refusal("{name}'s ship has not sailed yet: it must move at least once before it can deliver.",
                       name=player.name)
    if port is not None and player.ship_place is not None and port != player.ship_place:
        raise _Refusal("{name}'s ship last sailed to {place}, so it cannot deliver at {port}.",
                       name=player.name, place=player.ship_place, port=port)
    wanted = state.port_goods.get(port) if port is not None else None
    if wanted is not None and wanted != good:
        raise _Refusal("{port} wants {wanted} all game, not {good}.", port=port, wanted=wanted, good=good)
    player.ship.remove(good)
    player.prestige += action["prestige"]
    player.delivered.append((good, action["prestige"]))
    if port is not None:
        state.port_goods[port] = good
        state.port_prestige[port] = action["prestige"]


def _buy_prestige(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    _once(player, "buy_prestige", "bought prestige")
    price, gain = state.tribute
    if player.gold < price:
        raise _Refusal("Prestige costs {price} gold this round; {name} has {gold}.",
                       price=price, name=player.name, gold=player.gold)
    player.used.add("buy_prestige")
    player.gold -= price
    player.prestige += gain


def _joker(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    if player.jokers <= 0:
        raise _Refusal("{name} has no joker to spend.", name=player.name)
    take = ["gold"] if action["take"] == "gold" else list(action["take"])
    if len(take) == 2 and not player.has_effect(DOUBLE_JOKERS):
        raise _Refusal("{name} can take only one thing for a joker; two need an activated Jester.",
                       name=player.name)
    player.jokers -= 1
    for item in take:
        if item == "gold":
            player.gold += JOKER_GOLD
        else:
            cubes.add(player.supply, item, 1)
            player.cubes_taken += 1


def _card_effect(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    name = action["card"]
    owned = [card for card in player.activated if card.name == name]
    if not owned:
        raise _Refusal("{name} has no activated card called {card}.", name=player.name, card=name)
    repeatable = any(REPEATABLE in card.effects for card in owned)
    if not repeatable and player.effects_used.get(name, 0) >= len(owned):
        raise _Refusal("{name} has already used {card} this round.", name=player.name, card=name)
    gain = action.get("gain", {})
    pay = action.get("pay", {})
    moves_cubes = bool(gain.get("cubes") or pay.get("cubes"))
    own_turn = state.phase == "actions" and state.turn == player.colour
    if moves_cubes and not own_turn:
        raise _Refusal("Cubes can only be gained or paid during {name}'s own turn in the actions phase.",
                       name=player.name)
    need = cubes.count(pay.get("cubes", []))
    _pay(state, player, need, name)
    if player.gold < pay.get("gold", 0):
        raise _Refusal("{card} asks for {gold} gold; {name} has {have}.",
                       card=name, gold=pay.get("gold", 0), name=player.name, have=player.gold)
    if player.prestige < pay.get("prestige", 0):
        raise _Refusal("{card} asks for {prestige} prestige; {name} has {have}.",
                       card=name, prestige=pay.get("prestige", 0), name=player.name, have=player.prestige)
    _spend(player, need)
    player.gold += gain.get("gold", 0) - pay.get("gold", 0)
    player.prestige += gain.get("prestige", 0) - pay.get("prestige", 0)
    for colour in gain.get("cubes", []):
        cubes.add(player.supply, colour, 1)
        player.cubes_taken += 1
    player.effects_used[name] = player.effects_used.get(name, 0) + 1


def _end_turn(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    player.cubes_returned += cubes.total(player.supply)
    player.windrose[0] = {}
    if _advance(state):
        if state.round >= ROUNDS:
            state.round = ROUNDS + 1
            for p in state.players:
                p.used.clear()
                p.effects_used.clear()
            _start_phase(state, "final", [])
        else:
            _begin_round(state, state.round + 1)


def _final(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    if player.final is not None:
        raise _Refusal("{name}'s final scoring has already been entered.", name=player.name)
    group = action["city_group"]
    if group > player.quarters:
        raise _Refusal("{name} took {quarters} quarters, so no group can have {group}.",
                       name=player.name, quarters=player.quarters, group=group)
    if player.quarters and group < 1:
        raise _Refusal("{name} owns quarters, so the largest group has at least 1.", name=player.name)
    if action["card_points"] > 0 and not player.activated:
        raise _Refusal("{name} activated no card, so there are no game-end card points ({points} entered); "
                       "a table ruling goes in as a correction.", name=player.name, points=action["card_points"])
    player.final = (action["card_points"], group)
    if all(p.final is not None for p in state.players):
        _start_phase(state, "over", [])


def _adjust(state: GameState, action: dict[str, Any], player: PlayerState | None) -> None:
    assert player is not None
    changes = {key: action.get(key, 0) for key in ("gold", "prestige", "punish")}
    if not any(changes.values()):
        raise _Refusal("A correction for {name} must change gold, prestige or punish markers.", name=player.name)
    labels = {"gold": "gold", "prestige": "prestige", "punish": "punish markers"}
    for key, delta in changes.items():
        if getattr(player, key) + delta < 0:
            raise _Refusal("That correction would leave {name} with fewer than 0 {what}.",
                           name=player.name, what=labels[key])
    for key, delta in changes.items():
        setattr(player, key, getattr(player, key) + delta)


Handler = Callable[[GameState, dict[str, Any], PlayerState | None], None]

_HANDLERS: dict[str, Handler] = {
    "setup_draw": _setup_draw,
    "setup_pick": _setup_pick,
    "setup_cubes": _setup_cubes,
    "reveal": _reveal,
    "take_card": _take_card,
    "roll": _roll,
    "choose_dice": _choose_dice,
    "activate": _activate,
    "take_quarter": _take_quarter,
    "wall": _wall,
    "ship": _ship,
    "deliver": _deliver,
    "buy_prestige": _buy_prestige,
    "joker": _joker,
    "card_effect": _card_effect,
    "end_turn": _end_turn,
    "final": _final,
    "adjust": _adjust,
}

# Which action types each phase accepts, besides `adjust` (always).
PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "setup_draw": ("setup_draw",),
    "setup_pick": ("setup_pick",),
    "setup_cubes": ("setup_cubes",),
    "reveal": ("reveal",),
    "take_card": ("take_card", "card_effect"),
    "roll": ("roll", "card_effect"),
    "choose_dice": ("choose_dice", "card_effect"),
    "actions": (
        "activate", "take_quarter", "wall", "ship", "deliver",
        "buy_prestige", "joker", "card_effect", "end_turn",
    ),
    "final": ("final",),
    "over": (),
}

# Action types that only the player whose turn it is may take.
TURN_ACTIONS: frozenset[str] = frozenset(
    {"setup_pick", "setup_cubes", "take_card", "choose_dice", "activate", "take_quarter",
     "wall", "ship", "deliver", "buy_prestige", "joker", "end_turn"}
)

_PHASE_WORDS: dict[str, str] = {
    "setup_draw": "the set-up (the first cards have not been laid out)",
    "setup_pick": "the set-up (players are picking their first card)",
    "setup_cubes": "the set-up (players are placing their first cubes)",
    "reveal": "the start of a round (the cards have not been revealed)",
    "take_card": "the card phase",
    "roll": "the dice phase (the dice have not been rolled)",
    "choose_dice": "the dice phase",
    "actions": "the actions phase",
    "final": "the final scoring",
    "over": "the end of the game",
}


def _check_turn(state: GameState, kind: str, colour: str | None) -> PlayerState | None:
    if kind in PLAYER_ACTIONS:
        assert colour is not None
        if not state.has_player(colour):
            raise _Refusal("There is no {colour} player in this game.", colour=colour)
    player = state.player(colour) if colour is not None else None
    if kind == "adjust":
        return player
    if kind not in PHASE_ACTIONS[state.phase]:
        raise _Refusal("This cannot be done during {phase}.", phase=_PHASE_WORDS[state.phase])
    if kind in TURN_ACTIONS or (kind == "card_effect" and state.phase == "actions"):
        assert player is not None
        turn = state.turn
        if turn != player.colour:
            raise _Refusal("It is {turn_name}'s turn, not {name}'s.",
                           turn_name=state.player(turn).name if turn else "nobody", name=player.name)
    return player


def apply_in_place(state: GameState, action: object) -> None:
    """Apply one action to `state` itself; on a RulesError nothing has changed."""
    try:
        checked = check_action(action)
    except RecordError as err:  # named like a broken rule: "action 8 (roll): ...: dice: missing the violet die"
        fields = action if isinstance(action, dict) else {}
        kind, colour = fields.get("type"), fields.get("player")
        known = colour if isinstance(colour, str) and state.has_player(colour) else None
        # A player the table does not have is still named as written: "action 8 (end_turn, nobody): ..."
        written = colour if isinstance(colour, str) and player_name_problem(colour) is None else None
        raise RulesError(Message("The action is not well formed: {problem}", {"problem": str(err)}),
                         action_type=kind if isinstance(kind, str) and kind in ACTION_TYPES else None,
                         player=written,
                         player_name=state.player(known).name if known is not None else None) from None
    kind = checked["type"]
    colour = checked.get("player")
    name = state.player(colour).name if isinstance(colour, str) and state.has_player(colour) else None
    try:
        player = _check_turn(state, kind, colour)
        _HANDLERS[kind](state, checked, player)
    except _Refusal as refusal:
        raise RulesError(refusal.message, action_type=kind, player=colour, player_name=name) from None
    state.actions_applied += 1


def apply_action(state: GameState, action: object) -> GameState:
    """The state after `action`; `state` itself is never changed."""
    after = state.copy()
    apply_in_place(after, action)
    return after

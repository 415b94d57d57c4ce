"""What the game waits for, and what a player may do now.

The UI greys out buttons and shows hints from these answers; it never works
out a rule itself. Every "no" carries the reason in players' words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import cubes
from app.games.base import Message, RulesError

from .model import DOUBLE_JOKERS, REPEATABLE, WALL_SPACES, Card, GameState, PlayerState
from .rules import PHASE_ACTIONS, wall_cost
from .shapes import MAX_CARD_COST


@dataclass(frozen=True)
class Expect:
    """Who is to act next, and with which kinds of action (`adjust` is always allowed).

    `hints` adds what the player should know for this turn (cards whose cost is still unknown).
    """

    phase: str
    player: str | None
    actions: tuple[str, ...]
    prompt: Message
    hints: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Allowed:
    ok: bool
    reason: Message | None = None


@dataclass(frozen=True)
class CardOption:
    """Activating one tableau card.

    When its cost is unknown (`cost_known` False, `cost` empty), the payment
    names it: up to `max_cubes` cubes, at most `payable[colour]` of a colour,
    all of one colour when `one_colour` (an office); `hint` says so in words.
    """

    index: int
    name: str
    cost: dict[str, int]
    ok: bool
    reason: Message | None = None
    cost_known: bool = True
    one_colour: bool = False
    payable: dict[str, int] = field(default_factory=dict)
    max_cubes: int = 0
    hint: Message | None = None
    effects_open: bool = False  # no effects given at reveal: the activation may name Abbot or Jester


@dataclass(frozen=True)
class WallOption:
    ok: bool
    reason: Message | None
    max_spaces: int

    @staticmethod
    def cost(spaces: int) -> int:
        return wall_cost(spaces)


@dataclass(frozen=True)
class ShipOption:
    ok: bool
    reason: Message | None
    max_spaces: int


@dataclass(frozen=True)
class PrestigeOption:
    ok: bool
    reason: Message | None
    price: int
    gain: int


@dataclass(frozen=True)
class JokerOption:
    ok: bool
    reason: Message | None
    double: bool


@dataclass(frozen=True)
class CardEffectOption:
    name: str
    ok: bool
    reason: Message | None = None


@dataclass(frozen=True)
class Options:
    player: str
    my_turn: bool
    activate: list[CardOption] = field(default_factory=list)
    quarter: Allowed = Allowed(False)
    wall: WallOption = WallOption(False, None, 0)
    ship: ShipOption = ShipOption(False, None, 0)
    buy_prestige: PrestigeOption = PrestigeOption(False, None, 0, 0)
    joker: JokerOption = JokerOption(False, None, False)
    deliver: list[str] = field(default_factory=list)
    card_effects: list[CardEffectOption] = field(default_factory=list)
    end_turn: Allowed = Allowed(False)
    card_points: Allowed = Allowed(False)  # game-end card points at the final scoring
    deliver_allowed: Allowed = Allowed(False)  # whether any good can be delivered now, else why not


_PROMPTS: dict[str, str] = {
    "setup_draw": "Lay out the cards for the first pick.",
    "setup_pick": "{name}: pick a starting card.",
    "setup_cubes": "{name}: place 1 cube on sector 1 and 2 cubes of one colour on sector 2.",
    "reveal": "Round {round}: reveal the two offices and four cards.",
    "take_card": "{name}: take one of the open cards.",
    "roll": "Round {round}: roll the six dice.",
    "choose_dice": "{name}: choose two dice.",
    "actions": "{name}: take your actions, then end the turn.",
    "final": "Enter each player's game-end card points and largest city group.",
    "over": "The game is over.",
}


def waiting_for(state: GameState) -> Expect:
    colour = state.turn
    name = state.player(colour).name if colour else ""
    prompt = Message(_PROMPTS[state.phase], {"name": name, "round": state.round})
    hints: tuple[Message, ...] = ()
    if state.phase == "actions" and colour is not None:
        hints = tuple(_unknown_cost_hint(card) for card in state.player(colour).tableau if card.cost is None)
    elif state.phase == "choose_dice" and colour is not None:
        hints = _empty_supply_hint(state, state.player(colour))
    return Expect(state.phase, colour, PHASE_ACTIONS[state.phase], prompt, hints)


def _empty_supply_hint(state: GameState, player: PlayerState) -> tuple[Message, ...]:
    """Before a player chooses dice: sector 1 becomes the supply when the roses turn, and an
    empty supply then costs a punish marker; only a die counting 1 can still fill it."""
    if player.windrose[1]:
        return ()
    if 1 not in state.dice.values():
        return (Message("{name}: sector 1 is empty and no die counts 1: a punish marker comes when the roses turn.",
                        {"name": player.name}),)
    return (Message("{name}: sector 1 is empty: take a die counting 1 or get a punish marker.",
                    {"name": player.name}),)


def _unknown_cost_hint(card: Card) -> Message:
    if card.kind == "office":
        return Message("The cost of {card} is not known yet: the cubes paid to activate it become its cost "
                       "(an office takes cubes of one colour).", {"card": card.name})
    return Message("The cost of {card} is not known yet: the cubes paid to activate it become its cost.",
                   {"card": card.name})


def _unknown_cost_option(index: int, card: Card, player: PlayerState, closed: Message | None) -> CardOption:
    """Activating a card whose cost was not entered: which payments the supply allows."""
    supply = player.supply
    one_colour = card.kind == "office"
    payable = {colour: min(n, MAX_CARD_COST) for colour, n in cubes.ordered(supply).items()}
    if one_colour:
        most = max(payable.values(), default=0)
    else:
        most = min(cubes.total(supply), MAX_CARD_COST)
    reason = closed
    if reason is None and most == 0:
        reason = Message("{name}'s supply is empty, and {card} takes at least 1 cube.",
                         {"name": player.name, "card": card.name})
    return CardOption(index, card.name, {}, reason is None, reason, cost_known=False, one_colour=one_colour,
                      payable=payable if reason is None else {}, max_cubes=most if reason is None else 0,
                      hint=_unknown_cost_hint(card), effects_open=not card.effects)


def _not_turn(state: GameState, player: PlayerState) -> Message:
    if state.phase != "actions":
        return Message("Actions come after the dice are chosen.")
    turn = state.turn
    return Message("It is {turn_name}'s turn.", {"turn_name": state.player(turn).name if turn else ""})


def legal_options(state: GameState, colour: str) -> Options:
    """What `colour` may do right now, each with its cost or the reason it is not allowed
    (a RulesError in words for a colour nobody plays in this game)."""
    if not state.has_player(colour):
        raise RulesError(Message("There is no {colour} player in this game.", {"colour": colour}), player=colour)
    player = state.player(colour)
    my_turn = state.phase == "actions" and state.turn == colour
    supply = player.supply
    in_supply = cubes.total(supply)
    closed = None if my_turn else _not_turn(state, player)

    activate = []
    for index, card in enumerate(player.tableau):
        if card.cost is None:
            activate.append(_unknown_cost_option(index, card, player, closed))
            continue
        need = cubes.count(card.cost)
        short = cubes.missing(supply, need)
        reason = closed
        if reason is None and short:
            reason = Message(
                "{name} needs {need_cubes} for {card}; the supply holds {have_cubes}.",
                {"name": player.name, "need_cubes": need, "card": card.name, "have_cubes": cubes.ordered(supply)},
            )
        activate.append(CardOption(index, card.name, need, reason is None, reason, effects_open=not card.effects))

    def once(key: str, done: str) -> Message | None:
        if closed is not None:
            return closed
        if key in player.used:
            return Message("{name} has already " + done + " this round.", {"name": player.name})
        return None

    quarter_reason = once("take_quarter", "taken a city quarter")
    if quarter_reason is None and in_supply == 0:
        quarter_reason = Message("The supply is empty.")
    if quarter_reason is None and state.jokers_left == 0 and not any(state.tiles_left.values()):
        quarter_reason = Message("Every quarter of the city is taken.")

    max_wall = (in_supply + 1) // 2
    wall_reason = once("wall", "moved on the wall")
    if wall_reason is None and state.wall_position(colour)[0] == WALL_SPACES - 1:
        wall_reason = Message("{name} is already on the last space of the wall.", {"name": player.name})
    if wall_reason is None and max_wall == 0:
        wall_reason = Message("Moving on the wall needs at least 1 cube.")

    ship_reason = closed
    if ship_reason is None and in_supply == 0:
        ship_reason = Message("Sailing needs 1 cube a space; the supply is empty.")

    price, gain = state.tribute
    prestige_reason = once("buy_prestige", "bought prestige")
    if prestige_reason is None and player.gold < price:
        prestige_reason = Message("Prestige costs {price} gold this round; {name} has {gold}.",
                                  {"price": price, "name": player.name, "gold": player.gold})

    joker_reason = closed
    if joker_reason is None and player.jokers == 0:
        joker_reason = Message("{name} has no joker.", {"name": player.name})

    effects = []
    seen: dict[str, int] = {}
    for card in player.activated:
        seen[card.name] = seen.get(card.name, 0) + 1
    for name, owned in seen.items():
        repeatable = any(REPEATABLE in c.effects for c in player.activated if c.name == name)
        used = player.effects_used.get(name, 0)
        reason = None
        if "card_effect" not in PHASE_ACTIONS[state.phase] or (state.phase == "actions" and not my_turn):
            reason = closed or Message("Cards are not used now.")
        elif not repeatable and used >= owned:
            reason = Message("{name} has already used {card} this round.", {"name": player.name, "card": name})
        effects.append(CardEffectOption(name, reason is None, reason))

    deliver_reason = closed
    if deliver_reason is None and not player.ship:
        deliver_reason = Message("{name}'s ship carries no goods.", {"name": player.name})
    if deliver_reason is None and player.ship_moves == 0:
        deliver_reason = Message("{name}'s ship has not sailed yet: it must move at least once before it can deliver.",
                                 {"name": player.name})

    card_points_reason = None
    if not player.activated:
        card_points_reason = Message("{name} activated no card, so there are no game-end card points.",
                                     {"name": player.name})

    return Options(
        player=colour,
        my_turn=my_turn,
        activate=activate,
        quarter=Allowed(quarter_reason is None, quarter_reason),
        wall=WallOption(wall_reason is None, wall_reason, max_wall if wall_reason is None else 0),
        ship=ShipOption(ship_reason is None, ship_reason, in_supply if ship_reason is None else 0),
        buy_prestige=PrestigeOption(prestige_reason is None, prestige_reason, price, gain),
        joker=JokerOption(joker_reason is None, joker_reason, player.has_effect(DOUBLE_JOKERS)),
        deliver=list(player.ship) if my_turn and player.ship_moves > 0 else [],
        card_effects=effects,
        end_turn=Allowed(my_turn, closed),
        card_points=Allowed(card_points_reason is None, card_points_reason),
        deliver_allowed=Allowed(deliver_reason is None, deliver_reason),
    )

"""Shape checks for records, cards and actions, before any rule is applied.

A value that does not have the documented shape is refused with the path of
the first bad value (``players[1].name``, or ``dice.red`` inside an action) and
what was expected there, so a hand-edited or foreign record never reaches the
rules half-understood. An action's shape is checked when the replay reaches it,
so its error names the action like any broken rule.
"""

from __future__ import annotations

from typing import Any

from app.games.base import MAX_NAME_LENGTH, RecordError, player_name_problem, text_problem

from .model import ACTIVATION_EFFECTS, CARD_KINDS, CUBE_COLOURS, GOODS, PLAYER_COLOURS

MAX_TEXT_LENGTH = 500
MAX_CARD_COST = 4
MAX_TRIBUTE = 2
MAX_DELIVERY = 99
MAX_AMOUNT = 999  # bound for gold, prestige, spaces and cubes in any one action

PLAYER_ACTIONS: frozenset[str] = frozenset(
    {
        "setup_pick",
        "setup_cubes",
        "take_card",
        "choose_dice",
        "activate",
        "take_quarter",
        "wall",
        "ship",
        "deliver",
        "buy_prestige",
        "joker",
        "card_effect",
        "end_turn",
        "final",
        "adjust",
    }
)
TABLE_ACTIONS: frozenset[str] = frozenset({"setup_draw", "reveal", "roll"})
ACTION_TYPES: frozenset[str] = PLAYER_ACTIONS | TABLE_ACTIONS

# Fields each action must carry besides "type" (and "player" for player actions).
_REQUIRED: dict[str, tuple[str, ...]] = {
    "setup_draw": ("cards",),
    "setup_pick": ("card",),
    "setup_cubes": ("one", "two"),
    "reveal": ("office", "cards"),
    "take_card": ("card",),
    "roll": ("dice",),
    "choose_dice": ("dice",),
    "activate": ("card",),
    "take_quarter": ("cost", "tile"),
    "wall": ("spaces", "pay"),
    "ship": ("spaces", "pay"),
    "deliver": ("good", "prestige"),
    "buy_prestige": (),
    "joker": ("take",),
    "card_effect": ("card",),
    "end_turn": (),
    "final": ("card_points", "city_group"),
    "adjust": ("note",),
}
def _inside(where: str) -> str:
    """The path prefix for a field of the value at `where` ("" when the value is the action itself)."""
    return f"{where}." if where else ""


def describe(value: object) -> str:
    """A short, safe rendering of a found value for an error message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_int(value: object, where: str, low: int, high: int) -> int:
    if not is_int(value):
        raise RecordError(where, f"expected a whole number, found {describe(value)}")
    assert isinstance(value, int)
    if not low <= value <= high:
        raise RecordError(where, f"expected a number from {low} to {high}, found {value}")
    return value


def check_text(value: object, where: str, max_length: int, allow_empty: bool = False) -> str:
    """Typed text (card names, notes, ports) under the project's one text rule."""
    if not isinstance(value, str):
        raise RecordError(where, f"expected text, found {describe(value)}")
    problem = text_problem(value, max_length, allow_empty)
    if problem is not None:
        raise RecordError(where, problem)
    return value


def check_player_name(value: object, where: str) -> str:
    """A player's name under the same rule as names typed on the touchscreen."""
    if not isinstance(value, str):
        raise RecordError(where, f"expected text, found {describe(value)}")
    problem = player_name_problem(value)
    if problem is not None:
        raise RecordError(where, problem)
    return value


def check_choice(value: object, where: str, choices: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise RecordError(where, f"expected {what} ({', '.join(choices)}), found {describe(value)}")
    return value


def check_list(value: object, where: str, low: int, high: int) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, f"expected a list, found {describe(value)}")
    if not low <= len(value) <= high:
        expected = f"{low}" if low == high else f"{low} to {high}"
        raise RecordError(where, f"expected {expected} entries, found {len(value)}")
    return value


def check_object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(where, f"expected an object, found {describe(value)}")
    return value


def check_required(obj: dict[str, Any], where: str, required: tuple[str, ...]) -> None:
    """Known fields must be there; unknown ones are left alone, as the format allows."""
    for key in required:
        if key not in obj:
            raise RecordError(where, f"missing field '{key}'")


def check_cubes(value: object, where: str, low: int, high: int) -> list[str]:
    items = check_list(value, where, low, high)
    for i, colour in enumerate(items):
        check_choice(colour, f"{where}[{i}]", CUBE_COLOURS, "a cube colour")
    return items


def check_card(value: object, where: str) -> None:
    card = check_object(value, where)
    check_required(card, where, ("name", "kind", "cost", "tribute"))
    check_text(card["name"], f"{_inside(where)}name", MAX_NAME_LENGTH)
    check_choice(card["kind"], f"{_inside(where)}kind", CARD_KINDS, "a card kind")
    if card["cost"] is not None:  # null: not entered at reveal, named by the payment at activation
        check_cubes(card["cost"], f"{_inside(where)}cost", 1, MAX_CARD_COST)
    tribute = check_list(card["tribute"], f"{_inside(where)}tribute", 2, 2)
    check_int(tribute[0], f"{_inside(where)}tribute[0]", 0, MAX_TRIBUTE)
    check_int(tribute[1], f"{_inside(where)}tribute[1]", 0, MAX_TRIBUTE)
    if "effects" in card:
        effects = check_list(card["effects"], f"{_inside(where)}effects", 0, 10)
        for i, tag in enumerate(effects):
            check_text(tag, f"{_inside(where)}effects[{i}]", MAX_NAME_LENGTH)
    if "id" in card and not (isinstance(card["id"], str) or is_int(card["id"])):
        raise RecordError(f"{_inside(where)}id", f"expected text or a number, found {describe(card['id'])}")


def _check_bundle(value: object, where: str) -> None:
    bundle = check_object(value, where)
    if "cubes" in bundle:
        check_cubes(bundle["cubes"], f"{_inside(where)}cubes", 0, MAX_AMOUNT)
    for key in ("gold", "prestige"):
        if key in bundle:
            check_int(bundle[key], f"{_inside(where)}{key}", 0, MAX_AMOUNT)


def _check_activation_effects(value: object, where: str) -> None:
    """An activation's effects: one or both of the tags the rules act on, each once."""
    tags = check_list(value, where, 1, len(ACTIVATION_EFFECTS))
    for i, tag in enumerate(tags):
        check_choice(tag, f"{where}[{i}]", ACTIVATION_EFFECTS, "an effect an activation may name")
    if len(set(tags)) < len(tags):
        raise RecordError(where, f"names {tags[0]} twice")


def _check_joker_take(value: object, where: str) -> None:
    if value == "gold":
        return
    items = check_list(value, where, 1, 2)
    for i, item in enumerate(items):
        if item != "gold":
            check_choice(item, f"{where}[{i}]", CUBE_COLOURS, "a cube colour or \"gold\"")


def check_action(value: object, where: str = "") -> dict[str, Any]:
    """Check one action's shape (not its rules); returns it as a dict.

    Paths in errors start at the action (`dice.red`), or at `where` when given.
    """
    action = check_object(value, where)
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise RecordError(f"{_inside(where)}type", f"unknown action type {describe(kind)}")
    required = _REQUIRED[kind]
    if kind in PLAYER_ACTIONS:
        required = ("type", "player", *required)
    else:
        required = ("type", *required)
    check_required(action, where, required)
    if kind in PLAYER_ACTIONS:
        check_choice(action["player"], f"{_inside(where)}player", PLAYER_COLOURS, "a player colour")

    if kind == "setup_draw":
        cards = check_list(action["cards"], f"{_inside(where)}cards", 1, 6)
        for i, card in enumerate(cards):
            check_card(card, f"{_inside(where)}cards[{i}]")
    elif kind == "reveal":
        for key, count in (("office", 2), ("cards", 4)):
            cards = check_list(action[key], f"{_inside(where)}{key}", count, count)
            for i, card in enumerate(cards):
                check_card(card, f"{_inside(where)}{key}[{i}]")
    elif kind in ("setup_pick", "activate"):
        check_int(action["card"], f"{_inside(where)}card", 0, 99)
        if kind == "activate" and "pay" in action:
            check_cubes(action["pay"], f"{_inside(where)}pay", 1, MAX_CARD_COST)
        if kind == "activate" and "effects" in action:
            _check_activation_effects(action["effects"], f"{_inside(where)}effects")
    elif kind == "take_card":
        check_int(action["card"], f"{_inside(where)}card", 0, 5)
        if "discard" in action:
            check_int(action["discard"], f"{_inside(where)}discard", 0, 5)
    elif kind == "setup_cubes":
        check_choice(action["one"], f"{_inside(where)}one", CUBE_COLOURS, "a cube colour")
        check_choice(action["two"], f"{_inside(where)}two", CUBE_COLOURS, "a cube colour")
    elif kind == "roll":
        dice = check_object(action["dice"], f"{_inside(where)}dice")
        for colour in CUBE_COLOURS:
            if colour not in dice:
                raise RecordError(f"{_inside(where)}dice", f"missing the {colour} die")
        for colour, pips in dice.items():
            if colour not in CUBE_COLOURS:
                raise RecordError(f"{_inside(where)}dice.{colour}", "not one of the six dice")
            check_int(pips, f"{_inside(where)}dice.{colour}", 1, 6)
    elif kind == "choose_dice":
        check_cubes(action["dice"], f"{_inside(where)}dice", 2, 2)
    elif kind == "take_quarter":
        check_cubes(action["cost"], f"{_inside(where)}cost", 1, MAX_AMOUNT)  # no rule bounds a quarter's cost
        check_choice(action["tile"], f"{_inside(where)}tile", (*GOODS, "joker"), "a good or \"joker\"")
        if "quarter" in action and not (isinstance(action["quarter"], str) or is_int(action["quarter"])):
            raise RecordError(f"{_inside(where)}quarter", f"expected text or a number, found {describe(action['quarter'])}")
    elif kind in ("wall", "ship"):
        check_int(action["spaces"], f"{_inside(where)}spaces", 1, MAX_AMOUNT)
        most = 2 * MAX_AMOUNT - 1 if kind == "wall" else MAX_AMOUNT  # the wall's 2n - 1 for the most spaces
        check_cubes(action["pay"], f"{_inside(where)}pay", 0, most)
        if "to" in action and not (isinstance(action["to"], str) or is_int(action["to"])):
            raise RecordError(f"{_inside(where)}to", f"expected text or a number, found {describe(action['to'])}")
    elif kind == "deliver":
        check_choice(action["good"], f"{_inside(where)}good", GOODS, "a good")
        check_int(action["prestige"], f"{_inside(where)}prestige", 0, MAX_DELIVERY)
        if "port" in action:
            check_text(action["port"], f"{_inside(where)}port", MAX_NAME_LENGTH)
    elif kind == "joker":
        _check_joker_take(action["take"], f"{_inside(where)}take")
    elif kind == "card_effect":
        check_text(action["card"], f"{_inside(where)}card", MAX_NAME_LENGTH)
        for key in ("gain", "pay"):
            if key in action:
                _check_bundle(action[key], f"{_inside(where)}{key}")
        if "note" in action:
            check_text(action["note"], f"{_inside(where)}note", MAX_TEXT_LENGTH, allow_empty=True)
    elif kind == "final":
        check_int(action["card_points"], f"{_inside(where)}card_points", 0, MAX_AMOUNT)
        check_int(action["city_group"], f"{_inside(where)}city_group", 0, 30)
    elif kind == "adjust":
        check_text(action["note"], f"{_inside(where)}note", MAX_TEXT_LENGTH)
        for key in ("gold", "prestige", "punish"):
            if key in action:
                check_int(action[key], f"{_inside(where)}{key}", -MAX_AMOUNT, MAX_AMOUNT)
    return action

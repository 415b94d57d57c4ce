"""One-line, translatable summaries of table actions for the history list.

Each summary is a Message (an English str.format template plus its values), so
the UI can translate the template and keep the values. Cards are named from the
state the action was taken in, because actions only carry indexes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import Message
from .model import CUBE_COLOURS, GameState


def describe_action(action: Mapping[str, Any], before: GameState, after: GameState) -> Message:
    """Summarise one action that turned `before` into `after`."""
    kind = str(action.get("type", "?"))
    colour = str(action.get("player") or "")
    params: dict[str, object] = {"name": _name(before, colour)} if colour else {}
    if kind == "setup_draw":
        return Message("Set-up cards laid out: {cards}", {"cards": _card_names(action.get("cards", ()))})
    if kind == "setup_pick":
        params["card"] = _card_name(_at(before.setup_cards, action.get("card")))
        return Message("{name} picks {card} for the start", params)
    if kind == "setup_cubes":
        params.update(one=action.get("one"), two=action.get("two"))
        return Message("{name} places 1 {one} and 2 {two} on the windrose", params)
    if kind == "reveal":
        cards = list(action.get("office", ())) + list(action.get("cards", ()))
        gold, prestige = after.tribute
        return Message(
            "Round {round} cards: {cards}; prestige costs {gold} gold for {prestige}",
            {"round": after.round, "cards": _card_names(cards), "gold": gold, "prestige": prestige},
        )
    if kind == "take_card":
        params["card"] = _card_name(_at(before.revealed, action.get("card")))
        if "discard" in action:
            tableau = [*_tableau(before, colour), _at(before.revealed, action.get("card"))]
            params["discarded"] = _card_name(_at(tableau, action.get("discard")))
            return Message("{name} takes {card} and discards {discarded} (punish marker)", params)
        return Message("{name} takes {card}", params)
    if kind == "roll":
        # The colours are part of the template, so a translation names them in its own words.
        dice = {colour: action.get("dice", {}).get(colour, "?") for colour in CUBE_COLOURS}
        return Message("Dice rolled: red {red}, blue {blue}, green {green}, black {black}, gray {gray}, "
                       "violet {violet}", dice)
    if kind == "choose_dice":
        first, second = (list(action.get("dice", ())) + ["?", "?"])[:2]
        params.update(first=first, second=second)
        return Message("{name} chooses the {first} and {second} dice", params)
    if kind == "activate":
        params["card"] = _card_name(_at(_tableau(before, colour), action.get("card")))
        return Message("{name} activates {card}", params)
    if kind == "take_quarter":
        params.update(cost=_cube_list(action.get("cost", ())), tile=action.get("tile"))
        return Message("{name} takes a quarter for {cost} and gets {tile}", params)
    if kind == "wall":
        params["spaces"] = action.get("spaces")
        return Message("{name} moves {spaces} space(s) along the wall", params)
    if kind == "ship":
        params["spaces"] = action.get("spaces")
        return Message("{name} sails {spaces} space(s)", params)
    if kind == "deliver":
        params.update(good=action.get("good"), prestige=action.get("prestige"))
        return Message("{name} delivers {good} for {prestige} prestige", params)
    if kind == "buy_prestige":
        gold, prestige = before.tribute
        params.update(gold=gold, prestige=prestige)
        return Message("{name} buys {prestige} prestige for {gold} gold", params)
    if kind == "joker":
        take = action.get("take")
        params["take"] = " + ".join(take) if isinstance(take, list) else str(take)
        return Message("{name} plays a joker for {take}", params)
    if kind == "card_effect":
        params["card"] = action.get("card")
        return Message("{name} uses the effect of {card}", params)
    if kind == "end_turn":
        return Message("{name} ends the turn", params)
    if kind == "final":
        params.update(card_points=action.get("card_points"), city_group=action.get("city_group"))
        return Message("{name} scores {card_points} card points and a city group of {city_group}", params)
    if kind == "adjust":
        changes = ", ".join(
            f"{key} {action[key]:+d}" for key in ("gold", "prestige", "punish") if isinstance(action.get(key), int)
        )
        params.update(changes=changes or "no change", note=action.get("note", ""))
        return Message("Correction for {name}: {changes} ({note})", params)
    return Message("{kind}", {"kind": kind})


def _name(state: GameState, colour: object) -> str:
    for player in state.players:
        if player.colour == colour:
            return player.name
    return str(colour)


def _tableau(state: GameState, colour: str) -> Sequence[Any]:
    """The player's cards; none for a colour nobody plays (an action the rules will refuse)."""
    return state.player(colour).tableau if state.has_player(colour) else ()


def _at(items: Sequence[Any], index: object) -> Any:
    if isinstance(index, int) and 0 <= index < len(items):
        return items[index]
    return None


def _card_name(card: Any) -> str:
    if card is None:
        return "a card"
    if isinstance(card, Mapping):
        return str(card.get("name") or "a card")
    return str(getattr(card, "name", None) or "a card")


def _card_names(cards: Sequence[Any]) -> str:
    return ", ".join(_card_name(card) for card in cards)


def _cube_list(cubes: Sequence[str]) -> str:
    return " ".join(cubes) if cubes else "nothing"

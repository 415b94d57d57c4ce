"""The Marco Polo II sheet (format marcopolo2-score/1): read, write and fill in by actions.

During the game it holds each round's dice of every player (from the camera or
typed); at the end, each player's end scoring. The sheet is kept as the JSON
document itself, so unknown fields are written back unchanged; a change is an
action, refused with the path of the bad value and a reason.
"""

from __future__ import annotations

import copy
from typing import Any

from app.games.base import (
    Message,
    SheetError,
    check_action,
    check_count,
    check_counts,
    check_format,
    check_list,
    check_object,
    check_players,
    player_index,
    require,
    shown,
)

GAME_ID = "marcopolo2"
FORMAT = "marcopolo2-score/1"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROUNDS = 5
MAX_DICE = 6  # a player's own dice at the start of a round
# The colours a table may give its players; black and white dice belong to nobody.
PLAYER_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
NOBODYS_DICE = ("black", "white")
DIE_COLOURS = (*PLAYER_COLOURS, *NOBODYS_DICE)
END_FIELDS = ("vp_track", "guild_seals_vp", "shields_vp", "goods", "coins", "contracts", "camels")

Sheet = dict[str, Any]


def check_colour(value: object, where: str) -> str:
    if value in NOBODYS_DICE:
        raise SheetError(where, Message("black and white dice belong to no player; choose a player colour"))
    if not isinstance(value, str) or value not in PLAYER_COLOURS:
        raise SheetError(where, Message("expected a player colour ({colours}), found {found}",
                                        {"colours": ", ".join(PLAYER_COLOURS), "found": shown(value)}))
    return value


def check_roll(value: object, where: str) -> list[int]:
    """One player's own dice as rolled at the start of a round."""
    return check_counts(value, where, (1, MAX_DICE), 1, 6)


def _check_rounds_together(players: list[dict[str, Any]], where: str) -> None:
    """Everyone rolls at the start of each round, so no player's rolls run a round ahead of another's."""
    counts = [len(p.get("rolls", [])) for p in players]
    if max(counts) - min(counts) > 1:
        behind = counts.index(min(counts))
        raise SheetError(where, Message(
            "{name} has dice for {few} rounds and another player for {many}; the rounds are rolled together",
            {"name": players[behind]["name"], "few": min(counts), "many": max(counts)}))


def parse_sheet(doc: object) -> Sheet:
    """Check a decoded document and return a copy of it as a sheet (end fields may wait for the end)."""
    root = check_object(doc, "sheet")
    check_format(root, FORMAT)
    players = check_players(root, MIN_PLAYERS, MAX_PLAYERS)
    colours: set[str] = set()
    for i, player in enumerate(players):
        where = f"players[{i}]"
        colour = check_colour(require(player, "colour", where), f"{where}.colour")
        if colour in colours:
            raise SheetError(f"{where}.colour", Message("{colour} is already another player's colour",
                                                        {"colour": colour}))
        colours.add(colour)
        rolls = check_list(player.get("rolls", []), f"{where}.rolls", 0, ROUNDS)
        for r, roll in enumerate(rolls):
            check_roll(roll, f"{where}.rolls[{r}]")
        for name in END_FIELDS:
            if name in player:
                check_count(player[name], f"{where}.{name}")
    _check_rounds_together(players, "players")
    return copy.deepcopy(root)


def new_sheet(players: list[tuple[str, str]]) -> Sheet:
    """An empty sheet for (name, colour) pairs in player order."""
    return parse_sheet({"format": FORMAT,
                        "players": [{"name": name, "colour": colour, "rolls": []} for name, colour in players]})


def current_round(sheet: Sheet) -> int:
    """The round whose dice are being entered (1-5), or ROUNDS + 1 once every round is in."""
    return min(len(p.get("rolls", [])) for p in sheet["players"]) + 1


def apply_action(sheet: Sheet, action: object) -> Sheet:
    """The sheet after one action:

    - ``{"type": "round_dice", "player": name, "round": r, "dice": [pips]}`` enters or corrects a
      player's dice of round r (the round being rolled, or an earlier one);
    - ``{"type": "end", "player": name, <any of END_FIELDS>: n}`` enters or corrects values of a
      player's end scoring (a pad may send them one at a time).
    """
    act = check_action(action, ("round_dice", "end"))
    index = player_index(sheet, act)
    after = copy.deepcopy(sheet)
    player = after["players"][index]
    if act["type"] == "round_dice":
        number = check_count(require(act, "round", "action"), "action.round", 1, ROUNDS)
        rolls = player.setdefault("rolls", [])
        if number > len(rolls) + 1 or number > current_round(sheet):
            raise SheetError("action.round", Message(
                "Round {round} is not being rolled yet: the dice of round {current} come first.",
                {"round": number, "current": min(current_round(sheet), len(rolls) + 1)}))
        dice = check_roll(require(act, "dice", "action"), "action.dice")
        if number > len(rolls):
            rolls.append(dice)
        else:
            rolls[number - 1] = dice
    else:
        given = [name for name in END_FIELDS if name in act]
        if not given:
            raise SheetError("action", Message("an end entry needs at least one of: {fields}",
                                               {"fields": ", ".join(END_FIELDS)}))
        for name in given:
            player[name] = check_count(act[name], f"action.{name}")
    return after


def describe_action(action: dict[str, Any]) -> Message:
    if action["type"] == "round_dice":
        return Message("Round {round}, dice of {name}: {dice}",
                       {"round": action["round"], "name": action["player"],
                        "dice": " ".join(str(d) for d in action["dice"])})
    return Message("End scoring of {name}", {"name": action["player"]})


def missing_end(sheet: Sheet) -> list[str]:
    """Names of the players whose end scoring is not complete."""
    return [p["name"] for p in sheet["players"] if any(name not in p for name in END_FIELDS)]


def waiting_for(sheet: Sheet) -> Message | None:
    """The next round's dice, then the end scoring; None when the sheet can be scored."""
    missing = missing_end(sheet)
    if not missing:
        return None
    number = current_round(sheet)
    if number <= ROUNDS:
        behind = [p["name"] for p in sheet["players"] if len(p.get("rolls", [])) < number]
        return Message("Round {round}: the dice of {name}.", {"round": number, "name": behind[0]})
    return Message("End of the game: the end scoring of {name}.", {"name": missing[0]})


def progress(sheet: Sheet) -> dict[str, int]:
    return {"rounds_rolled": current_round(sheet) - 1, "rounds": ROUNDS,
            "end_entered": len(sheet["players"]) - len(missing_end(sheet))}

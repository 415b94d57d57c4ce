"""The guild-columns score sheet (format columns-score/1): read, write and fill in by actions.

The sheet is kept as the JSON document itself, so fields this version does not
know stay where they were and are written back unchanged. Every change is an
action checked like the sheet is: a bad value is refused with its path and a
reason, and the sheet it was tried on is left as it was.
"""

from __future__ import annotations

import copy
from typing import Any

from app.games.base import (
    Message,
    SheetError,
    check_action,
    check_counts,
    check_format,
    check_object,
    check_players,
    player_index,
    require,
)

GAME_ID = "guild_columns"
FORMAT = "columns-score/1"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_COLUMNS = 6  # one column per guild
MAX_HEIGHT = 18  # each guild has 18 cards
DECK_SIZE = 108  # six guilds of 18

Sheet = dict[str, Any]


def check_columns(value: object, where: str) -> list[int]:
    """One player's column heights, left to right as they see them."""
    return check_counts(value, where, (1, MAX_COLUMNS), 1, MAX_HEIGHT)


def _check_deck(players: list[dict[str, Any]], where: str) -> None:
    cards = sum(sum(p.get("columns", [])) for p in players)
    if cards > DECK_SIZE:
        raise SheetError(where, Message("The columns hold {cards} cards together; the game has only {deck}.",
                                        {"cards": cards, "deck": DECK_SIZE}))


def parse_sheet(doc: object) -> Sheet:
    """Check a decoded document and return a copy of it as a sheet.

    A player without `columns` has not been entered yet: the sheet can be kept
    and filled in, but not scored.
    """
    root = check_object(doc, "sheet")
    check_format(root, FORMAT)
    players = check_players(root, MIN_PLAYERS, MAX_PLAYERS)
    for i, player in enumerate(players):
        if "columns" in player:
            check_columns(player["columns"], f"players[{i}].columns")
    _check_deck(players, "players")
    return copy.deepcopy(root)


def new_sheet(names: list[str]) -> Sheet:
    """An empty sheet for these players, listed going round the table."""
    return parse_sheet({"format": FORMAT, "players": [{"name": name} for name in names]})


def apply_action(sheet: Sheet, action: object) -> Sheet:
    """The sheet after one action; the only action enters (or corrects) a player's columns:
    ``{"type": "columns", "player": name, "columns": [heights, left to right]}``."""
    act = check_action(action, ("columns",))
    index = player_index(sheet, act)
    heights = check_columns(require(act, "columns", "action"), "action.columns")
    after = copy.deepcopy(sheet)
    after["players"][index]["columns"] = heights
    _check_deck(after["players"], "action.columns")
    return after


def describe_action(action: dict[str, Any]) -> Message:
    return Message("Columns of {name}: {heights}",
                   {"name": action["player"], "heights": " ".join(str(h) for h in action["columns"])})


def missing_players(sheet: Sheet) -> list[str]:
    """Names of the players whose columns are still to be entered, in sheet order."""
    return [p["name"] for p in sheet["players"] if "columns" not in p]


def waiting_for(sheet: Sheet) -> Message | None:
    """What the sheet needs next, or None when it can be scored."""
    missing = missing_players(sheet)
    if not missing:
        return None
    return Message("Enter the columns of {name}, left to right as they see them.", {"name": missing[0]})


def progress(sheet: Sheet) -> dict[str, int]:
    players = len(sheet["players"])
    return {"entered": players - len(missing_players(sheet)), "players": players}


def heights_of(sheet: Sheet) -> list[list[int]]:
    """Every player's column heights; the sheet must be complete."""
    rows = []
    for i, player in enumerate(sheet["players"]):
        if "columns" not in player:
            raise SheetError(f"players[{i}].columns",
                             Message("missing; every player's columns are needed to score"))
        rows.append(list(player["columns"]))
    return rows

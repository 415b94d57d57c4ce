"""The Shadows of Macao score sheet (format shadows-score/1): read, write and fill in by actions.

Each player gives the cash value of every gang member (red side) and of every
establishment they opened. The sheet is kept as the JSON document itself, so
unknown fields are written back unchanged; a change is an action, refused with
the path of the bad value and a reason, leaving the sheet as it was.
"""

from __future__ import annotations

import copy
from typing import Any

from app.games.base import (
    Message,
    check_action,
    check_counts,
    check_format,
    check_object,
    check_players,
    player_index,
    require,
)

GAME_ID = "shadows"
FORMAT = "shadows-score/1"
MIN_PLAYERS, MAX_PLAYERS = 2, 7  # one widow per player, seven in the box
FULL_GANG = 7  # a gang of seven ends the game
MAX_ESTABLISHMENTS = 10  # the establishments the game has
PARTS = ("gang", "establishments")  # what each player enters, and the action that enters it
_MAX_ENTRIES = {"gang": FULL_GANG, "establishments": MAX_ESTABLISHMENTS}

Sheet = dict[str, Any]


def check_part(part: str, value: object, where: str) -> list[int]:
    """One player's gang or establishment values."""
    return check_counts(value, where, (0, _MAX_ENTRIES[part]))


def parse_sheet(doc: object) -> Sheet:
    """Check a decoded document and return a copy of it as a sheet.

    A player without `gang` or `establishments` has not given them yet: the
    sheet can be kept and filled in, but not scored.
    """
    root = check_object(doc, "sheet")
    check_format(root, FORMAT)
    for i, player in enumerate(check_players(root, MIN_PLAYERS, MAX_PLAYERS)):
        for part in PARTS:
            if part in player:
                check_part(part, player[part], f"players[{i}].{part}")
    return copy.deepcopy(root)


def new_sheet(names: list[str]) -> Sheet:
    return parse_sheet({"format": FORMAT, "players": [{"name": name} for name in names]})


def apply_action(sheet: Sheet, action: object) -> Sheet:
    """The sheet after one action, which enters (or corrects) a player's whole list:
    ``{"type": "gang" | "establishments", "player": name, "values": [cash values]}``."""
    act = check_action(action, PARTS)
    index = player_index(sheet, act)
    part = act["type"]
    values = check_part(part, require(act, "values", "action"), "action.values")
    after = copy.deepcopy(sheet)
    after["players"][index][part] = values
    return after


def describe_action(action: dict[str, Any]) -> Message:
    values = " ".join(str(v) for v in action["values"]) or "-"
    if action["type"] == "gang":
        return Message("Gang of {name}: {values}", {"name": action["player"], "values": values})
    return Message("Establishments of {name}: {values}", {"name": action["player"], "values": values})


def missing_entries(sheet: Sheet) -> list[tuple[str, str]]:
    """(player name, part) still to be entered, in sheet order."""
    return [(p["name"], part) for p in sheet["players"] for part in PARTS if part not in p]


def waiting_for(sheet: Sheet) -> Message | None:
    """What the sheet needs next, or None when it can be scored."""
    missing = missing_entries(sheet)
    if not missing:
        return None
    name, part = missing[0]
    if part == "gang":
        return Message("Enter the cash value of each of {name}'s gang members.", {"name": name})
    return Message("Enter the cash value of each establishment {name} opened.", {"name": name})


def end_reminder(sheet: Sheet) -> Message | None:
    """The game ends with a full gang (or no establishment left); the round is still played out."""
    full = [p["name"] for p in sheet["players"] if len(p.get("gang", [])) >= FULL_GANG]
    if not full:
        return None
    return Message("The gang of {name} has seven members: finish the round before counting.", {"name": full[0]})


def progress(sheet: Sheet) -> dict[str, int]:
    parts = len(sheet["players"]) * len(PARTS)
    return {"entered": parts - len(missing_entries(sheet)), "parts": parts}

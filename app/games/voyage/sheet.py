"""The ship-voyage score sheet (format voyage-score/1): read, write and fill in by actions.

For each of the two voyages a player gives the coins earned and the goods still
on the ship at its end. The sheet is kept as the JSON document itself, so unknown
fields (in the sheet, a player or a voyage) are written back unchanged; a change
is an action, refused with the path of the bad value and a reason.
"""

from __future__ import annotations

import copy
from typing import Any

from app.games.base import (
    Message,
    SheetError,
    check_action,
    check_count,
    check_format,
    check_list,
    check_object,
    check_players,
    player_index,
    require,
)

GAME_ID = "voyage"
FORMAT = "voyage-score/1"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROUNDS = 2
SHIP_SPACES = 12  # a ship holds twelve items
CHEST_VALUE = 10

Sheet = dict[str, Any]


def _chests_after_first(first: dict[str, Any]) -> int:
    return (first["coins"] + first["goods_left"]) // CHEST_VALUE


def check_voyage(value: object, where: str, chests_aboard: int) -> dict[str, Any]:
    """One voyage's coins and goods left; chests from the first voyage take room on the second."""
    voyage = check_object(value, where)
    check_count(require(voyage, "coins", where), f"{where}.coins")
    room = max(0, SHIP_SPACES - chests_aboard)
    goods = check_count(require(voyage, "goods_left", where), f"{where}.goods_left")
    if goods > room:
        if chests_aboard:
            raise SheetError(f"{where}.goods_left", Message(
                "{goods} goods cannot be left: the ship has {spaces} spaces and {chests} hold chests",
                {"goods": goods, "spaces": SHIP_SPACES, "chests": chests_aboard}))
        raise SheetError(f"{where}.goods_left", Message("{goods} goods cannot be left: the ship has {spaces} spaces",
                                                        {"goods": goods, "spaces": SHIP_SPACES}))
    return voyage


def check_rounds(value: object, where: str) -> list[dict[str, Any]]:
    rounds = check_list(value, where, 0, ROUNDS)
    chests = 0
    for r, voyage in enumerate(rounds):
        check_voyage(voyage, f"{where}[{r}]", chests)
        chests = _chests_after_first(voyage)
    return rounds


def parse_sheet(doc: object) -> Sheet:
    """Check a decoded document and return a copy of it as a sheet (fewer than two voyages: not yet scored)."""
    root = check_object(doc, "sheet")
    check_format(root, FORMAT)
    for i, player in enumerate(check_players(root, MIN_PLAYERS, MAX_PLAYERS)):
        if "rounds" in player:
            check_rounds(player["rounds"], f"players[{i}].rounds")
    return copy.deepcopy(root)


def new_sheet(names: list[str]) -> Sheet:
    return parse_sheet({"format": FORMAT, "players": [{"name": name, "rounds": []} for name in names]})


def apply_action(sheet: Sheet, action: object) -> Sheet:
    """The sheet after one action, which enters (or corrects) one voyage of a player:
    ``{"type": "voyage", "player": name, "round": 1 | 2, "coins": n, "goods_left": n}``; any other
    field is kept in the voyage as a sheet keeps fields it does not know."""
    act = check_action(action, ("voyage",))
    index = player_index(sheet, act)
    rounds = sheet["players"][index].get("rounds", [])
    number = check_count(require(act, "round", "action"), "action.round", 1, ROUNDS)
    if number > len(rounds) + 1:
        raise SheetError("action.round", Message("Enter the first voyage of {name} before the second.",
                                                 {"name": act["player"]}))
    require(act, "coins", "action")
    require(act, "goods_left", "action")
    entry = dict(rounds[number - 1]) if number <= len(rounds) else {}
    entry.update({k: v for k, v in act.items() if k not in ("type", "player", "round")})  # unknown fields too
    changed = [*rounds[:number - 1], entry, *rounds[number:]]
    where = f"players[{index}].rounds"
    try:
        check_rounds(changed, where)
    except SheetError as err:
        own = f"{where}[{number - 1}]."
        if err.where.startswith(own):  # this voyage's own value; otherwise the later voyage it no longer fits
            raise SheetError(f"action.{err.where.removeprefix(own)}", err.message) from None
        raise
    after = copy.deepcopy(sheet)
    after["players"][index]["rounds"] = changed
    return after


def describe_action(action: dict[str, Any]) -> Message:
    return Message("Voyage {round} of {name}: {coins} coins, {goods} goods left",
                   {"round": action["round"], "name": action["player"], "coins": action["coins"],
                    "goods": action["goods_left"]})


def missing_entries(sheet: Sheet) -> list[tuple[str, int]]:
    """(player name, voyage 1 or 2) still to be entered: every first voyage before any second."""
    return [(p["name"], r) for r in range(1, ROUNDS + 1) for p in sheet["players"] if len(p.get("rounds", [])) < r]


def waiting_for(sheet: Sheet) -> Message | None:
    missing = missing_entries(sheet)
    if not missing:
        return None
    name, number = missing[0]
    return Message("Voyage {round} of {name}: coins earned and goods left on the ship.",
                   {"round": number, "name": name})


def progress(sheet: Sheet) -> dict[str, int]:
    voyages = len(sheet["players"]) * ROUNDS
    return {"entered": voyages - len(missing_entries(sheet)), "voyages": voyages}

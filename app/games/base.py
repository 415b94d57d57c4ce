"""What every game's rules share: the one rule for names and other typed text.

Game packages may import this module (and nothing else of the project), so a
name typed on the touchscreen, stored in the journal, written to a backup and
read back by any game's record reader is judged by the same rule everywhere.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_NAME_LENGTH = 40

# Characters that reorder the text around them on screen: a name holding them can
# show as another name, so they are refused in anything a player types.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def text_problem(text: str, max_length: int, allow_empty: bool = False) -> str | None:
    """Why `text` cannot be kept as typed text, or None when it can.

    Refused: empty or blank text (unless allowed), more than `max_length`
    characters, control characters (tab, line breaks, escape...), a lone half
    of a surrogate pair (valid JSON, but no character) and bidirectional controls.
    """
    if not allow_empty and not text.strip():
        return "must not be empty"
    if len(text) > max_length:
        return f"is {len(text)} characters long; at most {max_length} are allowed"
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cc":
            return "contains control characters"
        if category == "Cs":
            return "contains a broken character (a lone surrogate)"
        if ch in BIDI_CONTROLS:
            return "contains a character that reverses the writing direction"
    return None


def player_name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None when it can (every game, every screen)."""
    problem = text_problem(name, MAX_NAME_LENGTH)
    if problem is None and name != name.strip():
        return "must not start or end with a space"
    return problem


# -- What the score-sheet games share -------------------------------------------
# A score sheet is a JSON document the table fills in (spec/other-games.md): the
# same player list, the same counting rules, the same way of naming a bad value
# by its path, and the same ranking with shared places.

MAX_COUNT = 999  # every count on a sheet, unless its game says otherwise
MAX_SHEET_BYTES = 1024 * 1024  # a filled sheet is a few kB
MAX_SHEET_DEPTH = 32  # sheets nest 4 levels; unknown fields may add some, not this many

Translate = Callable[[str], str]


def _identity(text: str) -> str:
    return text


@dataclass(frozen=True)
class Message:
    """A sentence for players: an English str.format template (the gettext msgid) and its values."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, translate: Translate = _identity) -> str:
        return translate(self.template).format(**self.params)

    def __str__(self) -> str:
        return self.render()


class SheetError(ValueError):
    """A sheet, or an action on it, breaks the format or a rule; nothing was changed.

    `where` is the path of the bad value (``players[1].columns[2]``), `message`
    says what is wrong in words the UI can translate.
    """

    def __init__(self, where: str, message: Message) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else str(message))


def shown(value: object) -> str:
    """A short, safe rendering of a found value for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _depth(value: object, limit: int) -> int:
    """Nesting depth of a JSON value, stopping once it passes `limit`."""
    stack: list[tuple[object, int]] = [(value, 1)]
    deepest = 0
    while stack and deepest <= limit:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def read_sheet_json(text: str | bytes) -> object:
    """Decode a sheet's JSON text, refusing what cannot be a sheet (too big, too deep, not JSON)."""
    if len(text) > MAX_SHEET_BYTES:
        raise SheetError("", Message("The file is {size} kB; a score sheet is at most {limit} kB.",
                                     {"size": len(text) // 1024, "limit": MAX_SHEET_BYTES // 1024}))
    try:
        doc = json.loads(text)
    except RecursionError:
        doc = None
        deep = True
    except json.JSONDecodeError as err:
        raise SheetError(f"line {err.lineno}, column {err.colno}",
                         Message("not valid JSON ({problem})", {"problem": err.msg})) from None
    except UnicodeDecodeError:
        raise SheetError("", Message("The file is not UTF-8 text.")) from None
    else:
        deep = _depth(doc, MAX_SHEET_DEPTH) > MAX_SHEET_DEPTH
    if deep:
        raise SheetError("", Message("The document is nested more than {limit} levels deep.",
                                     {"limit": MAX_SHEET_DEPTH}))
    return doc


def check_object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SheetError(where, Message("expected an object, found {found}", {"found": shown(value)}))
    return value


def check_list(value: object, where: str, low: int, high: int) -> list[Any]:
    if not isinstance(value, list):
        raise SheetError(where, Message("expected a list, found {found}", {"found": shown(value)}))
    if not low <= len(value) <= high:
        raise SheetError(where, Message("expected {low} to {high} entries, found {count}",
                                        {"low": low, "high": high, "count": len(value)}))
    return value


def check_count(value: object, where: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """A whole number from `low` to `high` (true and false are not numbers here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise SheetError(where, Message("expected a whole number, found {found}", {"found": shown(value)}))
    if not low <= value <= high:
        raise SheetError(where, Message("expected a number from {low} to {high}, found {found}",
                                        {"low": low, "high": high, "found": value}))
    return value


def check_counts(value: object, where: str, length: tuple[int, int], low: int = 0, high: int = MAX_COUNT) -> list[int]:
    """A list of `length[0]` to `length[1]` whole numbers, each from `low` to `high`."""
    items = check_list(value, where, *length)
    return [check_count(item, f"{where}[{i}]", low, high) for i, item in enumerate(items)]


def check_format(root: dict[str, Any], expected: str) -> None:
    if "format" not in root:
        raise SheetError("format", Message("missing; expected \"{expected}\"", {"expected": expected}))
    if root["format"] != expected:
        raise SheetError("format", Message("expected \"{expected}\", found {found}",
                                           {"expected": expected, "found": shown(root["format"])}))


def check_players(root: dict[str, Any], low: int, high: int) -> list[dict[str, Any]]:
    """The sheet's players: `low` to `high` objects, each with a valid name no other player has."""
    if "players" not in root:
        raise SheetError("players", Message("missing"))
    players = check_list(root["players"], "players", low, high)
    seen: set[str] = set()
    for i, entry in enumerate(players):
        player = check_object(entry, f"players[{i}]")
        if "name" not in player:
            raise SheetError(f"players[{i}].name", Message("missing"))
        name = player["name"]
        if not isinstance(name, str):
            raise SheetError(f"players[{i}].name", Message("expected text, found {found}", {"found": shown(name)}))
        problem = player_name_problem(name)
        if problem is not None:
            raise SheetError(f"players[{i}].name", Message("the name {problem}", {"problem": problem}))
        if name.casefold() in seen:
            raise SheetError(f"players[{i}].name", Message("{name} is already the name of another player",
                                                           {"name": name}))
        seen.add(name.casefold())
    return players


def shared_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Each player's place (1 = best) when a higher key is better; equal keys share a place."""
    return [1 + sum(other > key for other in keys) for key in keys]


@dataclass(frozen=True)
class PlayerScore:
    name: str
    total: int
    rank: int
    breakdown: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "total": self.total, "rank": self.rank, "breakdown": self.breakdown}


@dataclass(frozen=True)
class ScoreResult:
    """A scored sheet: players in the sheet's order, the winner (None when the first place is shared)."""

    game: str
    players: list[PlayerScore]
    winner: str | None
    tie_break: Message | None = None  # how a shared total was settled, or that it stays shared

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": [p.to_json() for p in self.players], "winner": self.winner}


def rank_scores(game: str, names: Sequence[str], totals: Sequence[int], breakdowns: Sequence[dict[str, Any]],
                tie_keys: Sequence[tuple[int, ...]] | None = None) -> ScoreResult:
    """Rank players by total, then by their tie-break keys (higher is better); equal keys share a place."""
    keys = [(total, *(tie_keys[i] if tie_keys else ())) for i, total in enumerate(totals)]
    ranks = shared_ranks(keys)
    players = [PlayerScore(n, t, r, b) for n, t, r, b in zip(names, totals, ranks, breakdowns, strict=True)]
    first = [p.name for p in players if p.rank == 1]
    return ScoreResult(game, players, first[0] if len(first) == 1 else None)


def require(obj: dict[str, Any], key: str, where: str) -> Any:
    """The value of a field the format needs; `where` is the object's own path."""
    if key not in obj:
        raise SheetError(f"{where}.{key}" if where else key, Message("missing"))
    return obj[key]


def check_action(value: object, types: Sequence[str]) -> dict[str, Any]:
    """An action on a sheet: an object whose `type` is one of `types`."""
    action = check_object(value, "action")
    kind = action.get("type")
    if kind not in types:
        raise SheetError("action.type", Message("unknown action type {found}; expected one of: {types}",
                                                {"found": shown(kind), "types": ", ".join(types)}))
    return action


def player_index(sheet: dict[str, Any], action: dict[str, Any]) -> int:
    """Where the player an action names stands in the sheet."""
    name = require(action, "player", "action")
    for i, player in enumerate(sheet["players"]):
        if player["name"] == name:
            return i
    raise SheetError("action.player", Message("{name} is not a player of this game", {"name": shown(name)}))


def dump_sheet_json(sheet: dict[str, Any]) -> str:
    return json.dumps(sheet, indent=2, ensure_ascii=False) + "\n"

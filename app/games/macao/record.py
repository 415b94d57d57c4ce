"""The game record (format macao-record/1): read, write and replay.

A record is checked in two steps: its shape first (a malformed document is a
RecordError naming the path of the bad value), then its rules, action by action
(a RulesError naming the action's index).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from app.games.base import RecordError, RulesError
from .model import PLAYER_COLOURS, GameState
from .rules import apply_in_place, new_game
from .shapes import MAX_NAME_LENGTH, check_action, check_choice, check_required, check_list, check_object, check_text

FORMAT = "macao-record/1"
MAX_RECORD_BYTES = 5 * 1024 * 1024  # a whole game is a few hundred kB at most
MAX_ACTIONS = 5000  # about ten times a long 4-player game
MAX_DEPTH = 12  # records nest 5 levels deep; anything far deeper is not a record


@dataclass
class Record:
    players: list[dict[str, str]]
    wall: list[str]
    actions: list[dict[str, Any]] = field(default_factory=list)
    started: str | None = None
    format: str = FORMAT
    extra: dict[str, Any] = field(default_factory=dict)  # optional fields kept as they came

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"format": self.format}
        if self.started is not None:
            doc["started"] = self.started
        doc["players"] = [dict(p) for p in self.players]
        doc["wall"] = list(self.wall)
        doc.update(self.extra)
        doc["actions"] = [dict(a) for a in self.actions]
        return doc


def _depth(value: object, limit: int) -> int:
    """Nesting depth of a JSON value, stopping once it passes `limit`."""
    stack: list[tuple[object, int]] = [(value, 1)]
    deepest = 0
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def load_record(text: str | bytes) -> Record:
    """Parse a record from JSON text; RecordError says what is wrong and where."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError("", f"the file is {len(text) // 1024} kB; a game record is at most "
                              f"{MAX_RECORD_BYTES // (1024 * 1024)} MB")
    try:
        doc = json.loads(text)
    except RecursionError:
        raise RecordError("", "the document is nested far too deeply to be a game record") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        where = f"line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else ""
        raise RecordError(where, f"not valid JSON ({getattr(err, 'msg', err)})") from None
    return parse_record(doc)


def parse_record(doc: object) -> Record:
    """Check a decoded document's shape and turn it into a Record."""
    if _depth(doc, MAX_DEPTH) > MAX_DEPTH:
        raise RecordError("", f"the document is nested more than {MAX_DEPTH} levels deep")
    root = check_object(doc, "record")
    if root.get("format") != FORMAT:
        found = root.get("format")
        raise RecordError("format", f"expected \"{FORMAT}\", found {found!r}" if "format" in root
                          else f"missing; expected \"{FORMAT}\"")
    for key in ("players", "wall", "actions"):
        if key not in root:
            raise RecordError(key, "missing")
    started = root.get("started")
    if started is not None:
        check_text(started, "started", 64)
    players = check_list(root["players"], "players", 2, 4)
    colours: list[str] = []
    for i, entry in enumerate(players):
        where = f"players[{i}]"
        player = check_object(entry, where)
        check_required(player, where, ("colour", "name"))
        colour = check_choice(player["colour"], f"{where}.colour", PLAYER_COLOURS, "a player colour")
        if colour in colours:
            raise RecordError(f"{where}.colour", f"{colour} is already taken by another player")
        colours.append(colour)
        check_text(player["name"], f"{where}.name", MAX_NAME_LENGTH)
    wall = check_list(root["wall"], "wall", len(players), len(players))
    for i, colour in enumerate(wall):
        check_choice(colour, f"wall[{i}]", tuple(colours), "a colour of this game's players")
    if len(set(wall)) != len(wall):
        raise RecordError("wall", "names a player twice")
    actions = check_list(root["actions"], "actions", 0, MAX_ACTIONS)
    for i, action in enumerate(actions):
        check_action(action, f"actions[{i}]")
    extra = {k: v for k, v in root.items() if k not in {"format", "started", "players", "wall", "actions"}}
    return Record(
        players=[dict(p) for p in players],
        wall=list(wall),
        actions=[dict(a) for a in actions],
        started=started,
        extra=extra,
    )


def dump_record(record: Record) -> str:
    return json.dumps(record.to_json(), indent=2, ensure_ascii=False) + "\n"


def start_state(record: Record) -> GameState:
    return new_game([(p["colour"], p["name"]) for p in record.players], list(record.wall))


def replay(record: Record, upto: int | None = None) -> GameState:
    """The state after the record's actions (or its first `upto`)."""
    state = start_state(record)
    actions = record.actions if upto is None else record.actions[:upto]
    for index, action in enumerate(actions):
        try:
            apply_in_place(state, action)
        except RulesError as err:
            raise err.at_index(index) from None
    return state

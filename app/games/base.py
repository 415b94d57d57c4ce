"""What every game's rules share: the `Game` interface, its data types, and the one rule
for names and other typed text.

Game packages may import this module (and nothing else of the project). The
session, the journal, the backups, the command line and the UI shell talk to a
game only through `Game` (found in the registry, `app.games`), so adding a game
touches its own folders and one registry line. The model is OpenSpiel's
Game/State split: a game object that knows the rules, and plain state data it
turns into new state data, refusing a bad action with a reason.
"""

from __future__ import annotations

import json
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

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


# -- messages ------------------------------------------------------------------------------

Translate = Callable[[str], str]


def _identity(text: str) -> str:
    return text


def cube_phrase(cubes: Mapping[str, int], translate: Translate = _identity) -> str:
    """'2 red and 1 blue' (or 'no cubes') for a colour -> count mapping."""
    parts = [f"{n} {translate(colour)}" for colour, n in cubes.items() if n > 0]
    if not parts:
        return translate("no cubes")
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " " + translate("and") + " " + parts[-1]


@dataclass(frozen=True)
class Message:
    """A sentence for players: an English str.format template and its values.

    The template is the gettext msgid, kept apart from its values, so the UI
    can show the same message in the table's language while the rules know no
    language. Parameters whose name ends in `_cubes` hold colour -> count
    mappings and are spelled out as cube phrases when rendered.
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, translate: Translate = _identity) -> str:
        values: dict[str, object] = {}
        for key, value in self.params.items():
            if key.endswith("_cubes") and isinstance(value, Mapping):
                values[key] = cube_phrase(value, translate)
            else:
                values[key] = value
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.render()


# -- the two ways a game refuses -----------------------------------------------------------


class RulesError(Exception):
    """An action breaks a rule; the state it was tried on is unchanged."""

    def __init__(
        self,
        message: Message,
        *,
        action_type: str | None = None,
        player: str | None = None,
        player_name: str | None = None,
        action_index: int | None = None,
    ) -> None:
        self.message = message
        self.action_type = action_type
        self.player = player
        self.player_name = player_name
        self.action_index = action_index
        super().__init__(self._describe())

    def at_index(self, index: int) -> RulesError:
        """The same error, now naming the action's position in a record."""
        return RulesError(
            self.message,
            action_type=self.action_type,
            player=self.player,
            player_name=self.player_name,
            action_index=index,
        )

    def _describe(self) -> str:
        where = []
        if self.action_index is not None:
            where.append(f"action {self.action_index}")
        what = []
        if self.action_type:
            what.append(self.action_type)
        if self.player:
            what.append(f"{self.player_name}/{self.player}" if self.player_name else self.player)
        head = " ".join(where)
        if what:
            head = f"{head} ({', '.join(what)})" if head else f"({', '.join(what)})"
        return f"{head}: {self.message}" if head else str(self.message)

    def __str__(self) -> str:
        return self._describe()


class RecordError(ValueError):
    """A record, sheet, header or action does not have the documented shape.

    The text starts with where the problem is, e.g. ``actions[4].dice.red``.
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)


# -- what a game answers -------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A player as the shell shows them: the id actions and scores use, the name, and the
    player colour (None for games whose players have none)."""

    id: str
    name: str
    colour: str | None = None


class Waiting(Protocol):
    """What a game waits for next: from whom (None: the whole table), which action types,
    and the prompt in players' words."""

    @property
    def player(self) -> str | None: ...

    @property
    def actions(self) -> tuple[str, ...]: ...

    @property
    def prompt(self) -> Message: ...


@dataclass(frozen=True)
class Progress:
    """How far a game is, for backups and game lists.

    `round` (0 before the first round) and `phase` (the game's own phase id) mark
    the points where a backup is written; `label` says it in players' words.
    """

    round: int
    phase: str
    label: Message
    finished: bool


@dataclass(frozen=True)
class ScoreColumn:
    """One part of the score breakdown: a stable key (CSV column, JSON field) and its title."""

    key: str
    title: Message


@dataclass(frozen=True)
class ScoreLine:
    """One player's result: the breakdown parts in the table's column order, total and rank
    (tied players share a rank)."""

    player: str
    name: str
    colour: str | None
    parts: tuple[int, ...]
    total: int
    rank: int


@dataclass(frozen=True)
class ScoreTable:
    """A finished game's result: columns, one line per player in rank order, the winner's
    player id (None when the tie-breaks leave several first) and why a shared best total
    was broken."""

    game: str
    columns: tuple[ScoreColumn, ...]
    lines: tuple[ScoreLine, ...]
    winner: str | None
    tie_break: Message | None = None

    def part(self, line: ScoreLine, key: str) -> int:
        return line.parts[[column.key for column in self.columns].index(key)]


@dataclass(frozen=True)
class GameDocument:
    """A record or score sheet split the way the session keeps a game: the header (format,
    players and whatever else the game starts from, unknown fields kept) and the actions."""

    header: dict[str, Any]
    actions: list[dict[str, Any]]


@dataclass(frozen=True)
class DiceNeed:
    """The dice a game reads from the tray: how many, their colours (empty: any), and
    whether two dice may share a colour. The app turns this into the reader's DiceSpec."""

    count: int
    colours: tuple[str, ...] = ()
    repeats: bool = False


@dataclass(frozen=True)
class CheckReport:
    """What `python -m app check` shows of a valid record: a JSON document and text lines."""

    document: dict[str, Any]
    lines: list[str]


S = TypeVar("S")


class Game(ABC, Generic[S]):
    """One game's rules behind the interface the rest of Windrose uses.

    States are the game's own plain data; the shell never looks inside them
    (only the game's own UI package does). `apply` is pure: it returns a new
    state or raises RulesError and leaves the old one as it was. Reading a
    document or a header raises RecordError naming the path of the bad value.
    """

    id: str  # the journal's stored game type and the registry key
    title: Message
    min_players: int
    max_players: int
    formats: tuple[str, ...]  # record/sheet formats read; the first is the one written
    dice: DiceNeed | None = None  # None: the game reads no dice from the tray

    def dice_in_play(self, state: S) -> DiceNeed | None:
        """The dice this table rolls now: `dice`, unless the game narrows them (to the colours
        its players chose, say)."""
        return self.dice

    @abstractmethod
    def read(self, document: object) -> GameDocument:
        """A decoded record or sheet (JSON) as header plus actions (RecordError with the path)."""

    @abstractmethod
    def write(self, document: GameDocument) -> str:
        """The file text for a header plus actions (what `read` reads back)."""

    @abstractmethod
    def new_state(self, header: Mapping[str, Any]) -> S:
        """The state before the first action (RecordError for bad players or set-up)."""

    @abstractmethod
    def seats(self, header: Mapping[str, Any]) -> list[Seat]:
        """The players of a game from its header, in seating order."""

    @abstractmethod
    def apply(self, state: S, action: Mapping[str, Any]) -> S:
        """The state after one action; RulesError (carrying a Message) when it is refused."""

    @abstractmethod
    def waiting_for(self, state: S) -> Waiting:
        """What the game expects next, and from whom."""

    @abstractmethod
    def options(self, state: S, player: str) -> Any:
        """The game's legal options for one player now (for hints and greyed-out buttons)."""

    @abstractmethod
    def progress(self, state: S) -> Progress:
        """Round, phase and whether the game is over."""

    @abstractmethod
    def score(self, state: S) -> ScoreTable:
        """The final result with its breakdown (RulesError while the game is not over)."""

    @abstractmethod
    def score_document(self, state: S) -> dict[str, Any]:
        """The JSON `python -m app score FILE` prints for a finished game."""

    @abstractmethod
    def describe(self, before: S, action: Mapping[str, Any], after: S) -> Message:
        """One line for the history list: what `action` did to `before`."""

    def start_player(self, header: Mapping[str, Any]) -> str | None:
        """Who begins, for exports that mark the start player (None: the game does not say)."""
        return None

    def check(self, document: GameDocument) -> CheckReport:
        """What `python -m app check` shows of a valid document (RulesError naming the action)."""
        state = self.replay(document)
        label = self.progress(state).label.render()
        return CheckReport({"actions": len(document.actions)}, [f"{label}\n"])

    def replay(self, document: GameDocument, upto: int | None = None) -> S:
        """The state after a document's actions (or its first `upto`); a RulesError names
        the action's index."""
        state = self.new_state(document.header)
        actions = document.actions if upto is None else document.actions[:upto]
        for index, action in enumerate(actions):
            try:
                state = self.apply(state, action)
            except RulesError as err:
                raise err.at_index(index) from None
        return state


# -- What the score-sheet games share -------------------------------------------
# A score sheet is a JSON document the table fills in (spec/other-games.md): the
# same player list, the same counting rules, the same way of naming a bad value
# by its path, and the same ranking with shared places.

MAX_COUNT = 999  # every count on a sheet, unless its game says otherwise


class SheetError(RecordError):
    """A sheet, or an action on it, breaks the format or a rule; nothing was changed.

    `where` is the path of the bad value (``players[1].columns[2]``), `message`
    says what is wrong in words the UI can translate (`problem` in English).
    """

    def __init__(self, where: str, message: Message) -> None:
        self.message = message
        super().__init__(where, str(message))


def shown(value: object) -> str:
    """A short, safe rendering of a found value for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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


# -- A score-sheet game behind the Game interface ----------------------------------------


@dataclass(frozen=True)
class SheetWaiting:
    """What a sheet needs next: whose entry (None: nobody's, the sheet is complete), by which
    action types, and the prompt."""

    player: str | None
    actions: tuple[str, ...]
    prompt: Message


class SheetGame(Game[dict[str, Any]]):
    """A game kept as a score sheet: the state is the sheet (a JSON document) itself, and every
    value the table enters is an action, so the journal, undo and backups work as for a record.

    A sheet file is read as its header (the sheet without the entered values, unknown fields
    kept) plus the actions that enter those values; writing replays them into the sheet.
    """

    entry_fields: tuple[str, ...] = ()  # a player's fields that actions fill in
    lists_of_entries: tuple[str, ...] = ()  # entry fields that are lists of entries: kept in the header when empty
    action_types: tuple[str, ...] = ()
    score_columns: tuple[ScoreColumn, ...] = ()

    @abstractmethod
    def parse(self, document: object) -> dict[str, Any]:
        """The checked sheet (SheetError with the path of the bad value)."""

    @abstractmethod
    def apply_entry(self, sheet: dict[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
        """The sheet after one entry (SheetError, the sheet unchanged)."""

    @abstractmethod
    def entry_actions(self, sheet: dict[str, Any]) -> list[dict[str, Any]]:
        """The actions that enter a sheet's values, in the order a table would enter them."""

    @abstractmethod
    def result(self, sheet: dict[str, Any]) -> ScoreResult:
        """The scored sheet (SheetError naming the first value still missing)."""

    @abstractmethod
    def parts(self, breakdown: dict[str, Any], player: dict[str, Any], seat: int) -> tuple[int, ...]:
        """A player's breakdown as the values of `score_columns` (`seat`: 1 for the sheet's first player)."""

    @abstractmethod
    def next_entry(self, sheet: dict[str, Any]) -> SheetWaiting | None:
        """The next entry the sheet needs, or None once it can be scored."""

    @abstractmethod
    def sheet_progress(self, sheet: dict[str, Any]) -> Progress:
        """How far the sheet is filled in."""

    @abstractmethod
    def describe_entry(self, action: Mapping[str, Any]) -> Message:
        """One line for the history list."""

    def read(self, document: object) -> GameDocument:
        sheet = self.parse(document)
        header = {**sheet, "players": [{k: v for k, v in p.items()
                                        if k not in self.entry_fields or (k in self.lists_of_entries and v == [])}
                                       for p in sheet["players"]]}
        return GameDocument(header, self.entry_actions(sheet))

    def write(self, document: GameDocument) -> str:
        return dump_sheet_json(self.replay(document))

    def new_state(self, header: Mapping[str, Any]) -> dict[str, Any]:
        """The empty sheet of a header (a header made by the app may leave the format out)."""
        return self.parse({**header, "format": header.get("format", self.formats[0])})

    def seats(self, header: Mapping[str, Any]) -> list[Seat]:
        return [Seat(str(p.get("name", "?")), str(p.get("name", "?")), p.get("colour"))
                for p in header.get("players", [])]

    def apply(self, state: dict[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return self.apply_entry(state, action)
        except SheetError as err:
            kind, player = action.get("type"), action.get("player")
            raise RulesError(err.message, action_type=kind if isinstance(kind, str) else None,
                             player=player if isinstance(player, str) else None) from None

    def waiting_for(self, state: dict[str, Any]) -> SheetWaiting:
        return self.next_entry(state) or SheetWaiting(None, (), Message("Every value is in: see the result."))

    def options(self, state: dict[str, Any], player: str) -> tuple[str, ...]:
        """Any value of any player can be entered or corrected at any time."""
        return self.action_types

    def progress(self, state: dict[str, Any]) -> Progress:
        return self.sheet_progress(state)

    def score(self, state: dict[str, Any]) -> ScoreTable:
        try:
            result = self.result(state)
        except SheetError as err:
            raise RulesError(Message("The sheet is not complete yet, so it cannot be scored."),
                             action_type="score") from err
        seats = {p["name"]: (seat, p) for seat, p in enumerate(state["players"], start=1)}
        lines = tuple(
            ScoreLine(p.name, p.name, seats[p.name][1].get("colour"),
                      self.parts(p.breakdown, seats[p.name][1], seats[p.name][0]), p.total, p.rank)
            for p in sorted(result.players, key=lambda p: p.rank)
        )
        return ScoreTable(self.id, self.score_columns, lines, result.winner, result.tie_break)

    def score_document(self, state: dict[str, Any]) -> dict[str, Any]:
        """The spec's JSON; an incomplete sheet is refused with the path of the first missing value."""
        return self.result(state).to_json()

    def describe(self, before: dict[str, Any], action: Mapping[str, Any], after: dict[str, Any]) -> Message:
        return self.describe_entry(action)

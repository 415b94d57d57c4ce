"""The crash-safe journal: every game and every table action, kept in SQLite.

Nothing a table did may be lost, so each event is its own committed transaction
(WAL, synchronous=FULL) before the caller may count it. A game is a header (who
plays, the starting wall) plus an append-only list of events; the live action
list is a fold over those events, so undo, redo and "go back" are events too and
the whole history stays visible.

Timestamps are display text only: the Pi may boot with its clock in 1970, so
ordering always uses sequence numbers and counters, never the clock.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

Clock = Callable[[], str]

EVENT_KINDS = ("action", "undo", "redo", "goto")

# Each entry upgrades the schema by one version; entry i takes user_version i to i+1.
# Add a new entry (never edit an old one) when the schema changes.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_type TEXT NOT NULL,
            header TEXT NOT NULL,
            created_at TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
            touched INTEGER NOT NULL
        )""",
        """CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo', 'goto')),
            payload TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
        "CREATE INDEX games_by_touch ON games (finished, touched)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def local_timestamp() -> str:
    """The wall-clock time as display text (never used for ordering)."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


class JournalError(Exception):
    """A journal operation that cannot be done (unknown game, nothing to undo, bad data)."""


class JournalOpenError(JournalError):
    """The database file cannot be opened or is not a Windrose journal.

    Carries the path so a caller (the reliability layer) can move the file aside
    and start a fresh journal.
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot open the game journal {path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Event:
    """One committed journal event of a game."""

    game_id: int
    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: str


@dataclass(frozen=True)
class GameRow:
    """A stored game's header data, without its events."""

    id: int
    game_type: str
    header: dict[str, Any]
    created_at: str
    finished: bool


@dataclass(frozen=True)
class LiveAction:
    """An action on the live list, with the seq of the event that first made it."""

    origin_seq: int
    action: dict[str, Any]


@dataclass
class Timeline:
    """The fold of a game's events: the live actions and the redo stack.

    The redo stack holds undone actions with the next one to redo last. A new
    action clears it; "goto n" moves actions between the two lists until n are live.
    """

    live: list[LiveAction] = field(default_factory=list)
    redo_stack: list[LiveAction] = field(default_factory=list)

    @property
    def actions(self) -> list[dict[str, Any]]:
        return [entry.action for entry in self.live]

    @property
    def can_undo(self) -> bool:
        return bool(self.live)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    @property
    def reachable(self) -> int:
        """How many actions a goto can make live (all live plus all redoable)."""
        return len(self.live) + len(self.redo_stack)

    def check(self, kind: str, payload: dict[str, Any]) -> None:
        """Raise JournalError if the event cannot apply to this timeline."""
        if kind not in EVENT_KINDS:
            raise JournalError(f"unknown event kind {kind!r}")
        if kind == "undo" and not self.can_undo:
            raise JournalError("nothing to undo")
        if kind == "redo" and not self.can_redo:
            raise JournalError("nothing to redo")
        if kind == "goto":
            keep = payload.get("keep")
            if not isinstance(keep, int) or isinstance(keep, bool) or not 0 <= keep <= self.reachable:
                raise JournalError(f"cannot go to action {keep!r}: only 0..{self.reachable} are reachable")
        if kind == "action" and not isinstance(payload, dict):
            raise JournalError("an action must be a JSON object")

    def apply(self, seq: int, kind: str, payload: dict[str, Any]) -> None:
        """Apply one event (checked first; the timeline is unchanged on error)."""
        self.check(kind, payload)
        if kind == "action":
            self.live.append(LiveAction(seq, payload))
            self.redo_stack.clear()
        elif kind == "undo":
            self.redo_stack.append(self.live.pop())
        elif kind == "redo":
            self.live.append(self.redo_stack.pop())
        else:
            keep = payload["keep"]
            while len(self.live) > keep:
                self.redo_stack.append(self.live.pop())
            while len(self.live) < keep:
                self.live.append(self.redo_stack.pop())


def fold(events: Iterable[Event]) -> Timeline:
    """Rebuild a game's timeline from its events, in seq order."""
    timeline = Timeline()
    for event in events:
        try:
            timeline.apply(event.seq, event.kind, event.payload)
        except JournalError as err:
            raise JournalError(f"game {event.game_id}, event {event.seq}: {err}") from None
    return timeline


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Journal:
    """One SQLite journal file holding any number of games."""

    def __init__(self, connection: sqlite3.Connection, path: Path, clock: Clock) -> None:
        self._db = connection
        self.path = path
        self._clock = clock

    @classmethod
    def open(cls, path: str | Path, clock: Clock = local_timestamp) -> Journal:
        """Open (creating if needed) the journal at path, migrated to the current schema.

        Raises JournalOpenError with a plain reason if the file is unusable.
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise JournalOpenError(path, f"cannot create its folder ({err.strerror or err})") from None
        if path.is_dir():
            raise JournalOpenError(path, "it is a folder, not a database file")
        connection: sqlite3.Connection | None = None
        try:
            connection = sqlite3.connect(str(path), isolation_level=None, timeout=10.0)
            mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalOpenError(path, f"the file system does not allow WAL mode (got {mode})")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
            _migrate(connection, path)
        except sqlite3.Error as err:
            if connection is not None:
                connection.close()
            raise JournalOpenError(path, _plain_sqlite_reason(err)) from None
        except JournalOpenError:
            if connection is not None:
                connection.close()
            raise
        return cls(connection, path, clock)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def durability(self) -> dict[str, str | int]:
        """The settings this connection runs with (journal_mode, synchronous level)."""
        mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
        synchronous = self._db.execute("PRAGMA synchronous").fetchone()[0]
        return {"journal_mode": mode, "synchronous": synchronous}

    def create_game(self, header: dict[str, Any], game_type: str = "macao") -> int:
        """Store a new game's header; returns its id (ids only grow)."""
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (game_type, header, created_at, finished, touched) "
                "VALUES (?, ?, ?, 0, (SELECT COALESCE(MAX(touched), 0) + 1 FROM games))",
                (game_type, _dumps(header), self._clock()),
            )
            game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def append(
        self, game_id: int, kind: str, payload: dict[str, Any], finished: bool | None = None
    ) -> Event:
        """Commit one event (and optionally the game's finished flag) in one transaction.

        The caller checks the event against the game's timeline first; this only
        refuses unknown kinds and unknown games.
        """
        if kind not in EVENT_KINDS:
            raise JournalError(f"unknown event kind {kind!r}")
        created_at = self._clock()
        with self._transaction():
            self._require_game(game_id)
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            self._db.execute(
                "INSERT INTO events (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, _dumps(payload), created_at),
            )
            self._db.execute(
                "UPDATE games SET touched = (SELECT MAX(touched) + 1 FROM games)"
                + (", finished = ?" if finished is not None else "")
                + " WHERE id = ?",
                ((int(finished), game_id) if finished is not None else (game_id,)),
            )
        return Event(game_id, seq, kind, payload, created_at)

    def set_finished(self, game_id: int, finished: bool) -> None:
        with self._transaction():
            self._require_game(game_id)
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def game(self, game_id: int) -> GameRow:
        row = self._db.execute(
            "SELECT id, game_type, header, created_at, finished FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        return _game_row(row)

    def games(self) -> list[GameRow]:
        """All games, oldest first."""
        rows = self._db.execute(
            "SELECT id, game_type, header, created_at, finished FROM games ORDER BY id"
        ).fetchall()
        return [_game_row(row) for row in rows]

    def last_seqs(self) -> dict[int, int]:
        """Each game's latest event seq (0 without events): tells a cached summary is still current."""
        rows = self._db.execute(
            "SELECT games.id, COALESCE(MAX(events.seq), 0) FROM games "
            "LEFT JOIN events ON events.game_id = games.id GROUP BY games.id"
        ).fetchall()
        return dict(rows)

    def last_game(self) -> int | None:
        """The game most recently created or played, finished or not."""
        row = self._db.execute("SELECT id FROM games ORDER BY touched DESC, id DESC LIMIT 1").fetchone()
        return None if row is None else row[0]

    def last_unfinished(self) -> int | None:
        """The unfinished game most recently created or played (what to resume on start)."""
        row = self._db.execute(
            "SELECT id FROM games WHERE finished = 0 ORDER BY touched DESC, id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else row[0]

    def events(self, game_id: int) -> list[Event]:
        self._require_game(game_id)
        rows = self._db.execute(
            "SELECT seq, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        events = []
        for seq, kind, payload, created_at in rows:
            try:
                decoded = json.loads(payload)
            except json.JSONDecodeError as err:
                raise JournalError(f"game {game_id}, event {seq}: stored payload is not JSON ({err})") from None
            events.append(Event(game_id, seq, kind, decoded, created_at))
        return events

    def timeline(self, game_id: int) -> Timeline:
        return fold(self.events(game_id))

    def _require_game(self, game_id: int) -> None:
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception.

    A database failure (disk full, file gone, locked too long) becomes a
    JournalError saying the event was not saved; nothing half-written remains.
    """

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise JournalError(f"nothing was saved: {_plain_sqlite_reason(err)}") from err

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, *rest: object) -> None:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
                return
            except sqlite3.Error as err:
                exc = err
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise JournalError(f"nothing was saved: {_plain_sqlite_reason(exc)}") from exc


def _game_row(row: tuple[Any, ...]) -> GameRow:
    game_id, game_type, header, created_at, finished = row
    try:
        decoded = json.loads(header)
    except json.JSONDecodeError as err:
        raise JournalError(f"game {game_id}: stored header is not JSON ({err})") from None
    return GameRow(game_id, game_type, decoded, created_at, bool(finished))


def _migrate(connection: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to SCHEMA_VERSION, one version per transaction."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JournalOpenError(
            path, f"it was written by a newer Windrose (schema {version}, this one knows {SCHEMA_VERSION})"
        )
    while version < SCHEMA_VERSION:
        connection.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the lock: another process may have migrated meanwhile.
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version < SCHEMA_VERSION:
                for statement in MIGRATIONS[version]:
                    connection.execute(statement)
                version += 1
                connection.execute(f"PRAGMA user_version = {version}")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


def _plain_sqlite_reason(err: sqlite3.Error) -> str:
    text = str(err)
    if "file is not a database" in text:
        return "the file is not a SQLite database (damaged, or some other file)"
    if "unable to open" in text:
        return "the file cannot be opened (check the folder exists and is writable)"
    if "readonly" in text or "read-only" in text:
        return "the file is read-only"
    if "locked" in text or "busy" in text:
        return "another program holds the database locked"
    return text

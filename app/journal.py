"""The crash-safe journal: every game and every table action, kept in SQLite.

Nothing a table did may be lost, so each event is its own committed transaction
(WAL, synchronous=FULL) before the caller may count it. A game is a header (who
plays, the starting wall) plus an append-only list of events; the live action
list is a fold over those events, so undo, redo and "go back" are events too and
the whole history stays visible.

Timestamps are display text only: the Pi may boot with its clock in 1970, so
ordering always uses sequence numbers and counters, never the clock.

Opening checks the file first (header, `PRAGMA quick_check`, schema version and
tables) without writing to it. A damaged, foreign or newer file is a
JournalDamagedError; `open_or_set_aside` then moves it (with its -wal/-shm)
aside as `<name>.damaged-<time>` and starts a fresh journal. A write the disk
refuses (full, read-only) is a JournalError in plain words and saves nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from vision.atomic_file import sync_folder

Clock = Callable[[], str]
Connect = Callable[[Path], sqlite3.Connection]

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


# How long SQLite waits for another program's lock on the games file. Opening (at start-up, before
# any screen) may wait; a tap must not freeze the screen, so once open a write gives up quickly and
# the table is told that the games file is busy.
OPEN_BUSY_TIMEOUT_S = 10.0
TAP_BUSY_TIMEOUT_MS = 300


def connect_file(path: Path) -> sqlite3.Connection:
    """The journal's connection: autocommit (we issue BEGIN/COMMIT), waiting up to 10 s on a lock
    while it opens (Journal.open then shortens the wait for taps)."""
    return sqlite3.connect(str(path), isolation_level=None, timeout=OPEN_BUSY_TIMEOUT_S)


class JournalError(Exception):
    """A journal operation that cannot be done (unknown game, nothing to undo, bad data)."""


class JournalOpenError(JournalError):
    """The database file cannot be opened (folder missing or read-only, file locked...).

    The file itself may be fine, so it is left where it is.
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot open the game journal {path}: {reason}")
        self.path = path
        self.reason = reason


class JournalDamagedError(JournalOpenError):
    """The file is there but is no usable Windrose journal: damaged, some other file, or a newer schema.

    Such a file is safe to set aside (never delete it) and replace by a fresh journal.
    """


SQLITE_HEADER = b"SQLite format 3\x00"
SQLITE_HEADER_SIZE = 100
# The columns this version reads and writes; a file with other tables is not our journal.
EXPECTED_COLUMNS = {
    "games": {"id", "game_type", "header", "created_at", "finished", "touched"},
    "events": {"game_id", "seq", "kind", "payload", "created_at"},
}


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
    problem: str | None = None  # why the stored header cannot be read (then `header` is empty)


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
    def open(cls, path: str | Path, clock: Clock = local_timestamp, connect: Connect | None = None) -> Journal:
        """Open (creating if needed) the journal at path, checked and migrated to the current schema.

        The start-up check reads the file header, runs `PRAGMA quick_check` and
        compares the schema. Raises JournalDamagedError for a file to set aside,
        JournalOpenError (with a plain reason) when the file cannot be opened.
        `connect` replaces sqlite3.connect (a test seam: read-only or size-limited connections).
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise JournalOpenError(path, f"cannot create its folder ({err.strerror or err})") from None
        if path.is_dir():
            raise JournalOpenError(path, "it is a folder, not a database file")
        _check_header(path)
        connection: sqlite3.Connection | None = None
        try:
            connection = (connect or connect_file)(path)
            problems = [row[0] for row in connection.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise JournalDamagedError(path, f"the file is damaged ({_first_line(problems)})")
            _check_ours(connection, path)  # before anything writes to a file that may not be ours
            mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalOpenError(path, f"the file system does not allow WAL mode (got {mode})")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
            _migrate(connection, path)
            _check_schema(connection, path)
            connection.execute(f"PRAGMA busy_timeout = {TAP_BUSY_TIMEOUT_MS}")
        except sqlite3.Error as err:
            if connection is not None:
                connection.close()
            reason = _plain_sqlite_reason(err, path.parent)
            if _is_damage(err):
                raise JournalDamagedError(path, reason) from None
            raise JournalOpenError(path, reason) from None
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

    def lock_wait_ms(self) -> int:
        """How long a write waits for another program's lock before it is refused as busy."""
        return int(self._db.execute("PRAGMA busy_timeout").fetchone()[0])

    def create_game(self, header: dict[str, Any], game_type: str, id_above: int = 0) -> int:
        """Store a new game's header; returns its id (ids only grow).

        `id_above` keeps the id past ids used elsewhere (backup files of a journal
        that was set aside), so a new game never takes an old game's backup name.
        """
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (id, game_type, header, created_at, finished, touched) VALUES ("
                "MAX(?, COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0)) + 1, "
                "?, ?, ?, 0, (SELECT COALESCE(MAX(touched), 0) + 1 FROM games))",
                (id_above, game_type, _dumps(header), self._clock()),
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

    def checkpoint(self) -> None:
        """Copy the WAL into the database file and empty it (the session does so after each round).

        Until then acknowledged events live only in the -wal file: one deleted or damaged there
        would take them all. JournalError when the disk refuses; the events stay safe in the WAL.
        """
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as err:
            raise JournalError(f"the games file could not be brought up to date: "
                               f"{_plain_sqlite_reason(err, self.path.parent)}") from err

    def set_finished(self, game_id: int, finished: bool) -> None:
        with self._transaction():
            self._require_game(game_id)
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def game(self, game_id: int) -> GameRow:
        row = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        return _game_row(row)

    def games(self) -> list[GameRow]:
        """All games, oldest first."""
        rows = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id").fetchall()
        return [_game_row(row) for row in rows]

    def last_seqs(self) -> dict[int, int]:
        """Each game's latest event seq (0 without events): tells a cached summary is still current."""
        rows = self._db.execute(
            "SELECT games.id, COALESCE(MAX(events.seq), 0) FROM games "
            "LEFT JOIN events ON events.game_id = games.id GROUP BY games.id"
        ).fetchall()
        return dict(rows)

    def digests(self) -> dict[int, str]:
        """Each game's digest of all that decides its replay: its kind, header and finished flag,
        and its events' seq, kind and payload, byte for byte (so a flipped bit changes it too).

        The start cache (app/start_cache.py) trusts a game summarised before only while its
        digest is unchanged. One pass over the stored bytes, no JSON decoded.
        """
        hashes: dict[int, Any] = {}
        for game_id, game_type, header, finished in self._db.execute(
                "SELECT id, CAST(game_type AS BLOB), CAST(header AS BLOB), finished FROM games"):
            hashes[game_id] = hashlib.blake2b(_fields(str(finished).encode(), game_type, header), digest_size=16)
        # Each event as one length-prefixed string made by SQLite: half the time of a tuple per field.
        for game_id, event in self._db.execute(
                "SELECT game_id, CAST(seq || ' ' || length(CAST(kind AS BLOB)) || ' ' || length(CAST(payload AS BLOB)) "
                "|| ':' || kind || payload AS BLOB) FROM events ORDER BY game_id, seq"):
            if (digest := hashes.get(game_id)) is not None:
                digest.update(b"-" if event is None else event)
        return {game_id: digest.hexdigest() for game_id, digest in hashes.items()}

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
        """All the game's events (JournalError if one cannot be read)."""
        events, problem = self.readable_events(game_id)
        if problem is not None:
            raise JournalError(problem)
        return events

    def readable_events(self, game_id: int) -> tuple[list[Event], str | None]:
        """The game's events up to the first one that cannot be read, and what is wrong with that one.

        The stored text is read as bytes: a row whose bytes are not UTF-8 (a flipped bit that
        `quick_check` cannot see) is named, never a raw sqlite3 error.
        """
        self._require_game(game_id)
        rows = self._db.execute(
            "SELECT seq, kind, CAST(payload AS BLOB), CAST(created_at AS BLOB) FROM events "
            "WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        events: list[Event] = []
        for seq, kind, payload, created_at in rows:
            try:
                decoded = json.loads(_text(payload, "payload"))
            except (ValueError, TypeError) as err:
                return events, f"game {game_id}, event {seq}: the stored {_reason(err)}"
            events.append(Event(game_id, seq, kind, decoded, _display_text(created_at)))
        return events, None

    def timeline(self, game_id: int) -> Timeline:
        return fold(self.events(game_id))

    def _require_game(self, game_id: int) -> None:
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path.parent)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception.

    A database failure (disk full, file gone, locked too long) becomes a
    JournalError saying the event was not saved; nothing half-written remains.
    """

    def __init__(self, connection: sqlite3.Connection, folder: Path) -> None:
        self._db = connection
        self._folder = folder

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise JournalError(_not_saved(err, self._folder)) from err

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, *rest: object) -> None:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
                return
            except sqlite3.Error as err:
                exc = err
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite already rolled back (it does after a full disk or an I/O error)
        if isinstance(exc, sqlite3.Error):
            raise JournalError(_not_saved(exc, self._folder)) from exc


_GAME_COLUMNS = "id, CAST(game_type AS BLOB), CAST(header AS BLOB), CAST(created_at AS BLOB), finished"


def _game_row(row: tuple[Any, ...]) -> GameRow:
    """One games row; a header that cannot be read is named in `problem`, so the list still opens."""
    game_id, game_type, header, created_at, finished = row
    game_type, created_at = _display_text(game_type), _display_text(created_at)
    try:
        decoded = json.loads(_text(header, "header"))
        if not isinstance(decoded, dict):
            raise ValueError("header is not a JSON object")
    except (ValueError, TypeError) as err:
        return GameRow(game_id, game_type, {}, created_at, bool(finished), f"game {game_id}: the stored {_reason(err)}")
    return GameRow(game_id, game_type, decoded, created_at, bool(finished))


def _fields(*stored: bytes | None) -> bytes:
    """Stored fields as one byte string to hash, each length-prefixed so that no two rows give the same bytes."""
    parts = [b"" if field is None else bytes(field) for field in stored]
    lengths = b" ".join(b"-" if field is None else str(len(part)).encode() for field, part in zip(stored, parts))
    return lengths + b":" + b"".join(parts)


def _text(stored: bytes | None, what: str) -> str:
    """Stored text as it was written (UTF-8); ValueError naming `what` otherwise."""
    if stored is None:
        raise ValueError(f"{what} is missing")
    try:
        return bytes(stored).decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{what} is not UTF-8 text (byte {err.start} of {len(stored)})") from None


def _display_text(stored: bytes | None) -> str:
    return "" if stored is None else bytes(stored).decode("utf-8", "replace")


def _reason(err: Exception) -> str:
    """'payload is not JSON (...)' or the UTF-8 reason `_text` gave."""
    if isinstance(err, json.JSONDecodeError):
        return f"data is not JSON ({err.msg} at character {err.pos})"
    return str(err)


def _check_ours(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a newer Windrose's journal or another program's database, reading only.

    Version and table count come from one statement, so one snapshot: a journal
    another process is creating right now is never taken for a foreign file.
    """
    version, tables = connection.execute(
        "SELECT (SELECT user_version FROM pragma_user_version), (SELECT COUNT(*) FROM sqlite_master)"
    ).fetchone()
    if version > SCHEMA_VERSION:
        raise JournalDamagedError(
            path, f"it was written by a newer Windrose (schema {version}, this one knows {SCHEMA_VERSION})"
        )
    if version == 0 and tables:
        raise JournalDamagedError(path, _FOREIGN)
    if version == SCHEMA_VERSION:
        _check_schema(connection, path)


_FOREIGN = "the file is some other program's database (it has tables but no Windrose schema)"


def _migrate(connection: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to SCHEMA_VERSION, one version per transaction."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    while version < SCHEMA_VERSION:
        connection.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the lock: another process may have migrated meanwhile.
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                raise JournalDamagedError(path, _FOREIGN)
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


SIDE_FILES = ("-wal", "-shm")  # SQLite's companions of a WAL database, named after it


def set_aside(path: Path, clock: Clock) -> Path:
    """Move a damaged journal and its -wal/-shm to `<name>.damaged-<time>`; returns the new path.

    The time comes from the injected clock (display text made file-safe); an
    existing file is never replaced, a counter is added instead. The companions
    move first, so a new journal can never pick up the old file's WAL.
    """
    stamp = re.sub(r"[^0-9A-Za-z+]", "", clock())[:32] or "unknown-time"
    base = path.with_name(f"{path.name}.damaged-{stamp}")
    target, counter = base, 1
    while any(Path(f"{target}{suffix}").exists() for suffix in ("", *SIDE_FILES)):
        counter += 1
        target = base.with_name(f"{base.name}-{counter}")
    for suffix in (*SIDE_FILES, ""):
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.replace(source, Path(f"{target}{suffix}"))
    sync_folder(path.parent)
    return target


def open_or_set_aside(
    path: str | Path, clock: Clock = local_timestamp, connect: Connect | None = None
) -> tuple[Journal, JournalDamagedError | None, Path | None]:
    """Open the journal; if the file is damaged, set it aside and open a fresh one.

    Returns the journal, the damage found (or None) and where the damaged file went.
    Other open errors (read-only folder, locked file) are raised as they are:
    the file may be fine and must stay where it is.
    """
    path = Path(path)
    try:
        return Journal.open(path, clock, connect), None, None
    except JournalDamagedError as damage:
        try:
            moved_to = set_aside(path, clock)
        except OSError as err:
            raise JournalOpenError(
                path, f"{damage.reason}, and it cannot be set aside ({err.strerror or err})"
            ) from None
        return Journal.open(path, clock, connect), damage, moved_to


def _check_header(path: Path) -> None:
    """Refuse a file that does not even start like SQLite (a picture, a text, a cut-off file)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as err:
        raise JournalOpenError(path, f"the file cannot be read ({err.strerror or err})") from None
    if size == 0:
        return  # SQLite's own way of starting a new database
    if head != SQLITE_HEADER:
        raise JournalDamagedError(path, "the file is not a SQLite database (damaged, or some other file)")
    if size < SQLITE_HEADER_SIZE:
        raise JournalDamagedError(path, f"the file is cut short ({size} bytes)")


def _check_schema(connection: sqlite3.Connection, path: Path) -> None:
    """After migrating, the tables must be ours: a foreign SQLite file is not a journal."""
    for table, columns in EXPECTED_COLUMNS.items():
        found = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not columns <= found:
            raise JournalDamagedError(path, f"the file is some other program's database (table {table!r} differs)")


def _first_line(problems: list[str]) -> str:
    text = " ".join(" ".join(problems).split())
    return text if len(text) <= 120 else text[:117] + "..."


def _is_damage(err: sqlite3.Error) -> bool:
    """Errors that mean the file's bytes are wrong, not that we cannot reach them."""
    code = getattr(err, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in str(err)


def _not_saved(err: sqlite3.Error, folder: Path) -> str:
    return f"the game could not be saved: {_plain_sqlite_reason(err, folder)} (nothing was written)"


def _plain_sqlite_reason(err: sqlite3.Error, folder: Path) -> str:
    """Say why SQLite failed in a player's words, looking at the data folder when SQLite cannot tell."""
    code = getattr(err, "sqlite_errorcode", 0) & 0xFF
    text = str(err)
    if code == sqlite3.SQLITE_FULL or "disk is full" in text:
        return "the disk is full"
    if code == sqlite3.SQLITE_READONLY or "readonly" in text or "read-only" in text:
        return "the data folder is read-only"
    if code == sqlite3.SQLITE_NOTADB or "file is not a database" in text:
        return "the file is not a SQLite database (damaged, or some other file)"
    if code == sqlite3.SQLITE_CORRUPT or "malformed" in text:
        return "the file is damaged (SQLite calls it malformed)"
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in text:
        return "the games file is busy (another program holds it locked)"
    if code in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM) or "unable to open" in text:
        return _folder_problem(folder) or f"the data folder cannot be written ({text})"
    return text


def _folder_problem(folder: Path) -> str | None:
    """Read-only or full file system under the data folder, as the kernel reports it."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return "the data folder is missing"
    if stats.f_flag & os.ST_RDONLY or not os.access(folder, os.W_OK):
        return "the data folder is read-only"
    if stats.f_bavail == 0:
        return "the disk is full"
    return None

"""What one start learned of the stored games, so that the next start need not replay them all.

Every start checks each stored game by replaying it, and reads each backup copy to see whether
it holds more than the journal: about 14 ms a game, 3 s at 200 games. A game whose stored bytes
are unchanged (`Journal.digests`) replays the same way under the same code, and an unchanged
backup file (name, size, modification time) weighed against the same games gets the same
verdict. This file beside the journal keeps both. It is only a cache: missing, unreadable,
written by other code (`code_fingerprint`) or for other games, it is ignored and written afresh;
a write the disk refuses is logged and the start goes on.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.game_summary import GameSummary
from vision.atomic_file import write_atomically

log = logging.getLogger(__name__)

CACHE_SUFFIX = ".start-cache.json"
_FORMAT = "windrose start cache 1"
_APP_FOLDER = Path(__file__).resolve().parent
# The code a summary or a backup's verdict comes from: every game's rules and records, and the
# modules that store, replay and weigh them. A change to any of them makes every entry stale.
_CODE_FILES = ("session.py", "journal.py", "game_summary.py", "backup.py", "start_cache.py")


def start_cache_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + CACHE_SUFFIX)


def code_fingerprint() -> str | None:
    """A digest of the code's source files; None when they cannot be read (nothing is cached then)."""
    digest = hashlib.blake2b(digest_size=16)
    try:
        files = sorted((_APP_FOLDER / "games").rglob("*.py")) + [_APP_FOLDER / name for name in _CODE_FILES]
        for path in files:
            digest.update(str(path.relative_to(_APP_FOLDER)).encode() + b"\0")
            digest.update(path.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def key_digest(key: str | None) -> str | None:
    """The stored form of a same-game key (app.session: start time, players, set-up as written)."""
    return None if key is None else hashlib.blake2b(key.encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class KnownGame:
    """A stored game as a start found it: its digest, its summary, its same-game key's digest."""

    digest: str
    summary: GameSummary
    key: str | None


@dataclass(frozen=True)
class QuietBackup:
    """A backup file that offered nothing: its size and time, its game key and the games it was weighed against."""

    size: int
    modified_ns: int
    key: str
    matched: dict[int, str]  # game id -> digest of each stored game of the same key that replays

    def still_quiet(self, stat: os.stat_result, matched: dict[int, str]) -> bool:
        return (stat.st_size, stat.st_mtime_ns) == (self.size, self.modified_ns) and matched == self.matched


class StartCache:
    """The entries a start may reuse (`known_game`, `quiet_backup`), and the ones it found (`keep_*`, `save`)."""

    def __init__(self, path: Path | None, fingerprint: str | None,
                 games: dict[int, KnownGame] | None = None, backups: dict[str, QuietBackup] | None = None) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self._old_games = games or {}
        self._old_backups = backups or {}
        self._games: dict[int, KnownGame] = {}
        self._backups: dict[str, QuietBackup] = {}

    @classmethod
    def load(cls, path: Path) -> StartCache:
        """The cache at `path`; an empty one (logged why) when it is missing, damaged or from other code."""
        fingerprint = code_fingerprint()
        if fingerprint is None:
            return cls(None, None)
        try:
            with path.open("rb") as handle:
                data = json.loads(handle.read())
            if not isinstance(data, dict) or data.get("format") != _FORMAT:
                raise ValueError("not a start cache of this format")
            if data.get("code") != fingerprint:
                return cls(path, fingerprint)  # other code wrote it: every entry may be stale
            games = {int(game_id): _known_game(entry) for game_id, entry in data["games"].items()}
            backups = {str(name): _quiet_backup(entry) for name, entry in data["backups"].items()}
        except FileNotFoundError:
            return cls(path, fingerprint)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            log.warning("start cache %s not used (%s); every stored game is checked again", path, err)
            return cls(path, fingerprint)
        return cls(path, fingerprint, games, backups)

    def known_game(self, game_id: int, digest: str) -> KnownGame | None:
        """What the last start found of this game, if its stored bytes are the same."""
        known = self._old_games.get(game_id)
        return known if known is not None and known.digest == digest else None

    def quiet_backup(self, name: str) -> QuietBackup | None:
        return self._old_backups.get(name)

    def kept_games(self) -> dict[int, KnownGame]:
        """The games this start has kept so far (each stored game, once `Session.check_games` ran)."""
        return dict(self._games)

    def keep_game(self, game_id: int, known: KnownGame) -> None:
        self._games[game_id] = known

    def keep_backup(self, name: str, quiet: QuietBackup) -> None:
        self._backups[name] = quiet

    def save(self) -> None:
        """Write what this start kept, if it differs from what was loaded; a refused write is only logged."""
        if self.path is None or (self._games == self._old_games and self._backups == self._old_backups):
            return
        data = {"format": _FORMAT, "code": self.fingerprint,
                "games": {str(game_id): {"digest": known.digest, "key": known.key, "summary": known.summary.to_json()}
                          for game_id, known in self._games.items()},
                "backups": {name: {"size": quiet.size, "modified_ns": quiet.modified_ns, "key": quiet.key,
                                   "matched": {str(game_id): digest for game_id, digest in quiet.matched.items()}}
                            for name, quiet in self._backups.items()}}
        try:
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError) as err:  # a game's progress message with a value JSON cannot hold
            log.warning("start cache not written: %s", err)
            return
        try:
            write_atomically(self.path, text)
        except OSError as err:
            log.warning("start cache %s not written (%s); the next start checks every game again", self.path, err)
            return
        self._old_games, self._old_backups = dict(self._games), dict(self._backups)


def _known_game(entry: Any) -> KnownGame:
    key = entry["key"]
    if not isinstance(entry["digest"], str) or not (key is None or isinstance(key, str)):
        raise ValueError("a game's digest or key is not text")
    return KnownGame(entry["digest"], GameSummary.from_json(entry["summary"]), key)


def _quiet_backup(entry: Any) -> QuietBackup:
    if not isinstance(entry["key"], str) or not all(isinstance(d, str) for d in entry["matched"].values()):
        raise ValueError("a backup's key or digests are not text")
    return QuietBackup(int(entry["size"]), int(entry["modified_ns"]), entry["key"],
                       {int(game_id): digest for game_id, digest in entry["matched"].items()})

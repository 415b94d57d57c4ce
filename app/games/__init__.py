"""The registry of games: game id -> where its `Game` object lives.

Everything outside a game's own folders (`app/games/<game>/`, `app/ui/<game>/`)
finds a game here, by the id the journal stores or by a record's "format".
Adding a game is one line in GAMES: where its `Game` object lives and the formats
it reads. The formats are written here, not asked of the game, so that a game's
module is imported only when that game is needed: the command line reading a
score sheet loads that sheet's game alone.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from typing import NamedTuple

from app.games.base import Game, GameDocument, RecordError

MAX_DOCUMENT_BYTES = 5 * 1024 * 1024  # a whole recorded game is a few hundred kB at most


class Registered(NamedTuple):
    """Where a game's `Game` object lives ("module:name") and the record formats it reads
    (the same as its `formats`; tests/seam/test_registry.py checks that they agree)."""

    where: str
    formats: tuple[str, ...]


GAMES: dict[str, Registered] = {
    "macao": Registered("app.games.macao.game:GAME", ("macao-record/1",)),
    "marcopolo2": Registered("app.games.marcopolo2.game:GAME", ("marcopolo2-score/1",)),
    "shadows": Registered("app.games.shadows.game:GAME", ("shadows-score/1",)),
    "guild_columns": Registered("app.games.guild_columns.game:GAME", ("columns-score/1",)),
    "voyage": Registered("app.games.voyage.game:GAME", ("voyage-score/1",)),
}


class UnknownGame(LookupError):
    """A game id or record format that no registered game knows."""


@cache
def game(game_id: str) -> Game:
    """The registered game with this id (UnknownGame if there is none)."""
    if game_id not in GAMES:
        raise UnknownGame(f"no game {game_id!r} is known here (known: {', '.join(GAMES)})")
    module, _, name = GAMES[game_id].where.partition(":")
    found: Game = getattr(importlib.import_module(module), name)
    return found


def all_games() -> list[Game]:
    """Every registered game, in registry order."""
    return [game(game_id) for game_id in GAMES]


def game_for_format(document: object) -> Game:
    """The game that reads a decoded record or sheet, by its "format" (RecordError naming it)."""
    if not isinstance(document, dict):
        raise RecordError("record", f"expected a JSON object, found {type(document).__name__}")
    found = document.get("format")
    for game_id, registered in GAMES.items():
        if found in registered.formats:
            return game(game_id)
    known = ", ".join(f'"{fmt}"' for registered in GAMES.values() for fmt in registered.formats)
    if "format" not in document:
        raise RecordError("format", f"missing; expected one of {known}")
    raise RecordError("format", f"expected one of {known}, found {found!r}")


def read_document(text: str | bytes) -> tuple[Game, GameDocument]:
    """A record or sheet file's text: the game that reads it and what it holds.

    RecordError says what is wrong and where: too large, not JSON, an unknown
    format, or (from the game) the path of the first bad value. A leading
    byte-order mark (some editors on Windows write one) is accepted.
    """
    text = text.removeprefix(b"\xef\xbb\xbf") if isinstance(text, bytes) else text.removeprefix("\ufeff")
    if len(text) > MAX_DOCUMENT_BYTES:
        raise RecordError("", f"the file is {len(text) // 1024} kB; a game record is at most "
                              f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MB")
    try:
        document = json.loads(text)
    except RecursionError:
        raise RecordError("", "the document is nested far too deeply to be a game record") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        where = f"line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else ""
        raise RecordError(where, f"not valid JSON ({getattr(err, 'msg', err)})") from None
    found = game_for_format(document)
    return found, found.read(document)

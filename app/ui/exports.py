"""Exports of a finished game: the record file, a CSV of the scores, and BG Stats' import JSON.

Scores come from the game's ScoreTable; nothing here scores anything.
CSV cells that a spreadsheet would run as a formula are made inert, and every
cell holding a line break (CR or LF) is quoted, so a row never splits.
"""

from __future__ import annotations

import csv
import io
import json
import re
from contextlib import suppress
from pathlib import Path

from app.games.base import ScoreTable
from vision.atomic_file import write_atomically

FORMULA_SIGNS = "=+-@\uff1d\uff0b\uff0d\uff20"  # and their full-width forms, which spreadsheets fold
LINE_STARTS = ("\t", "\r", "\n")
LEADING_BLANKS = " \u3000\t\r\n"  # what a spreadsheet skips before it looks for a formula
SOURCE_NAME = "Windrose"


def inert_cell(value: object) -> str:
    """A CSV cell that no spreadsheet evaluates: text starting like a formula (after any blanks),
    or with a tab or line break, gets a leading quote."""
    text = str(value)
    if text.startswith(LINE_STARTS) or text.lstrip(LEADING_BLANKS)[:1] in tuple(FORMULA_SIGNS):
        return "'" + text
    return text


def scores_csv(started: str, table: ScoreTable) -> str:
    """One row per player: who, each part of the game's breakdown, total, rank, winner or not."""
    out = io.StringIO()
    # CR and LF both in the line terminator: csv then quotes every cell holding either (RFC 4180).
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(("started", "colour", "name", *(column.key for column in table.columns), "total", "rank",
                     "winner"))
    for line in table.lines:
        writer.writerow(
            inert_cell(v)
            for v in (started, line.colour or "", line.name, *line.parts, line.total, line.rank,
                      "yes" if line.player == table.winner else "no")
        )
    return out.getvalue()


def _play_date(started: str) -> str:
    """BG Stats wants 'YYYY-MM-DD HH:MM:SS' (local time); the record has ISO 8601."""
    match = re.match(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(:\d{2})?)", started)
    if not match:
        return started
    clock = match.group(2) if match.group(3) else match.group(2) + ":00"
    return f"{match.group(1)} {clock}"


def bgstats_json(game_name: str, started: str, table: ScoreTable, start_player: str | None) -> str:
    """One play in the JSON layout BG Stats imports (games, players, plays with playerScores)."""
    players = [{"id": i + 1, "name": line.name} for i, line in enumerate(table.lines)]
    scores = []
    for i, line in enumerate(table.lines):
        score: dict[str, object] = {
            "playerRefId": i + 1,
            "score": str(line.total),
            "winner": line.player == table.winner,
            "rank": line.rank,
            "startPlayer": line.player == start_player,
        }
        if line.colour:
            score["role"] = line.colour
        scores.append(score)
    document = {
        "sourceName": SOURCE_NAME,
        "games": [{"id": 1, "name": game_name}],
        "players": players,
        "locations": [],
        "plays": [{"gameRefId": 1, "playDate": _play_date(started), "playerScores": scores}],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def export_game(
    folder: Path, kind: str, game_name: str, game_id: int, started: str, record_text: str,
    table: ScoreTable | None, start_player: str | None,
) -> list[Path]:
    """Write the record (always) and, for a scored game, the CSV and BG Stats files; returns the paths.

    `kind` (the registered game's id) starts the file names, `game_name` is the title BG Stats shows.
    Each file is written whole or not at all (a synced temporary file, then a rename), and when
    one fails (a full or pulled stick) those already written go again: an export is all or nothing.
    """
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{kind}-{game_id}-" + re.sub(r"[^0-9]", "", started)[:12]
    files = [(folder / f"{stem}.json", record_text)]
    if table is not None:
        files.append((folder / f"{stem}.csv", scores_csv(started, table)))
        files.append((folder / f"{stem}.bgstats.json", bgstats_json(game_name, started, table, start_player)))
    written: list[Path] = []
    try:
        for path, text in files:
            write_atomically(path, text)
            written.append(path)
    except OSError:
        for path in written:
            with suppress(OSError):
                path.unlink(missing_ok=True)
        raise
    return written

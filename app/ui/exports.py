"""Exports of a finished game: the record file, a CSV of the scores, and BG Stats' import JSON.

Scores come from the rules core's ScoreSheet; nothing here scores anything.
CSV cells that a spreadsheet would run as a formula are made inert, and every
cell holding a line break (CR or LF) is quoted, so a row never splits.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMULA_SIGNS = "=+-@\uff1d\uff0b\uff0d\uff20"  # and their full-width forms, which spreadsheets fold
LINE_STARTS = ("\t", "\r", "\n")
LEADING_BLANKS = " \u3000\t\r\n"  # what a spreadsheet skips before it looks for a formula
GAME_NAME = "Macao"
SOURCE_NAME = "Windrose"


def inert_cell(value: object) -> str:
    """A CSV cell that no spreadsheet evaluates: text starting like a formula (after any blanks),
    or with a tab or line break, gets a leading quote."""
    text = str(value)
    if text.startswith(LINE_STARTS) or text.lstrip(LEADING_BLANKS)[:1] in tuple(FORMULA_SIGNS):
        return "'" + text
    return text


@dataclass(frozen=True)
class ScoreLine:
    """One player's result as the exports need it (copied from the core's ScoreRow)."""

    colour: str
    name: str
    prestige: int
    card_points: int
    city_points: int
    punish_markers: int
    total: int
    rank: int

    @classmethod
    def from_row(cls, row: Any) -> ScoreLine:
        return cls(
            row.colour, row.name, row.prestige, row.card_points, row.city_points,
            row.punish_markers, row.total, row.rank,
        )


CSV_COLUMNS = ("started", "colour", "name", "prestige", "card_points", "city_points", "punish_markers", "total", "rank", "winner")


def scores_csv(started: str, lines: Sequence[ScoreLine], winner: str) -> str:
    out = io.StringIO()
    # CR and LF both in the line terminator: csv then quotes every cell holding either (RFC 4180).
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for line in lines:
        writer.writerow(
            inert_cell(v)
            for v in (
                started, line.colour, line.name, line.prestige, line.card_points, line.city_points,
                line.punish_markers, line.total, line.rank, "yes" if line.colour == winner else "no",
            )
        )
    return out.getvalue()


def _play_date(started: str) -> str:
    """BG Stats wants 'YYYY-MM-DD HH:MM:SS' (local time); the record has ISO 8601."""
    match = re.match(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(:\d{2})?)", started)
    if not match:
        return started
    clock = match.group(2) if match.group(3) else match.group(2) + ":00"
    return f"{match.group(1)} {clock}"


def bgstats_json(started: str, lines: Sequence[ScoreLine], winner: str, start_player: str | None) -> str:
    """One play in the JSON layout BG Stats imports (games, players, plays with playerScores)."""
    players = [{"id": i + 1, "name": line.name} for i, line in enumerate(lines)]
    scores = [
        {
            "playerRefId": i + 1,
            "score": str(line.total),
            "winner": line.colour == winner,
            "rank": line.rank,
            "startPlayer": line.colour == start_player,
            "role": line.colour,
        }
        for i, line in enumerate(lines)
    ]
    document = {
        "sourceName": SOURCE_NAME,
        "games": [{"id": 1, "name": GAME_NAME}],
        "players": players,
        "locations": [],
        "plays": [{"gameRefId": 1, "playDate": _play_date(started), "playerScores": scores}],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def export_game(
    folder: Path, game_id: int, started: str, record_text: str,
    lines: Sequence[ScoreLine] | None, winner: str | None, start_player: str | None,
) -> list[Path]:
    """Write the record (always) and, for a scored game, the CSV and BG Stats files; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"macao-{game_id}-" + re.sub(r"[^0-9]", "", started)[:12]
    written = [folder / f"{stem}.json"]
    written[0].write_text(record_text, encoding="utf-8")
    if lines is not None and winner is not None:
        csv_path = folder / f"{stem}.csv"
        csv_path.write_text(scores_csv(started, lines, winner), encoding="utf-8")
        bgstats_path = folder / f"{stem}.bgstats.json"
        bgstats_path.write_text(bgstats_json(started, lines, winner, start_player), encoding="utf-8")
        written += [csv_path, bgstats_path]
    return written

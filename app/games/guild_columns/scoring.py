"""Scoring the ring of columns: a column counts when no column beside it is higher.

All the table's columns form one ring, player after player in sheet order, so a
player's outer columns are compared with the neighbours' nearest columns.
"""

from __future__ import annotations

from app.games.base import Message, ScoreResult, rank_scores

from .sheet import GAME_ID, Sheet, heights_of


def ring_flags(rows: list[list[int]]) -> list[list[bool]]:
    """For each player's columns (left to right), whether that column scores."""
    ring = [height for row in rows for height in row]
    count = len(ring)
    scores = [ring[i] >= ring[i - 1] and ring[i] >= ring[(i + 1) % count] for i in range(count)]
    flags: list[list[bool]] = []
    start = 0
    for row in rows:
        flags.append(scores[start:start + len(row)])
        start += len(row)
    return flags


def score(sheet: Sheet) -> ScoreResult:
    """Totals with the scoring columns as breakdown; the rules name no tie-break, so ties are shared."""
    rows = heights_of(sheet)
    names = [p["name"] for p in sheet["players"]]
    scoring = [[h for h, counts in zip(row, flags, strict=True) if counts]
               for row, flags in zip(rows, ring_flags(rows), strict=True)]
    result = rank_scores(GAME_ID, names, [sum(s) for s in scoring], [{"scoring_columns": s} for s in scoring])
    if result.winner is None:
        first = [p for p in result.players if p.rank == 1]
        return ScoreResult(result.game, result.players, None, Message(
            "{names} share first place with {total} points; the rules name no tie-break.",
            {"names": ", ".join(p.name for p in first), "total": first[0].total}))
    return result

"""Statistics across finished games, per player name: games, wins, average and best score."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.games.base import ScoreTable


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    average: float
    best: int


def player_stats(tables: Iterable[ScoreTable]) -> list[PlayerStats]:
    """Per player name over the score tables of finished games (newest first), most wins first.
    Names that differ only in case are one player, shown as spelt in the newest table."""
    spelt: dict[str, str] = {}
    totals: dict[str, list[int]] = {}
    wins: dict[str, int] = {}
    for table in tables:
        for line in table.lines:
            key = line.name.casefold()
            spelt.setdefault(key, line.name)
            totals.setdefault(key, []).append(line.total)
            wins[key] = wins.get(key, 0) + (line.player == table.winner)
    stats = [
        PlayerStats(spelt[key], len(scores), wins.get(key, 0), sum(scores) / len(scores), max(scores))
        for key, scores in totals.items()
    ]
    stats.sort(key=lambda s: (-s.wins, -s.average, s.name.lower()))
    return stats

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
    """Per player name over the score tables of finished games, most wins first."""
    totals: dict[str, list[int]] = {}
    wins: dict[str, int] = {}
    for table in tables:
        for line in table.lines:
            totals.setdefault(line.name, []).append(line.total)
            wins[line.name] = wins.get(line.name, 0) + (line.player == table.winner)
    stats = [
        PlayerStats(name, len(scores), wins.get(name, 0), sum(scores) / len(scores), max(scores))
        for name, scores in totals.items()
    ]
    stats.sort(key=lambda s: (-s.wins, -s.average, s.name.lower()))
    return stats

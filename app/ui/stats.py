"""Statistics across finished games, per player name: games, wins, average and best score."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.ui.exports import ScoreLine


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    average: float
    best: int


def player_stats(games: Iterable[tuple[Sequence[ScoreLine], str]]) -> list[PlayerStats]:
    """Per player name over (score lines, winner colour) of each game, most wins first."""
    totals: dict[str, list[int]] = {}
    wins: dict[str, int] = {}
    for lines, winner in games:
        for line in lines:
            totals.setdefault(line.name, []).append(line.total)
            wins[line.name] = wins.get(line.name, 0) + (line.colour == winner)
    stats = [
        PlayerStats(name, len(scores), wins.get(name, 0), sum(scores) / len(scores), max(scores))
        for name, scores in totals.items()
    ]
    stats.sort(key=lambda s: (-s.wins, -s.average, s.name.lower()))
    return stats

"""Statistics per player name across finished games (app.ui.stats)."""

from __future__ import annotations

from app.games.base import ScoreLine, ScoreTable
from app.ui.stats import PlayerStats, player_stats


def _table(winner: str, *lines: tuple[str, str, int]) -> ScoreTable:
    return ScoreTable("tally", (), tuple(ScoreLine(player, name, None, (), total, 1) for player, name, total in lines),
                      winner)


def test_names_that_differ_only_in_case_are_one_player_spelt_as_in_the_newest_game() -> None:
    newest = _table("p1", ("p1", "Dora", 30), ("p2", "Emil", 20))
    older = _table("p2", ("p1", "dora", 10), ("p2", "Emil", 25))
    # As many wins each: the better average first.
    assert player_stats([newest, older]) == [PlayerStats("Emil", 2, 1, 22.5, 25), PlayerStats("Dora", 2, 1, 20.0, 30)]

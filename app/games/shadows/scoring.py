"""Counting the cash: gang members and establishments; ties go to more establishments, then a bigger gang."""

from __future__ import annotations

from app.games.base import Message, PlayerScore, ScoreResult, SheetError, rank_scores

from .sheet import GAME_ID, PARTS, Sheet


def _tie_break(players: list[PlayerScore]) -> Message | None:
    """Why the winner won when the best total was shared, or that the first place stays shared."""
    best = max(p.total for p in players)
    tied = [p for p in players if p.total == best]
    if len(tied) < 2:
        return None
    first = [p.name for p in tied if p.rank == 1]
    if len(first) > 1:
        return Message("{names} are level in cash, establishments and gang members: first place is shared.",
                       {"names": ", ".join(first)})
    return Message("{names} share {total} in cash; {name} wins the tie-break (more establishments, "
                   "then more gang members).", {"names": ", ".join(p.name for p in tied), "total": best,
                                                "name": first[0]})


def score(sheet: Sheet) -> ScoreResult:
    names, totals, breakdowns, keys = [], [], [], []
    for i, player in enumerate(sheet["players"]):
        for part in PARTS:
            if part not in player:
                raise SheetError(f"players[{i}].{part}",
                                 Message("missing; every player's gang and establishments are needed to score"))
        gang, establishments = player["gang"], player["establishments"]
        names.append(player["name"])
        totals.append(sum(gang) + sum(establishments))
        breakdowns.append({"gang": sum(gang), "establishments": sum(establishments)})
        keys.append((len(establishments), len(gang)))
    result = rank_scores(GAME_ID, names, totals, breakdowns, keys)
    return ScoreResult(result.game, result.players, result.winner, _tie_break(result.players))

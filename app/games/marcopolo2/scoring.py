"""Marco Polo II's sums: compensation for a low roll, the contracts award and the end score."""

from __future__ import annotations

from app.games.base import Message, ScoreResult, SheetError, rank_scores

from .sheet import END_FIELDS, GAME_ID, Sheet

COMPENSATION_TARGET = 15
FIRST_AWARD, SECOND_AWARD = 8, 4
GOODS_PER_VP, COINS_PER_VP = 2, 10


def compensation(dice: list[int]) -> int:
    """Camels and/or coins owed for a roll: what its sum falls short of 15."""
    return max(0, COMPENSATION_TARGET - sum(dice))


def contract_awards(contracts: list[int]) -> list[int]:
    """VP for completed contracts: most 8, second most 4 (not with two players).

    Everyone tied for most gets 8 and no 4 is given; with one clear leader,
    everyone tied for second gets 4; no contract, no award.
    """
    best = max(contracts)
    leaders = [c == best for c in contracts]
    awards = [FIRST_AWARD if lead and c > 0 else 0 for c, lead in zip(contracts, leaders, strict=True)]
    if sum(leaders) == 1 and len(contracts) > 2:
        second = max((c for c in contracts if c < best), default=0)
        awards = [SECOND_AWARD if c == second and c > 0 and not lead else a
                  for c, lead, a in zip(contracts, leaders, awards, strict=True)]
    return awards


def score(sheet: Sheet) -> ScoreResult:
    """The end score with a breakdown; a tie goes to most camels, then stays shared."""
    players = sheet["players"]
    for i, player in enumerate(players):
        for name in END_FIELDS:
            if name not in player:
                raise SheetError(f"players[{i}].{name}", Message("missing; the end scoring needs it"))
    awards = contract_awards([p["contracts"] for p in players])
    names, totals, breakdowns, camels = [], [], [], []
    for player, award in zip(players, awards, strict=True):
        breakdown = {
            "compensation": [compensation(roll) for roll in player.get("rolls", [])],
            "vp_track": player["vp_track"],
            "guild_seals_vp": player["guild_seals_vp"],
            "shields_vp": player["shields_vp"],
            "goods": player["goods"] // GOODS_PER_VP,
            "coins": player["coins"] // COINS_PER_VP,
            "contracts": award,
        }
        names.append(player["name"])
        totals.append(sum(v for k, v in breakdown.items() if k != "compensation"))
        breakdowns.append(breakdown)
        camels.append((player["camels"],))
    result = rank_scores(GAME_ID, names, totals, breakdowns, camels)
    best = max(totals)
    tied = [p for p in result.players if p.total == best]
    if len(tied) < 2:
        return result
    first = [p.name for p in tied if p.rank == 1]
    if len(first) > 1:
        message = Message("{names} are level in points and camels: first place is shared.",
                          {"names": ", ".join(first)})
    else:
        message = Message("{names} share {total} points; {name} wins with the most camels.",
                          {"names": ", ".join(p.name for p in tied), "total": best, "name": first[0]})
    return ScoreResult(result.game, result.players, result.winner, message)

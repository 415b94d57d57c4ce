"""Money at the end of the two voyages: goods left turn into coins, every ten coins into a chest."""

from __future__ import annotations

from app.games.base import Message, ScoreResult, SheetError, rank_scores

from .sheet import CHEST_VALUE, GAME_ID, ROUNDS, Sheet


def money(rounds: list[dict[str, int]]) -> tuple[int, int]:
    """(chests, coins) after the rounds given: at each round's end the goods left become coins and
    every ten coins held, old and new, become a chest."""
    chests = coins = 0
    for entry in rounds:
        coins += entry["coins"] + entry["goods_left"]
        chests += coins // CHEST_VALUE
        coins %= CHEST_VALUE
    return chests, coins


def score(sheet: Sheet) -> ScoreResult:
    """Most money wins; the rules name no tie-break, so ties are shared."""
    names, totals, breakdowns = [], [], []
    for i, player in enumerate(sheet["players"]):
        rounds = player.get("rounds", [])
        if len(rounds) < ROUNDS:
            raise SheetError(f"players[{i}].rounds", Message(
                "{count} of {rounds} voyages entered; both are needed to score",
                {"count": len(rounds), "rounds": ROUNDS}))
        chests, coins = money(rounds)
        names.append(player["name"])
        totals.append(CHEST_VALUE * chests + coins)
        breakdowns.append({"chests": chests, "coins": coins})
    result = rank_scores(GAME_ID, names, totals, breakdowns)
    if result.winner is None:
        first = [p for p in result.players if p.rank == 1]
        return ScoreResult(result.game, result.players, None, Message(
            "{names} share first place with {total} in money; the rules name no tie-break.",
            {"names": ", ".join(p.name for p in first), "total": first[0].total}))
    return result

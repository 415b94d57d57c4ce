"""End-of-game scoring, in the order the rules settle accounts, with the tie-break."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import Message, RulesError
from .model import CITY_POINTS_PER_QUARTER, NO_TABLEAU_PENALTY, PUNISH_PRESTIGE, GameState, PlayerState


@dataclass(frozen=True)
class ScoreRow:
    colour: str
    name: str
    prestige: int  # the track before end-of-game scoring
    punish_markers: int  # all markers, including those for cards left waiting
    tableau_penalty: int  # markers added at the end for cards still on the tableau
    punish_points: int  # prestige actually lost to markers (the track stops at 0)
    card_points: int
    city_group: int
    city_points: int
    total: int
    rank: int

    def to_json(self) -> dict[str, Any]:
        return {
            "colour": self.colour,
            "name": self.name,
            "prestige": self.prestige,
            "card_points": self.card_points,
            "city_points": self.city_points,
            "punish_markers": self.punish_markers,
            "total": self.total,
            "rank": self.rank,
        }


@dataclass(frozen=True)
class ScoreSheet:
    rows: list[ScoreRow]  # in rank order
    winner: str
    tie_break: Message | None  # why the winner won, when the best total was shared

    def to_json(self) -> dict[str, Any]:
        return {"players": [row.to_json() for row in self.rows], "winner": self.winner}


def score(state: GameState) -> ScoreSheet:
    """Final scores; the game must be over (every player's final entry given)."""
    if state.phase != "over":
        raise RulesError(Message("The game is not over yet, so it cannot be scored."), action_type="score")
    wall_order = state.turn_order()
    rows = []
    for p in state.players:
        assert p.final is not None
        rows.append(_row(p, *p.final))
    rows.sort(key=lambda r: (-r.total, wall_order.index(r.colour)))
    ranked = [ScoreRow(**{**r.__dict__, "rank": i + 1}) for i, r in enumerate(rows)]
    best = ranked[0]
    tied = [r for r in ranked if r.total == best.total]
    tie_break = None
    if len(tied) > 1:
        others = ", ".join(r.name for r in tied[1:])
        tie_break = Message(
            "{name} and {others} share {total} points; {name} wins by being further along the wall.",
            {"name": best.name, "others": others, "total": best.total},
        )
    return ScoreSheet(rows=ranked, winner=best.colour, tie_break=tie_break)


def _row(p: PlayerState, card_points: int, city_group: int) -> ScoreRow:
    """One player's account: punish markers (one more per card still waiting, unless Abbot),
    3 prestige back each but never below 0, then card points and the city group."""
    penalty = 0 if p.has_effect(NO_TABLEAU_PENALTY) else len(p.tableau)
    markers = p.punish + penalty
    after_punish = max(0, p.prestige - PUNISH_PRESTIGE * markers)
    city_points = CITY_POINTS_PER_QUARTER * city_group
    return ScoreRow(
        colour=p.colour, name=p.name, prestige=p.prestige, punish_markers=markers, tableau_penalty=penalty,
        punish_points=p.prestige - after_punish, card_points=card_points, city_group=city_group,
        city_points=city_points, total=after_punish + card_points + city_points, rank=0,
    )


def score_if_ended_now(state: GameState) -> dict[str, int]:
    """Each player's total were the game to end now: prestige after the punish markers, those
    for cards still on the tableau included; card points and the city group count once entered."""
    return {p.colour: _row(p, *(p.final or (0, 0))).total for p in state.players}

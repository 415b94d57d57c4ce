"""A round-by-round account of a record, for `python -m app check`."""

from __future__ import annotations

from typing import Any

from . import cubes
from app.games.base import RulesError
from .model import GameState
from .record import Record, start_state
from .rules import apply_in_place


def _snapshot(state: GameState, supplies: dict[str, dict[str, int]]) -> dict[str, Any]:
    players = []
    for p in state.players:
        space, depth = state.wall_position(p.colour)
        players.append(
            {
                "colour": p.colour,
                "name": p.name,
                "windrose": {str(k): cubes.ordered(p.windrose[k]) for k in range(1, 7)},
                "supply": supplies.get(p.colour, {}),
                "gold": p.gold,
                "prestige": p.prestige,
                "punish": p.punish,
                "wall": {"space": space + 1, "depth": depth + 1},
            }
        )
    return {"round": state.round, "dice": dict(state.dice), "tribute": list(state.tribute), "players": players}


def round_report(record: Record) -> list[dict[str, Any]]:
    """Per round: each player's windrose and gold, prestige, punish markers and wall
    place at the end of the round, and the supply they had when actions began."""
    state = start_state(record)
    report: list[dict[str, Any]] = []
    supplies: dict[str, dict[str, int]] = {}
    dice: dict[str, int] = {}
    tribute = (0, 0)
    for index, action in enumerate(record.actions):
        before_round, before_phase = state.round, state.phase
        try:
            apply_in_place(state, action)
        except RulesError as err:
            raise err.at_index(index) from None
        if state.phase == "actions" and before_phase != "actions":
            supplies = {p.colour: cubes.ordered(p.supply) for p in state.players}
            dice, tribute = dict(state.dice), state.tribute
        if before_round >= 1 and state.round != before_round:
            snap = _snapshot(state, supplies)
            snap.update(round=before_round, dice=dice, tribute=list(tribute))
            report.append(snap)
            supplies = {}
    return report

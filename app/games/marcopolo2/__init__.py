"""Marco Polo II (seed 004): every round's dice with their compensation, and the end scoring pad."""

from .scoring import compensation, contract_awards, score
from .sheet import (
    DIE_COLOURS,
    END_FIELDS,
    FORMAT,
    GAME_ID,
    MAX_DICE,
    NOBODYS_DICE,
    PLAYER_COLOURS,
    ROUNDS,
    apply_action,
    current_round,
    describe_action,
    new_sheet,
    parse_sheet,
    progress,
    waiting_for,
)

__all__ = [
    "DIE_COLOURS", "END_FIELDS", "FORMAT", "GAME_ID", "MAX_DICE", "NOBODYS_DICE", "PLAYER_COLOURS", "ROUNDS", "apply_action", "compensation",
    "contract_awards", "current_round", "describe_action", "new_sheet", "parse_sheet",
    "progress", "score", "waiting_for",
]

"""The guild-columns card game (seed 003, first text) as a score sheet: read, fill in, score the ring."""

from .scoring import ring_flags, score
from .sheet import (
    FORMAT,
    GAME_ID,
    apply_action,
    describe_action,
    missing_players,
    new_sheet,
    parse_sheet,
    progress,
    waiting_for,
)

__all__ = [
    "FORMAT", "GAME_ID", "apply_action", "describe_action", "missing_players",
    "new_sheet", "parse_sheet", "progress", "ring_flags", "score", "waiting_for",
]

"""The two-voyage ship game (seed 003, second text) as a score sheet: coins, goods left and treasure chests."""

from .scoring import money, score
from .sheet import (
    FORMAT,
    GAME_ID,
    apply_action,
    describe_action,
    missing_entries,
    new_sheet,
    parse_sheet,
    progress,
    waiting_for,
)

__all__ = [
    "FORMAT", "GAME_ID", "apply_action", "describe_action", "missing_entries",
    "money", "new_sheet", "parse_sheet", "progress", "score", "waiting_for",
]

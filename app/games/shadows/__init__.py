"""Shadows of Macao (seed 002) as a score sheet: each player's gang and establishments, counted."""

from .scoring import score
from .sheet import (
    FORMAT,
    GAME_ID,
    apply_action,
    describe_action,
    end_reminder,
    missing_entries,
    new_sheet,
    parse_sheet,
    progress,
    waiting_for,
)

__all__ = [
    "FORMAT", "GAME_ID", "apply_action", "describe_action", "end_reminder",
    "missing_entries", "new_sheet", "parse_sheet", "progress", "score", "waiting_for",
]

"""The rules of Macao as pure data and functions: no UI, camera, disk or clock."""

from .model import (
    CARD_KINDS,
    CUBE_COLOURS,
    GOODS,
    PHASES,
    PLAYER_COLOURS,
    ROUNDS,
    WALL_SPACES,
    Card,
    GameState,
    PlayerState,
)
from .options import Expect, Options, legal_options, waiting_for
from .record import FORMAT, Record, dump_record, load_record, parse_record, replay, start_state
from .report import round_report
from .rules import apply_action, apply_in_place, effective_pips, new_game, wall_cost
from .scoring import ScoreRow, ScoreSheet, score

__all__ = [
    "CARD_KINDS", "CUBE_COLOURS", "FORMAT", "GOODS", "PHASES", "PLAYER_COLOURS", "ROUNDS",
    "WALL_SPACES", "Card", "Expect", "GameState", "Options", "PlayerState", "Record",
    "ScoreRow", "ScoreSheet", "apply_action", "apply_in_place",
    "dump_record", "effective_pips", "legal_options", "load_record", "new_game",
    "parse_record", "replay", "round_report", "score", "start_state", "waiting_for", "wall_cost",
]

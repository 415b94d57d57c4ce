"""The rules of Macao as pure data and functions: no UI, camera, disk or clock."""

from .cautions import BASE_GAME_TRIBUTES, Caution, action_cautions, record_cautions
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
from .record import (
    FORMAT,
    MAX_RECORD_BYTES,
    Record,
    dump_record,
    load_record,
    parse_record,
    replay,
    size_problem,
    start_state,
)
from .report import round_report
from .rules import apply_action, apply_in_place, effective_pips, new_game, wall_cost
from .scoring import ScoreRow, ScoreSheet, score, score_if_ended_now

__all__ = [
    "BASE_GAME_TRIBUTES", "CARD_KINDS", "CUBE_COLOURS", "FORMAT", "GOODS", "MAX_RECORD_BYTES", "PHASES",
    "PLAYER_COLOURS", "ROUNDS", "WALL_SPACES", "Card", "Caution", "Expect", "GameState", "Options",
    "PlayerState", "Record", "ScoreRow", "ScoreSheet", "action_cautions",
    "apply_action", "apply_in_place", "dump_record", "effective_pips", "legal_options",
    "load_record", "new_game", "parse_record", "record_cautions", "replay", "round_report", "score",
    "score_if_ended_now",
    "size_problem", "start_state", "waiting_for", "wall_cost",
]

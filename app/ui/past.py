"""Stored games as the past-games screens need them: the record and, once over, the score sheet.

Read straight from the journal, so looking at an old game never changes the
game on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.macao import Record, RecordError, RulesError, replay, score
from app.journal import JournalError
from app.session import Session, SessionError
from app.ui.exports import ScoreLine


@dataclass(frozen=True)
class PastGame:
    id: int
    record: Record
    sheet: Any  # the core's ScoreSheet, or None while the game is not over
    problem: str | None = None

    @property
    def lines(self) -> list[ScoreLine] | None:
        return None if self.sheet is None else [ScoreLine.from_row(row) for row in self.sheet.rows]


def past_game(session: Session, game_id: int) -> PastGame:
    """A game that stops replaying comes with its record up to there (what an export writes)."""
    try:
        record, problem = session.readable_record(game_id)
    except SessionError as err:
        return PastGame(game_id, Record(players=[], wall=[], actions=[]), None, str(err))
    if problem is not None:
        return PastGame(game_id, record, None, problem)
    try:
        state = replay(record)
        sheet = score(state) if state.phase == "over" else None
    except (RulesError, RecordError, JournalError, ValueError) as err:
        return PastGame(game_id, record, None, str(err))
    return PastGame(game_id, record, sheet)

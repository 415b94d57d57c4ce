"""Stored games as the past-games screens need them: the record and, once over, the score sheet.

Read straight from the journal, so looking at an old game never changes the
game on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import RecordError, RulesError
from app.games.macao import Record, replay, score
from app.journal import JournalError
from app.session import Session
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
    row = session.journal.game(game_id)
    header = row.header
    record = Record(
        format=header.get("format", ""), started=str(header.get("started", "")),
        players=[dict(p) for p in header.get("players", [])], wall=list(header.get("wall", [])),
        actions=[dict(a) for a in session.journal.timeline(game_id).actions],
    )
    try:
        state = replay(record)
        sheet = score(state) if state.phase == "over" else None
    except (RulesError, RecordError, JournalError, ValueError) as err:
        return PastGame(game_id, record, None, str(err))
    return PastGame(game_id, record, sheet)

"""Stored games as the past-games screens need them: the game, its document and, once over,
its score table.

Read straight from the journal, so looking at an old game never changes the
game on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games import UnknownGame
from app.games import game as find_game
from app.games.base import Game, GameDocument, RecordError, RulesError, ScoreTable, Seat
from app.journal import JournalError
from app.session import Session


@dataclass(frozen=True)
class PastGame:
    id: int
    game: Game | None  # None: a game this Windrose does not know
    document: GameDocument
    table: ScoreTable | None  # None while the game is not over
    problem: str | None = None

    @property
    def started(self) -> str:
        return str(self.document.header.get("started") or "")

    @property
    def seats(self) -> list[Seat]:
        return [] if self.game is None else self.game.seats(self.document.header)


def past_game(session: Session, game_id: int) -> PastGame:
    row = session.journal.game(game_id)
    document = GameDocument(dict(row.header), [dict(a) for a in session.journal.timeline(game_id).actions])
    try:
        rules = find_game(row.game_type)
    except UnknownGame as err:
        return PastGame(game_id, None, document, None, str(err))
    try:
        state = rules.replay(document)
        table = rules.score(state) if rules.progress(state).finished else None
    except (RulesError, RecordError, JournalError, ValueError, KeyError, TypeError) as err:
        return PastGame(game_id, rules, document, None, str(err))
    return PastGame(game_id, rules, document, table)

"""Stored games as the past-games screens need them: the game, its document and, once over,
its score table.

Read straight from the journal, so looking at an old game never changes the
game on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.base import Game, GameDocument, RecordError, RulesError, ScoreTable, Seat
from app.session import Session, SessionError


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
    """A game that stops replaying comes with its document up to there (what an export writes)."""
    try:
        stored = session.readable_game(game_id)
    except SessionError as err:  # unknown kind of game, or a header that cannot be read
        header = session.journal.game(game_id).header
        return PastGame(game_id, None, GameDocument(dict(header), []), None, str(err))
    if stored.problem is not None:
        return PastGame(game_id, stored.game, stored.document, None, stored.problem)
    try:
        finished = stored.game.progress(stored.state).finished
        table = stored.game.score(stored.state) if finished else None
    except (RulesError, RecordError, ValueError, KeyError, TypeError) as err:
        return PastGame(game_id, stored.game, stored.document, None, str(err))
    return PastGame(game_id, stored.game, stored.document, table)

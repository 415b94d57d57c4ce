"""One stored game as a game list shows it, and its JSON form for the start cache (app/start_cache.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import Message


@dataclass(frozen=True)
class GameSummary:
    """One stored game, as a game list shows it."""

    id: int
    game: str  # the registered game's id
    started: str
    players: list[tuple[str, str]]  # (player id, name)
    finished: bool
    round: int
    winner: str | None  # the winner's player id, once over
    progress: Message | None  # how far it is in the game's own words (None if it does not replay)
    problem: str | None = None  # why the stored game no longer replays, if it does not

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values (the progress message's parameters must be JSON values already)."""
        progress = None if self.progress is None else {"template": self.progress.template,
                                                        "params": dict(self.progress.params)}
        return {"id": self.id, "game": self.game, "started": self.started,
                "players": [list(player) for player in self.players], "finished": self.finished,
                "round": self.round, "winner": self.winner, "progress": progress, "problem": self.problem}

    @classmethod
    def from_json(cls, data: Any) -> GameSummary:
        """The summary `to_json` wrote; ValueError for anything else."""
        try:
            progress = data["progress"]
            message = None if progress is None else Message(_text(progress["template"]), dict(progress["params"]))
            players = [(_text(player_id), _text(name)) for player_id, name in data["players"]]
            summary = cls(int(data["id"]), _text(data["game"]), _text(data["started"]), players,
                          bool(data["finished"]), int(data["round"]), _optional_text(data["winner"]), message,
                          _optional_text(data["problem"]))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a game summary ({err.__class__.__name__}: {err})") from None
        return summary


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return value


def _optional_text(value: Any) -> str | None:
    return None if value is None else _text(value)

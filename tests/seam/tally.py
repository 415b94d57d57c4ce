"""A tiny second game for the seam tests: players add points until the table ends the game.

It lives in the tests, registered only while a test runs, to show that the
session, journal, backups, exports and command line serve any registered game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.games.base import (
    Game,
    GameDocument,
    Message,
    Progress,
    RecordError,
    RulesError,
    ScoreColumn,
    ScoreLine,
    ScoreTable,
    Seat,
    player_name_problem,
)

FORMAT = "tally-score/1"


@dataclass(frozen=True)
class TallyState:
    names: tuple[str, ...]
    points: dict[str, int] = field(default_factory=dict)
    over: bool = False


@dataclass(frozen=True)
class Waiting:
    player: str | None
    actions: tuple[str, ...]
    prompt: Message


class Tally(Game[TallyState]):
    id = "tally"
    title = Message("Tally")
    min_players = 2
    max_players = 3
    formats = (FORMAT,)

    def read(self, document: object) -> GameDocument:
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise RecordError("format", f"expected {FORMAT!r}")
        self.new_state(document)
        return GameDocument({k: v for k, v in document.items() if k != "actions"}, list(document.get("actions", [])))

    def write(self, document: GameDocument) -> str:
        return json.dumps({**document.header, "actions": document.actions}, indent=2) + "\n"

    def new_state(self, header: Mapping[str, Any]) -> TallyState:
        players = header.get("players")
        if not isinstance(players, list) or not self.min_players <= len(players) <= self.max_players:
            raise RecordError("players", "expected 2 to 3 players")
        for i, player in enumerate(players):
            problem = player_name_problem(player.get("name", "")) if isinstance(player, dict) else "is no object"
            if problem:
                raise RecordError(f"players[{i}].name", problem)
        names = tuple(p["name"] for p in players)
        return TallyState(names, {name: 0 for name in names})

    def seats(self, header: Mapping[str, Any]) -> list[Seat]:
        return [Seat(p["name"], p["name"]) for p in header.get("players", [])]

    def apply(self, state: TallyState, action: Mapping[str, Any]) -> TallyState:
        if state.over:
            raise RulesError(Message("The game is over."), action_type=str(action.get("type")))
        if action.get("type") == "end":
            return replace(state, over=True)
        player = action.get("player")
        if action.get("type") != "points" or player not in state.names:
            raise RulesError(Message("Only points for a player, or the end."), action_type=str(action.get("type")))
        return replace(state, points={**state.points, player: state.points[player] + int(action["points"])})

    def waiting_for(self, state: TallyState) -> Waiting:
        return Waiting(None, () if state.over else ("points", "end"), Message("Add points."))

    def options(self, state: TallyState, player: str) -> Any:
        return None

    def progress(self, state: TallyState) -> Progress:
        total = sum(state.points.values())
        return Progress(total // 10, "over" if state.over else "play", Message("Tally"), state.over)

    def score(self, state: TallyState) -> ScoreTable:
        if not state.over:
            raise RulesError(Message("The game is not over yet."))
        order = sorted(state.names, key=lambda name: -state.points[name])
        lines = tuple(ScoreLine(name, name, None, (state.points[name],), state.points[name],
                                1 + sum(state.points[other] > state.points[name] for other in state.names))
                      for name in order)
        best = [line for line in lines if line.rank == 1]
        return ScoreTable(self.id, (ScoreColumn("points", Message("Points")),), lines,
                          best[0].player if len(best) == 1 else None)

    def score_document(self, state: TallyState) -> dict[str, Any]:
        table = self.score(state)
        return {"game": self.id, "players": [{"name": line.name, "total": line.total, "rank": line.rank}
                                             for line in table.lines], "winner": table.winner}

    def describe(self, before: TallyState, action: Mapping[str, Any], after: TallyState) -> Message:
        if action.get("type") == "end":
            return Message("The game ends.")
        return Message("{name} scores {points}", {"name": action["player"], "points": action["points"]})


GAME = Tally()

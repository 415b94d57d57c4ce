"""The guild-columns game behind the `Game` interface: a sheet filled in one player at a time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Message, Progress, ScoreColumn, ScoreResult, SheetGame, SheetWaiting

from .scoring import score
from .sheet import (
    FORMAT,
    GAME_ID,
    MAX_COLUMNS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    apply_action,
    describe_action,
    missing_players,
    parse_sheet,
    progress,
    waiting_for,
)


class Columns(SheetGame):
    """Format columns-score/1; one action per player enters their columns."""

    id = GAME_ID
    title = Message("Guild columns")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    formats = (FORMAT,)
    entry_fields = ("columns",)
    action_types = ("columns",)
    # Besides the count that scored, each player's seat and column heights (0: no such column), so
    # a result (a past game's too) can show the ring of columns round the table.
    score_columns = (
        ScoreColumn("scoring_columns", Message("Columns that score")),
        ScoreColumn("seat", Message("Seat")),
        *(ScoreColumn(f"column_{n}", Message("Column {n}", {"n": n})) for n in range(1, MAX_COLUMNS + 1)),
    )

    def parse(self, document: object) -> dict[str, Any]:
        return parse_sheet(document)

    def apply_entry(self, sheet: dict[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
        return apply_action(sheet, dict(action))

    def entry_actions(self, sheet: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "columns", "player": p["name"], "columns": p["columns"]}
                for p in sheet["players"] if "columns" in p]

    def result(self, sheet: dict[str, Any]) -> ScoreResult:
        return score(sheet)

    def parts(self, breakdown: dict[str, Any], player: dict[str, Any], seat: int) -> tuple[int, ...]:
        heights = list(player["columns"])
        return (len(breakdown["scoring_columns"]), seat, *heights, *[0] * (MAX_COLUMNS - len(heights)))

    def next_entry(self, sheet: dict[str, Any]) -> SheetWaiting | None:
        prompt = waiting_for(sheet)
        return None if prompt is None else SheetWaiting(missing_players(sheet)[0], self.action_types, prompt)

    def sheet_progress(self, sheet: dict[str, Any]) -> Progress:
        done = progress(sheet)
        return Progress(0, "entry", Message("Columns entered: {entered} of {players}", done),
                        done["entered"] == done["players"])

    def describe_entry(self, action: Mapping[str, Any]) -> Message:
        return describe_action(dict(action))


GAME = Columns()

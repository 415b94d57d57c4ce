"""The ship voyage behind the `Game` interface: each player's two voyages entered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Message, Progress, ScoreColumn, ScoreResult, SheetGame, SheetWaiting

from .scoring import score
from .sheet import (
    FORMAT,
    GAME_ID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    apply_action,
    describe_action,
    missing_entries,
    parse_sheet,
    progress,
    waiting_for,
)


class Voyage(SheetGame):
    """Format voyage-score/1; one action per player and voyage."""

    id = GAME_ID
    title = Message("The ship voyage")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    formats = (FORMAT,)
    entry_fields = ("rounds",)
    lists_of_entries = ("rounds",)
    action_types = ("voyage",)
    score_columns = (ScoreColumn("chests", Message("Chests")), ScoreColumn("coins", Message("Coins")))

    def parse(self, document: object) -> dict[str, Any]:
        return parse_sheet(document)

    def apply_entry(self, sheet: dict[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
        return apply_action(sheet, dict(action))

    def entry_actions(self, sheet: dict[str, Any]) -> list[dict[str, Any]]:
        """Every first voyage, then every second; a voyage's unknown fields ride along."""
        return [{"type": "voyage", "player": p["name"], "round": number, **p["rounds"][number - 1]}
                for number in (1, 2) for p in sheet["players"] if len(p.get("rounds", [])) >= number]

    def result(self, sheet: dict[str, Any]) -> ScoreResult:
        return score(sheet)

    def parts(self, breakdown: dict[str, Any], player: dict[str, Any], seat: int) -> tuple[int, ...]:
        return (breakdown["chests"], breakdown["coins"])

    def next_entry(self, sheet: dict[str, Any]) -> SheetWaiting | None:
        prompt = waiting_for(sheet)
        return None if prompt is None else SheetWaiting(missing_entries(sheet)[0][0], self.action_types, prompt)

    def sheet_progress(self, sheet: dict[str, Any]) -> Progress:
        done = progress(sheet)
        everyone = min(len(p.get("rounds", [])) for p in sheet["players"])
        return Progress(everyone, "entry", Message("Voyages entered: {entered} of {voyages}", done),
                        done["entered"] == done["voyages"])

    def describe_entry(self, action: Mapping[str, Any]) -> Message:
        return describe_action(dict(action))


GAME = Voyage()

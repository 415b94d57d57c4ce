"""Shadows of Macao behind the `Game` interface: each player's gang and establishments entered."""

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
    PARTS,
    apply_action,
    describe_action,
    missing_entries,
    parse_sheet,
    progress,
    waiting_for,
)


class Shadows(SheetGame):
    """Format shadows-score/1; a player's gang and establishments are one action each."""

    id = GAME_ID
    title = Message("Shadows of Macao")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    formats = (FORMAT,)
    entry_fields = PARTS
    action_types = PARTS
    score_columns = (
        ScoreColumn("gang", Message("Gang")),
        ScoreColumn("establishments", Message("Establishments")),
        ScoreColumn("establishments_opened", Message("Establishments opened")),
        ScoreColumn("gang_members", Message("Gang members")),
    )

    def parse(self, document: object) -> dict[str, Any]:
        return parse_sheet(document)

    def apply_entry(self, sheet: dict[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
        return apply_action(sheet, dict(action))

    def entry_actions(self, sheet: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": part, "player": p["name"], "values": p[part]}
                for p in sheet["players"] for part in PARTS if part in p]

    def result(self, sheet: dict[str, Any]) -> ScoreResult:
        return score(sheet)

    def parts(self, breakdown: dict[str, Any], player: dict[str, Any], seat: int) -> tuple[int, ...]:
        return (breakdown["gang"], breakdown["establishments"], len(player["establishments"]), len(player["gang"]))

    def next_entry(self, sheet: dict[str, Any]) -> SheetWaiting | None:
        prompt = waiting_for(sheet)
        if prompt is None:
            return None
        name, part = missing_entries(sheet)[0]
        return SheetWaiting(name, (part,), prompt)

    def sheet_progress(self, sheet: dict[str, Any]) -> Progress:
        done = progress(sheet)
        return Progress(0, "entry", Message("Values entered: {entered} of {parts}", done),
                        done["entered"] == done["parts"])

    def describe_entry(self, action: Mapping[str, Any]) -> Message:
        return describe_action(dict(action))


GAME = Shadows()

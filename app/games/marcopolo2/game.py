"""Marco Polo II behind the `Game` interface: five rounds of dice, then the end scoring."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import DiceNeed, Message, Progress, ScoreColumn, ScoreResult, SheetGame, SheetWaiting

from .scoring import score
from .sheet import (
    DIE_COLOURS,
    END_FIELDS,
    FORMAT,
    GAME_ID,
    MAX_DICE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NOBODYS_DICE,
    ROUNDS,
    apply_action,
    current_round,
    describe_action,
    missing_end,
    parse_sheet,
    progress,
    waiting_for,
)


class MarcoPolo2(SheetGame):
    """Format marcopolo2-score/1; a roll action per player and round, an end action per player."""

    id = GAME_ID
    title = Message("Marco Polo II")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    formats = (FORMAT,)
    # Every player's own dice at once, in player colours (black and white dice are nobody's).
    dice = DiceNeed(count=MAX_PLAYERS * MAX_DICE, colours=DIE_COLOURS, repeats=True)
    entry_fields = ("rolls", *END_FIELDS)
    lists_of_entries = ("rolls",)
    # "round_dice", not "roll": a camera roll (the dice service's "roll" action) has no player or round.
    action_types = ("round_dice", "end")
    score_columns = (
        ScoreColumn("vp_track", Message("Track")),
        ScoreColumn("guild_seals_vp", Message("Guild seals")),
        ScoreColumn("shields_vp", Message("Shields")),
        ScoreColumn("goods", Message("Goods")),
        ScoreColumn("coins", Message("Coins")),
        ScoreColumn("contracts", Message("Contracts")),
        ScoreColumn("camels", Message("Camels")),
    )

    def dice_in_play(self, state: dict[str, Any]) -> DiceNeed:
        """The players' colours and the black and white dice: the reader then names each die
        among the colours on the table only (and the camera check learns just those)."""
        used = {p["colour"] for p in state["players"]} | set(NOBODYS_DICE)
        return DiceNeed(len(state["players"]) * MAX_DICE + len(NOBODYS_DICE),
                        tuple(colour for colour in DIE_COLOURS if colour in used), repeats=True)

    def parse(self, document: object) -> dict[str, Any]:
        return parse_sheet(document)

    def apply_entry(self, sheet: dict[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
        return apply_action(sheet, dict(action))

    def entry_actions(self, sheet: dict[str, Any]) -> list[dict[str, Any]]:
        """Each round's rolls, player by player, then whatever end values are in."""
        actions: list[dict[str, Any]] = [
            {"type": "round_dice", "player": p["name"], "round": number, "dice": p["rolls"][number - 1]}
            for number in range(1, ROUNDS + 1) for p in sheet["players"] if len(p.get("rolls", [])) >= number
        ]
        for p in sheet["players"]:
            end = {name: p[name] for name in END_FIELDS if name in p}
            if end:
                actions.append({"type": "end", "player": p["name"], **end})
        return actions

    def result(self, sheet: dict[str, Any]) -> ScoreResult:
        return score(sheet)

    def parts(self, breakdown: dict[str, Any], player: dict[str, Any], seat: int) -> tuple[int, ...]:
        return (*(breakdown[column.key] for column in self.score_columns[:-1]), player["camels"])

    def next_entry(self, sheet: dict[str, Any]) -> SheetWaiting | None:
        prompt = waiting_for(sheet)
        if prompt is None:
            return None
        number = current_round(sheet)
        if number <= ROUNDS:  # the rounds' dice come before the end scoring
            behind = [p["name"] for p in sheet["players"] if len(p.get("rolls", [])) < number]
            return SheetWaiting(behind[0], ("round_dice",), prompt)
        return SheetWaiting(missing_end(sheet)[0], ("end",), prompt)

    def sheet_progress(self, sheet: dict[str, Any]) -> Progress:
        """Over once every end score is in (a table may not have entered every round's dice)."""
        rolled = progress(sheet)["rounds_rolled"]
        if not missing_end(sheet):
            return Progress(ROUNDS + 1, "over", Message("Game over"), True)
        if rolled < ROUNDS:
            return Progress(rolled + 1, "rounds", Message("Round {n}", {"n": rolled + 1}), False)
        return Progress(ROUNDS + 1, "end", Message("Game end"), False)

    def describe_entry(self, action: Mapping[str, Any]) -> Message:
        return describe_action(dict(action))


GAME = MarcoPolo2()

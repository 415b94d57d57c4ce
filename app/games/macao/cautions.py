"""Things the rules allow but a table may want to look at again: warnings, never refusals.

Promo and home-made cards may carry any tribute pair, and the values printed
on a port's spaces are not known without board data, so the record allows
both; `python -m app check` (and later the UI) points at the unusual ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import Message, RulesError

from .model import GameState
from .record import Record, start_state
from .rules import apply_in_place

# The tribute pairs (gold, prestige) printed on the base game's cards.
BASE_GAME_TRIBUTES: frozenset[tuple[int, int]] = frozenset({(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)})


@dataclass(frozen=True)
class Caution:
    """One warning about one action of a record."""

    action_index: int
    action_type: str
    player: str | None  # "Ann/orange", as errors name a player
    message: Message

    def __str__(self) -> str:
        who = f", {self.player}" if self.player else ""
        return f"action {self.action_index} ({self.action_type}{who}): {self.message}"


def action_cautions(state: GameState, action: dict[str, Any]) -> list[Message]:
    """What is unusual about a legal `action`, judged on the state just before it."""
    kind = action.get("type")
    found: list[Message] = []
    if kind in ("setup_draw", "reveal"):
        for card in [*action.get("office", []), *action["cards"]]:
            gold, prestige = card["tribute"]
            if (gold, prestige) not in BASE_GAME_TRIBUTES:
                found.append(Message(
                    "{card} shows tribute {gold}-{prestige}; the base game's cards show only "
                    "0-0, 0-1, 1-1, 1-2 or 2-2 (a promo or home-made card may differ).",
                    {"card": card["name"], "gold": gold, "prestige": prestige}))
    elif kind == "deliver" and action.get("port") in state.port_prestige:
        before = state.port_prestige[action["port"]]
        if action["prestige"] > before:
            found.append(Message(
                "This delivery to {port} scores {prestige}, more than the {before} of the one before it; "
                "a port's later spaces usually score less.",
                {"port": action["port"], "prestige": action["prestige"], "before": before}))
    return found


def record_cautions(record: Record) -> list[Caution]:
    """Every warning about a record's actions, in order (a RulesError if the record is not valid)."""
    state = start_state(record)
    cautions: list[Caution] = []
    for index, action in enumerate(record.actions):
        # Only a delivery is judged on what came before it; other actions need no copy.
        before = state.copy() if isinstance(action, dict) and action.get("type") == "deliver" else state
        try:
            apply_in_place(state, action)
        except RulesError as err:
            raise err.at_index(index) from None
        colour = action.get("player")
        who = f"{state.player(colour).name}/{colour}" if colour else None
        cautions.extend(Caution(index, action["type"], who, message) for message in action_cautions(before, action))
    return cautions

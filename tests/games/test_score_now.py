"""The running total 'if the game ended now' follows the end-of-game accounts."""

from __future__ import annotations

from app.games.macao import new_game, score_if_ended_now
from app.games.macao.model import NO_TABLEAU_PENALTY, Card


def _card(name: str, effects: tuple[str, ...] = ()) -> Card:
    return Card(name=name, kind="building", cost=None, tribute=(1, 1), effects=effects)


def test_punish_markers_and_waiting_cards_come_off_the_prestige() -> None:
    state = new_game([("orange", "Ann"), ("white", "Ben")], ["white", "orange"])
    ann, ben = state.player("orange"), state.player("white")
    ann.prestige, ann.punish, ann.tableau = 10, 1, [_card("A"), _card("B")]
    ben.prestige, ben.punish = 2, 1
    assert score_if_ended_now(state) == {"orange": 10 - 3 * 3, "white": 0}  # never below 0


def test_abbot_spares_the_waiting_cards_and_final_entries_count_once_given() -> None:
    state = new_game([("orange", "Ann"), ("white", "Ben")], ["white", "orange"])
    ann = state.player("orange")
    ann.prestige, ann.tableau, ann.activated = 10, [_card("A")], [_card("Abbot", (NO_TABLEAU_PENALTY,))]
    assert score_if_ended_now(state)["orange"] == 10
    ann.final = (4, 3)
    assert score_if_ended_now(state)["orange"] == 10 + 4 + 2 * 3

"""Abbot and Jester named at activation (`activate.effects`, an optional field older readers ignore).

A table tapping only the tribute at reveal says a card's effect when it plays the card: the
rules take the tags for a card whose effects were not given at reveal, refuse them in words
for one whose were, and a record naming them replays, round-trips and scores as the twin game
with the effects typed at reveal.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from app.games.base import RulesError
from app.games.macao import GameState, apply_action, dump_record, legal_options, load_record, replay, score
from app.games.macao.model import DOUBLE_JOKERS, NO_TABLEAU_PENALTY
from app.games.macao.simulate import random_record
from tests.games.golden import before

TWO = "two_players"


def _activation(state: GameState, **extra: Any) -> dict[str, Any]:
    return {"type": "activate", "player": "orange", "card": 1, **extra}


def _without_effects(state: GameState) -> GameState:
    changed = state.copy()
    card = changed.player("orange").tableau[1]
    changed.player("orange").tableau[1] = replace(card, effects=())
    return changed


def test_the_named_effects_go_with_the_activated_card() -> None:
    state = _without_effects(before(TWO, type="activate", player="orange"))  # Dock; Ann's supply: 2 red
    state.player("orange").supply.update(blue=1)
    after = apply_action(state, _activation(state, effects=[NO_TABLEAU_PENALTY, DOUBLE_JOKERS]))
    card = after.player("orange").activated[-1]
    assert card.name == "Dock" and card.effects == (NO_TABLEAU_PENALTY, DOUBLE_JOKERS)
    assert after.player("orange").has_effect(DOUBLE_JOKERS)
    assert legal_options(after, "orange").joker.double


def test_an_activation_without_effects_leaves_the_card_as_revealed() -> None:
    state = before(TWO, type="activate", player="orange")
    state.player("orange").supply.update(blue=1)
    after = apply_action(state, _activation(state))
    assert after.player("orange").activated[-1].effects == state.player("orange").tableau[1].effects


def test_effects_given_at_reveal_cannot_be_named_again() -> None:
    state = before(TWO, type="activate", player="orange")
    state.player("orange").supply.update(blue=1)
    card = state.player("orange").tableau[1]
    state.player("orange").tableau[1] = replace(card, effects=(DOUBLE_JOKERS,))
    with pytest.raises(RulesError) as info:
        apply_action(state, _activation(state, effects=[NO_TABLEAU_PENALTY]))
    assert "Dock" in str(info.value) and "revealed" in str(info.value)


@pytest.mark.parametrize(("effects", "words"), [
    ([], "1 to 2 entries"),
    (["repeatable"], "an effect an activation may name"),
    ([NO_TABLEAU_PENALTY, NO_TABLEAU_PENALTY], "twice"),
    ("no_tableau_penalty", "list"),
])
def test_a_malformed_effects_field_is_refused_with_its_path(effects: Any, words: str) -> None:
    state = _without_effects(before(TWO, type="activate", player="orange"))
    state.player("orange").supply.update(blue=1)
    with pytest.raises(RulesError) as info:
        apply_action(state, _activation(state, effects=effects))
    assert "effects" in str(info.value) and words in str(info.value)


def test_options_say_which_cards_may_name_their_effects() -> None:
    state = before(TWO, type="activate", player="orange")
    state.player("orange").supply.update(blue=1)
    card = state.player("orange").tableau[0]
    state.player("orange").tableau[0] = replace(card, effects=(NO_TABLEAU_PENALTY,))
    state.player("orange").tableau[1] = replace(state.player("orange").tableau[1], effects=())
    opens = {o.index: o.effects_open for o in legal_options(state, "orange").activate}
    assert opens[0] is False and opens[1] is True


def _effects_moved_to_activation(record: Any) -> dict[str, Any]:
    """The record's twin whose reveals give no effects and whose activations name them."""
    doc = json.loads(dump_record(record))
    tableaux: dict[str, list[dict[str, Any]]] = {p["colour"]: [] for p in doc["players"]}
    laid_out: list[dict[str, Any]] = []
    moved = 0
    for action in doc["actions"]:
        if action["type"] in ("setup_draw", "reveal"):
            revealed = action["cards"] if action["type"] == "setup_draw" else action["office"] + action["cards"]
            laid_out = [dict(card) for card in revealed]  # as printed, effects and all
            for card in revealed:
                card.pop("effects", None)
        elif action["type"] in ("setup_pick", "take_card"):
            tableau = tableaux[action["player"]]
            tableau.append(laid_out[action["card"]])
            if "discard" in action:
                tableau.pop(action["discard"])
        elif action["type"] == "activate":
            card = tableaux[action["player"]].pop(action["card"])
            if card.get("effects"):
                action["effects"] = card["effects"]
                moved += 1
    assert moved, "the seed's game should activate a card with an effect"
    return doc


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (1, 4)])  # each activates an Abbot or a Jester
def test_a_game_naming_effects_at_activation_scores_like_its_twin_with_them_at_reveal(seed: int, players: int) -> None:
    record = random_record(seed=seed, players=players)
    twin = load_record(json.dumps(_effects_moved_to_activation(record)))
    assert score(replay(twin)).to_json() == score(replay(record)).to_json()
    assert replay(load_record(dump_record(twin))).to_json() == replay(twin).to_json()  # round trip

"""Cards revealed with `cost: null`: the cubes paid at activation name the cost (spec: card, `activate`).

A table may tap only a card's tribute at reveal. The rules must then accept any
payment the card could take (one colour for an office), refuse a missing or
impossible one in words, offer the choice through the options, and score the
game exactly as if every cost had been typed at reveal.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.base import RulesError
from app.games.macao import (
    GameState,
    Record,
    apply_action,
    dump_record,
    legal_options,
    load_record,
    replay,
    score,
    start_state,
    waiting_for,
)
from app.games.macao.rules import apply_in_place
from app.games.macao.simulate import random_record
from tests.games.golden import before

TWO = "two_players"


def unknown(state: GameState, colour: str, index: int, kind: str | None = None) -> GameState:
    """`state` with one tableau card's cost forgotten (as if it was revealed with `cost: null`)."""
    changed = state.copy()
    card = changed.player(colour).tableau[index]
    changed.player(colour).tableau[index] = replace(card, cost=None, kind=kind or card.kind)
    return changed


def refused(state: GameState, action: dict[str, Any], *words: str) -> None:
    with pytest.raises(RulesError) as info:
        apply_action(state, action)
    for word in words:
        assert word.lower() in str(info.value).lower(), str(info.value)


# --- the rule -------------------------------------------------------------------------------------


def test_the_payment_becomes_the_cost() -> None:
    state = unknown(before(TWO, type="activate", player="orange"), "orange", 1)  # Dock; Ann's supply: 2 red
    assert state.player("orange").supply == {"red": 2}
    after = apply_action(state, {"type": "activate", "player": "orange", "card": 1, "pay": ["red", "red"]})
    assert after.player("orange").activated[-1].name == "Dock"
    assert after.player("orange").activated[-1].cost == ("red", "red")
    assert after.player("orange").supply == {}


def test_an_unknown_cost_needs_a_payment() -> None:
    state = unknown(before(TWO, type="activate", player="orange"), "orange", 1)
    refused(state, {"type": "activate", "player": "orange", "card": 1}, "Ann", "Dock", "not entered", "cubes")


def test_the_named_payment_must_be_in_the_supply() -> None:
    state = unknown(before(TWO, type="activate", player="orange"), "orange", 1)
    refused(state, {"type": "activate", "player": "orange", "card": 1, "pay": ["blue"]}, "Ann", "1 blue", "2 red")
    refused(state, {"type": "activate", "player": "orange", "card": 1, "pay": ["red"] * 5}, "pay", "1 to 4")


def test_an_office_of_unknown_cost_takes_cubes_of_one_colour() -> None:
    state = before(TWO, type="activate", player="orange")
    state.player("orange").supply.update(blue=1)
    office = unknown(state, "orange", 1, kind="office")
    refused(office, {"type": "activate", "player": "orange", "card": 1, "pay": ["red", "blue"]},
            "Dock", "office", "one colour")
    apply_action(office, {"type": "activate", "player": "orange", "card": 1, "pay": ["red", "red"]})


def test_a_known_cost_and_a_named_payment_must_agree() -> None:
    state = before(TWO, type="activate", player="orange")  # Dock costs 1 blue
    state.player("orange").supply.update(blue=1)
    refused(state, {"type": "activate", "player": "orange", "card": 1, "pay": ["red"]}, "Dock", "1 blue", "1 red")
    paid = apply_action(state, {"type": "activate", "player": "orange", "card": 1, "pay": ["blue"]})
    assert paid.player("orange").supply == {"red": 2}


def test_an_office_revealed_with_two_colours_is_refused() -> None:
    state = before(TWO, type="reveal")
    office = {"name": "Harbour Master", "kind": "office", "cost": ["red", "blue"], "tribute": [1, 1]}
    plain = {"name": "Well", "kind": "building", "cost": ["red", "blue"], "tribute": [0, 1]}
    refused(state, {"type": "reveal", "office": [office, dict(office, cost=["red"])], "cards": [plain] * 4},
            "Harbour Master", "office", "one colour")
    apply_action(state, {"type": "reveal", "office": [dict(office, cost=None)] * 2, "cards": [plain] * 4})


def test_a_null_cost_survives_the_round_trip() -> None:
    record = random_record(seed=11, players=3, unknown_costs=0.5)
    text = dump_record(record)
    assert '"cost": null' in text
    assert replay(load_record(text)).to_json() == replay(record).to_json()


# --- what the options and the prompt say ---------------------------------------------------------------


def test_options_offer_the_payments_a_card_of_unknown_cost_may_take() -> None:
    state = before(TWO, type="activate", player="orange")
    state.player("orange").supply.update(blue=1, green=3)
    state = unknown(unknown(state, "orange", 1), "orange", 0, kind="office")
    options = {o.index: o for o in legal_options(state, "orange").activate}
    plain, office = options[1], options[0]
    assert plain.ok and not plain.cost_known and plain.cost == {} and not plain.one_colour
    assert plain.payable == {"red": 2, "blue": 1, "green": 3} and plain.max_cubes == 4
    assert office.ok and office.one_colour and office.max_cubes == 3
    assert plain.hint is not None and "Dock" in str(plain.hint)
    assert "one colour" in str(office.hint)
    hints = [str(h) for h in waiting_for(state).hints]
    assert len(hints) == 2 and any("Dock" in h for h in hints)
    for option in (plain, office):
        colour = max(option.payable, key=lambda c: option.payable[c])
        apply_action(state, {"type": "activate", "player": "orange", "card": option.index,
                             "pay": [colour] * option.payable[colour]})


def test_options_refuse_a_card_of_unknown_cost_with_an_empty_supply() -> None:
    state = unknown(before(TWO, type="activate", player="orange"), "orange", 1)
    state.player("orange").windrose[0] = {}
    option = legal_options(state, "orange").activate[1]
    assert not option.ok and option.reason is not None and "empty" in str(option.reason)
    assert option.max_cubes == 0 and option.payable == {}
    other = legal_options(state, "white").activate  # not Ben's turn
    assert not any(o.ok for o in other)


def test_the_prompt_has_no_hints_when_every_cost_is_known() -> None:
    assert waiting_for(before(TWO, type="activate", player="orange")).hints == ()


# --- whole games: naming costs by payment scores the same as typing them -------------------------------


def typed_twin(record: Record) -> Record:
    """The same game with every card's cost typed at reveal (from its payment) and no `pay` named."""
    doc = copy.deepcopy(record.to_json())
    state = start_state(record)
    revealed_at: dict[int, dict[str, Any]] = {}  # id of a card in the state -> the card in `doc`
    for index, action in enumerate(record.actions):
        if action["type"] == "activate" and "pay" in action:
            card = state.player(action["player"]).tableau[action["card"]]
            revealed_at[id(card)]["cost"] = list(action["pay"])
            del doc["actions"][index]["pay"]
        apply_in_place(state, action)
        if action["type"] == "reveal":
            laid = doc["actions"][index]["office"] + doc["actions"][index]["cards"]
            revealed_at.update((id(c), laid[i]) for i, c in enumerate(state.revealed) if c is not None)
        elif action["type"] == "setup_draw":
            revealed_at.update((id(c), doc["actions"][index]["cards"][i]) for i, c in enumerate(state.setup_cards))
    for action in doc["actions"]:
        if action["type"] in ("reveal", "setup_draw"):
            for card in action.get("office", []) + action["cards"]:
                if card["cost"] is None:  # never activated: any cost an office could have will do
                    card["cost"] = ["red"]
    return load_record(json.dumps(doc))


def untyped_twin(record: Record, rng: random.Random) -> Record:
    """The same game with every cost left out at reveal, named at activation (cubes in any order)."""
    doc = copy.deepcopy(record.to_json())
    state = start_state(record)
    for index, action in enumerate(record.actions):
        if action["type"] == "activate":
            cost = list(state.player(action["player"]).tableau[action["card"]].cost or ())
            doc["actions"][index]["pay"] = rng.sample(cost, len(cost))
        apply_in_place(state, action)
        if action["type"] in ("reveal", "setup_draw"):
            for card in doc["actions"][index].get("office", []) + doc["actions"][index]["cards"]:
                card["cost"] = None
    return load_record(json.dumps(doc))


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.integers(min_value=2, max_value=4))
def test_games_paid_by_naming_cubes_score_like_their_typed_twins(seed: int, players: int) -> None:
    record = random_record(seed, players, unknown_costs=0.6)
    assert any(a["type"] == "activate" and "pay" in a for a in record.actions)
    typed = typed_twin(record)
    assert not any("pay" in a for a in typed.actions if a["type"] == "activate")
    assert score(replay(typed)).to_json() == score(replay(record)).to_json()


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.integers(min_value=2, max_value=4))
def test_typed_games_score_the_same_with_every_cost_left_to_the_payment(seed: int, players: int) -> None:
    record = random_record(seed, players)
    untyped = untyped_twin(record, random.Random(seed))
    assert all(c["cost"] is None for a in untyped.to_json()["actions"] if a["type"] == "reveal"
               for c in a["office"] + a["cards"])
    final = replay(untyped)
    assert score(final).to_json() == score(replay(record)).to_json()
    activated = {p.colour: sorted(sorted(c.cost or ()) for c in p.activated) for p in final.players}
    assert activated == {p.colour: sorted(sorted(c.cost or ()) for c in p.activated) for p in replay(record).players}

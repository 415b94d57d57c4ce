"""One test per rule the record spec names: an action that breaks it is refused.

Each refusal must say who and what in plain words (checked on key words, not
whole sentences) and must leave the state exactly as it was, through both the
pure `apply_action` and the in-place replay path. The states come from the
golden records (tests/records), stopped just before or after a known action.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.base import RecordError, RulesError
from app.games.macao import GameState, apply_action, apply_in_place, legal_options, load_record, replay
from tests.games.golden import after, before, position, record

TWO = "two_players"


def refused(state: GameState, action: dict[str, Any], *words: str) -> RulesError:
    """Assert `action` is refused, names `words`, and changes nothing."""
    snapshot = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(RulesError) as pure:
        apply_action(state, action)
    assert json.dumps(state.to_json(), sort_keys=True) == snapshot
    with pytest.raises(RulesError) as in_place:
        apply_in_place(state, action)
    assert json.dumps(state.to_json(), sort_keys=True) == snapshot, "a refused action changed the state"
    assert str(pure.value) == str(in_place.value)
    text = str(in_place.value).lower()
    for word in words:
        assert word.lower() in text, f"{word!r} not in {str(in_place.value)!r}"
    assert "traceback" not in text
    return in_place.value


def accepted(state: GameState, action: dict[str, Any]) -> GameState:
    return apply_action(state, action)


# --- turn order -------------------------------------------------------------------------------


def test_setup_picks_go_from_the_bottom_of_the_stack() -> None:
    state = before(TWO, type="setup_pick")
    assert state.wall[0] == ["orange", "white"]  # Ann on top, Ben at the bottom
    refused(state, {"type": "setup_pick", "player": "orange", "card": 0}, "Ann", "Ben", "turn")
    accepted(state, {"type": "setup_pick", "player": "white", "card": 0})


def test_setup_cubes_go_from_the_top_of_the_stack() -> None:
    state = before(TWO, type="setup_cubes")
    refused(state, {"type": "setup_cubes", "player": "white", "one": "red", "two": "red"}, "Ben", "Ann", "turn")
    accepted(state, {"type": "setup_cubes", "player": "orange", "one": "red", "two": "red"})


def test_cards_are_taken_in_wall_order() -> None:
    state = before(TWO, type="take_card")
    refused(state, {"type": "take_card", "player": "white", "card": 2}, "Ben", "Ann", "turn")


def test_wall_order_changes_who_takes_the_first_card() -> None:
    # Round 4: Ben landed on Ann's space in round 3 and sits on top of her.
    index = position(TWO, 6, type="take_card")
    state = replay(record(TWO), upto=index)
    assert state.round == 4 and state.turn == "white"
    refused(state, {"type": "take_card", "player": "orange", "card": 2}, "Ann", "Ben", "turn")


def test_dice_are_chosen_in_wall_order() -> None:
    state = before(TWO, type="choose_dice")
    refused(state, {"type": "choose_dice", "player": "white", "dice": ["red", "blue"]}, "Ben", "turn")


def test_only_the_player_whose_turn_it_is_may_act() -> None:
    state = before(TWO, type="activate", player="orange")
    refused(state, {"type": "ship", "player": "white", "spaces": 1, "pay": ["black"]}, "Ben", "Ann", "turn")
    refused(state, {"type": "buy_prestige", "player": "white"}, "Ben", "Ann", "turn")


def test_end_turn_by_the_wrong_player() -> None:
    state = before(TWO, type="activate", player="orange")
    refused(state, {"type": "end_turn", "player": "white"}, "Ben", "Ann", "turn")


def test_joker_only_in_the_owners_turn() -> None:
    state = before(TWO, nth=5, type="card_effect", player="white")  # Ben's turn, round 6
    state.player("orange").jokers = 1
    refused(state, {"type": "joker", "player": "orange", "take": "gold"}, "Ann", "Ben", "turn")


def test_a_colour_that_is_not_in_the_game() -> None:
    state = before(TWO, type="take_card")
    refused(state, {"type": "take_card", "player": "brown", "card": 2}, "brown", "no")


def test_actions_out_of_phase() -> None:
    drafting = before(TWO, type="take_card")
    refused(drafting, {"type": "activate", "player": "orange", "card": 0}, "Ann", "card phase")
    refused(drafting, {"type": "roll", "dice": {c: 1 for c in ("red", "blue", "green", "black", "gray", "violet")}},
            "cannot")
    acting = before(TWO, type="activate", player="orange")
    refused(acting, {"type": "reveal", "office": [], "cards": []}, "reveal")  # not even well formed
    refused(acting, {"type": "final", "player": "orange", "card_points": 0, "city_group": 0}, "Ann", "cannot")


# --- phase 1: cards ---------------------------------------------------------------------------


def test_a_card_already_taken_cannot_be_taken() -> None:
    state = before(TWO, type="take_card", player="white")  # Ann took card 2 just before
    refused(state, {"type": "take_card", "player": "white", "card": 2}, "Ben", "card 2", "taken")


def test_a_discarded_card_cannot_be_taken() -> None:
    state = before(TWO, type="take_card")  # two players: cards 4 and 5 were discarded
    refused(state, {"type": "take_card", "player": "orange", "card": 4}, "Ann", "discarded")
    refused(state, {"type": "take_card", "player": "orange", "card": 5}, "Ann", "discarded")


def test_a_sixth_card_needs_a_discard() -> None:
    index = position(TWO, type="take_card", discard=1)
    state = replay(record(TWO), upto=index)
    assert len(state.player("white").tableau) == 5
    refused(state, {"type": "take_card", "player": "white", "card": 2}, "Ben", "discard", "5")
    after_sixth = accepted(state, {"type": "take_card", "player": "white", "card": 2, "discard": 5})
    assert after_sixth.player("white").punish == state.player("white").punish + 1
    assert len(after_sixth.player("white").tableau) == 5


def test_no_discard_while_there_is_room() -> None:
    state = before(TWO, type="take_card")
    refused(state, {"type": "take_card", "player": "orange", "card": 2, "discard": 0}, "Ann", "room")


def test_set_up_pick_of_a_card_already_picked() -> None:
    state = after(TWO, type="setup_pick", player="white")  # Ben took card 2
    refused(state, {"type": "setup_pick", "player": "orange", "card": 2}, "Ann", "not on the table")


# --- phase 2: dice ----------------------------------------------------------------------------


def test_two_equal_dice_are_refused() -> None:
    state = before(TWO, type="choose_dice")
    refused(state, {"type": "choose_dice", "player": "orange", "dice": ["red", "red"]}, "Ann", "different", "red")


# --- phase 3: actions -------------------------------------------------------------------------


def test_activation_needs_the_exact_colours() -> None:
    state = before(TWO, type="activate", player="orange")  # supply: 2 red; Dock costs 1 blue
    assert state.player("orange").tableau[1].name == "Dock"
    refused(state, {"type": "activate", "player": "orange", "card": 1}, "Ann", "Dock", "1 blue", "2 red")


def test_activation_of_a_card_not_on_the_tableau() -> None:
    state = before(TWO, type="activate", player="orange")
    refused(state, {"type": "activate", "player": "orange", "card": 7}, "Ann", "no card")


def test_one_quarter_a_round() -> None:
    state = after(TWO, type="take_quarter", player="orange")  # round 3, Ann took tea
    state = apply_action(state, {"type": "adjust", "player": "orange", "gold": 0, "prestige": 1, "note": "test"})
    refused(state, {"type": "take_quarter", "player": "orange", "cost": [], "tile": "rice"}, "cost")
    refused(state, {"type": "take_quarter", "player": "orange", "cost": ["blue"], "tile": "rice"},
            "Ann", "already", "quarter")


def test_quarter_cost_must_be_paid_exactly() -> None:
    state = before(TWO, type="take_quarter", player="orange")  # supply: 2 blue
    refused(state, {"type": "take_quarter", "player": "orange", "cost": ["black", "black"], "tile": "tea"},
            "Ann", "2 black", "2 blue")
    refused(state, {"type": "take_quarter", "player": "orange", "cost": ["blue", "blue", "blue"], "tile": "tea"},
            "Ann", "3 blue")


def test_a_tile_no_longer_on_the_board() -> None:
    state = before(TWO, type="take_quarter", player="orange")
    state.tiles_left["tea"] = 0  # all three tea quarters gone
    refused(state, {"type": "take_quarter", "player": "orange", "cost": ["blue", "blue"], "tile": "tea"},
            "Ann", "tea", "left")
    state.jokers_left = 0
    refused(state, {"type": "take_quarter", "player": "orange", "cost": ["blue", "blue"], "tile": "joker"},
            "Ann", "joker")


def test_wall_costs_2n_minus_1_cubes() -> None:
    state = before(TWO, type="wall", player="white")  # round 3, supply 1 black 2 green
    refused(state, {"type": "wall", "player": "white", "spaces": 1, "pay": ["black", "green"]},
            "Ben", "1 space on the wall", "pay 1 cube", "not 2")
    refused(state, {"type": "wall", "player": "white", "spaces": 2, "pay": ["black", "green"]},
            "Ben", "pay 3 cubes", "2 spaces", "not 2")
    refused(state, {"type": "wall", "player": "white", "spaces": 2, "pay": ["black", "black", "black"]},
            "Ben", "3 black")


def test_one_wall_move_a_round() -> None:
    state = after(TWO, type="wall", player="white")
    refused(state, {"type": "wall", "player": "white", "spaces": 1, "pay": ["green"]}, "Ben", "already", "wall")


def test_no_wall_move_from_the_last_space() -> None:
    state = before(TWO, type="wall", player="white")
    state.wall = [[] for _ in range(16)]
    state.wall[15] = ["white"]
    state.wall[3] = ["orange"]
    refused(state, {"type": "wall", "player": "white", "spaces": 1, "pay": ["green"]}, "Ben", "last space")
    assert not legal_options(state, "white").wall.ok


def test_ship_costs_one_cube_a_space() -> None:
    state = before(TWO, type="ship", player="white")  # supply 2 green
    refused(state, {"type": "ship", "player": "white", "spaces": 2, "pay": ["green"]}, "Ben", "2 for this trip", "not 1")
    refused(state, {"type": "ship", "player": "white", "spaces": 1, "pay": ["red"]}, "Ben", "1 red")


def test_deliver_only_a_good_on_the_ship() -> None:
    state = before(TWO, type="deliver", player="orange")  # tea aboard
    refused(state, {"type": "deliver", "player": "orange", "good": "jade", "prestige": 4}, "Ann", "jade")
    delivered = accepted(state, {"type": "deliver", "player": "orange", "good": "tea", "prestige": 4})
    refused(delivered, {"type": "deliver", "player": "orange", "good": "tea", "prestige": 4}, "Ann", "tea")


def test_buy_prestige_once_a_round() -> None:
    state = after(TWO, type="buy_prestige", player="orange")
    refused(state, {"type": "buy_prestige", "player": "orange"}, "Ann", "already", "prestige")


def test_buy_prestige_needs_the_gold() -> None:
    state = before(TWO, type="deliver", player="orange")  # round 4: price 4, Ann has 0
    assert state.tribute == (4, 6) and state.player("orange").gold == 0
    refused(state, {"type": "buy_prestige", "player": "orange"}, "Ann", "4 gold", "0")


def test_prestige_at_price_zero_with_no_gold() -> None:
    state = before(TWO, type="buy_prestige", player="orange", nth=2)  # round 5
    assert state.tribute == (0, 6) and state.player("orange").gold == 0
    bought = accepted(state, {"type": "buy_prestige", "player": "orange"})
    assert bought.player("orange").prestige == state.player("orange").prestige + 6
    assert bought.player("orange").gold == 0


def test_joker_needs_a_joker() -> None:
    state = before(TWO, type="activate", player="orange")
    refused(state, {"type": "joker", "player": "orange", "take": "gold"}, "Ann", "no joker")


def test_double_joker_needs_the_jester() -> None:
    state = after(TWO, type="take_quarter", player="orange", tile="joker")
    for take in (["red", "gold"], ["red", "blue"], ["gold", "gold"]):
        refused(state, {"type": "joker", "player": "orange", "take": take}, "Ann", "joker", "jester")
    accepted(state, {"type": "joker", "player": "orange", "take": ["red"]})


def test_card_effect_needs_an_activated_card() -> None:
    state = before(TWO, type="activate", player="orange")  # Dock still waits on the tableau
    refused(state, {"type": "card_effect", "player": "orange", "card": "Dock", "gain": {"gold": 1}},
            "Ann", "Dock", "activated")


def test_card_effect_once_a_round_unless_repeatable() -> None:
    state = after(TWO, type="card_effect", player="white")
    refused(state, {"type": "card_effect", "player": "white", "card": "Scribe", "gain": {"gold": 1}},
            "Ben", "Scribe", "already")
    # Eve's Smuggler carries `repeatable`: a third use in the same round is fine.
    smuggled = after("three_players", nth=1, type="card_effect", player="brown")
    accepted(smuggled, {"type": "card_effect", "player": "brown", "card": "Smuggler",
                        "pay": {"gold": 1}, "gain": {"cubes": ["gray"]}})


def test_card_effect_payment_must_be_affordable() -> None:
    state = before(TWO, type="card_effect", player="white")  # Ben has 3 gold and 1 black
    refused(state, {"type": "card_effect", "player": "white", "card": "Scribe", "pay": {"gold": 9}},
            "Ben", "Scribe", "9 gold")
    refused(state, {"type": "card_effect", "player": "white", "card": "Scribe", "pay": {"cubes": ["violet"]}},
            "Ben", "1 violet")
    refused(state, {"type": "card_effect", "player": "white", "card": "Scribe", "pay": {"prestige": 1}},
            "Ben", "Scribe", "prestige")


def test_adjust_never_below_zero() -> None:
    state = before(TWO, type="take_card")  # Ann: 5 gold, 0 prestige, 0 markers
    refused(state, {"type": "adjust", "player": "orange", "gold": -6, "note": "x"}, "Ann", "gold", "0")
    refused(state, {"type": "adjust", "player": "orange", "prestige": -1, "note": "x"}, "Ann", "prestige")
    refused(state, {"type": "adjust", "player": "orange", "punish": -1, "note": "x"}, "Ann", "punish")
    fixed = accepted(state, {"type": "adjust", "player": "white", "gold": -5, "note": "Ben paid a debt"})
    assert fixed.player("white").gold == 0


def test_adjust_needs_a_note() -> None:
    state = before(TWO, type="take_card")
    refused(state, {"type": "adjust", "player": "orange", "gold": 1}, "note")


# --- the end ----------------------------------------------------------------------------------


def test_final_city_group_at_most_the_quarters_taken() -> None:
    state = before(TWO, type="final")
    assert state.player("white").quarters == 1
    refused(state, {"type": "final", "player": "white", "card_points": 0, "city_group": 2}, "Ben", "1", "2")


def test_final_city_group_at_least_one_with_quarters() -> None:
    state = before(TWO, type="final")
    refused(state, {"type": "final", "player": "white", "card_points": 0, "city_group": 0}, "Ben", "at least 1")


def test_final_only_once_per_player() -> None:
    state = after(TWO, type="final", player="white")
    refused(state, {"type": "final", "player": "white", "card_points": 0, "city_group": 1}, "Ben", "already")


def test_final_only_after_round_twelve() -> None:
    state = before(TWO, type="end_turn", nth=23)  # Ann's last turn of round 12 is not over
    assert state.round == 12
    refused(state, {"type": "final", "player": "white", "card_points": 0, "city_group": 1}, "Ben", "cannot")


def test_no_actions_after_the_end() -> None:
    state = replay(record(TWO))
    assert state.phase == "over"
    refused(state, {"type": "final", "player": "orange", "card_points": 1, "city_group": 1}, "Ann", "end of the game")
    refused(state, {"type": "buy_prestige", "player": "white"}, "Ben", "end of the game")
    refused(state, {"type": "end_turn", "player": "orange"}, "Ann", "end of the game")
    dummy = {"name": "X", "kind": "office", "cost": ["red"], "tribute": [0, 0]}
    refused(state, {"type": "reveal", "office": [dummy, dummy], "cards": [dict(dummy, kind="person")] * 4},
            "end of the game")


# --- whole records ----------------------------------------------------------------------------


def test_a_broken_record_names_the_action_index_type_and_player() -> None:
    rec = record(TWO)
    index = position(TWO, type="buy_prestige", player="orange")
    rec.actions.insert(index + 1, {"type": "buy_prestige", "player": "orange"})
    with pytest.raises(RulesError) as info:
        replay(rec)
    assert info.value.action_index == index + 1
    text = str(info.value)
    assert text.startswith(f"action {index + 1} (buy_prestige, Ann/orange)")
    assert "already" in text


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["players"][0].update(colour="purple"), "players[0].colour"),
        (lambda d: d.update(format="macao-record/9"), "format"),
        (lambda d: d.update(wall=["orange"]), "wall"),
    ],
)
def test_a_malformed_document_says_where(change: Any, where: str) -> None:
    doc = record(TWO).to_json()
    change(doc)
    with pytest.raises(RecordError) as info:
        load_record(json.dumps(doc))
    assert str(info.value).startswith(where)


@pytest.mark.parametrize(
    ("change", "head", "problem"),
    [
        (lambda a: a["dice"].update(red=7), "action 8 (roll): ", "dice.red: expected a number from 1 to 6, found 7"),
        (lambda a: a["dice"].pop("violet"), "action 8 (roll): ", "dice: missing the violet die"),
        (lambda a: a.pop("card"), "action 11 (activate, Ann/orange): ", "missing field 'card'"),
        (lambda a: a.update(player="purple"), "action 11 (activate, purple): ", "player: expected a player colour (orange, white, yellow, brown), found 'purple'"),
        (lambda a: a.update(type="fly"), "action 11 (Ann/orange): ", "type: unknown action type 'fly'"),
    ],
)
def test_a_malformed_action_is_reported_where_the_replay_reaches_it(change: Any, head: str, problem: str) -> None:
    doc = record(TWO).to_json()
    index = int(head.split()[1])
    change(doc["actions"][index])
    rec = load_record(json.dumps(doc))  # the document around the actions is fine
    with pytest.raises(RulesError) as info:
        replay(rec)
    assert info.value.action_index == index
    assert str(info.value).startswith(head) and str(info.value).endswith(problem)


def test_an_action_that_is_not_an_object() -> None:
    doc = record(TWO).to_json()
    doc["actions"][3] = 17
    rec = load_record(json.dumps(doc))
    with pytest.raises(RulesError, match=r"^action 3: .*expected an object, found 17$"):
        replay(rec)


def test_a_malformed_late_action_does_not_hide_an_illegal_earlier_one() -> None:
    doc = record(TWO).to_json()
    early = position(TWO, type="buy_prestige", player="orange")
    doc["actions"].insert(early + 1, {"type": "buy_prestige", "player": "orange"})  # a second purchase
    doc["actions"][-1]["card_points"] = "lots"  # and a broken final entry at the very end
    with pytest.raises(RulesError) as info:
        replay(load_record(json.dumps(doc)))
    assert info.value.action_index == early + 1 and "already" in str(info.value)


def test_many_cubes_gained_by_a_card_then_paid_for_a_long_wall_move() -> None:
    state = before(TWO, type="card_effect", player="white")  # Ben may use Scribe in his own turn
    gained = accepted(state, {"type": "card_effect", "player": "white", "card": "Scribe",
                              "gain": {"cubes": ["red"] * 25}, "note": "a generous card"})
    space = gained.wall_position("white")[0]
    moved = accepted(gained, {"type": "wall", "player": "white", "spaces": 13, "pay": ["red"] * 25})
    assert moved.wall_position("white")[0] == min(space + 13, 15)


def test_a_quarter_may_cost_more_than_six_cubes() -> None:
    state = before(TWO, type="card_effect", player="white")
    rich = accepted(state, {"type": "card_effect", "player": "white", "card": "Scribe", "gain": {"cubes": ["red"] * 8}})
    taken = accepted(rich, {"type": "take_quarter", "player": "white", "cost": ["red"] * 7, "tile": "rice"})
    assert taken.player("white").quarters == rich.player("white").quarters + 1


def test_text_that_is_not_json_says_where() -> None:
    with pytest.raises(RecordError) as info:
        load_record('{"format": "macao-record/1", "players": [')
    assert "line 1" in str(info.value)


# --- rules the record spec added: quarters by id, deliveries, game-end points ------------------------


def test_a_quarter_id_is_taken_once_a_game() -> None:
    state = before(TWO, type="take_quarter", player="orange")  # round 3, Ann's supply: 2 blue
    taken = accepted(state, {"type": "take_quarter", "player": "orange", "cost": ["blue"], "tile": "tea",
                             "quarter": 7})
    assert taken.quarter_ids == {"7"}
    taken.player("orange").used.discard("take_quarter")  # as if a later round
    refused(taken, {"type": "take_quarter", "player": "orange", "cost": ["blue"], "tile": "rice", "quarter": "7"},
            "quarter 7", "already")
    accepted(taken, {"type": "take_quarter", "player": "orange", "cost": ["blue"], "tile": "rice", "quarter": 8})
    accepted(taken, {"type": "take_quarter", "player": "orange", "cost": ["blue"], "tile": "rice"})


def test_a_ship_that_never_sailed_cannot_deliver() -> None:
    state = before(TWO, type="deliver", player="orange")  # tea aboard
    state.player("orange").ship_moves = 0
    refused(state, {"type": "deliver", "player": "orange", "good": "tea", "prestige": 4}, "Ann", "not sailed")
    assert legal_options(state, "orange").deliver == []


def test_a_delivery_names_the_port_the_ship_last_sailed_to() -> None:
    state = before(TWO, type="deliver", player="orange")  # the ship's last move went to Lisbon
    assert state.player("orange").ship_place == "Lisbon"
    refused(state, {"type": "deliver", "player": "orange", "good": "tea", "prestige": 4, "port": "Seville"},
            "Ann", "Lisbon", "Seville")
    accepted(state, {"type": "deliver", "player": "orange", "good": "tea", "prestige": 4, "port": "Lisbon"})
    accepted(state, {"type": "deliver", "player": "orange", "good": "tea", "prestige": 4})
    state.player("orange").windrose[0] = {"red": 1}
    sailed_on = accepted(state, {"type": "ship", "player": "orange", "spaces": 1, "pay": ["red"]})
    assert sailed_on.player("orange").ship_place is None  # the last move did not say where
    accepted(sailed_on, {"type": "deliver", "player": "orange", "good": "tea", "prestige": 4, "port": "Seville"})


def test_a_port_wants_one_good_all_game() -> None:
    state = before(TWO, nth=1, type="deliver", player="orange")  # silk for Seville; Lisbon took tea earlier
    assert state.port_goods == {"Lisbon": "tea"}
    state.player("orange").ship_place = None
    refused(state, {"type": "deliver", "player": "orange", "good": "silk", "prestige": 5, "port": "Lisbon"},
            "Lisbon", "tea", "silk")
    delivered = accepted(state, {"type": "deliver", "player": "orange", "good": "silk", "prestige": 5, "port": "Seville"})
    assert delivered.port_goods == {"Lisbon": "tea", "Seville": "silk"}


def test_game_end_card_points_need_an_activated_card() -> None:
    state = before(TWO, type="final")
    state.player("white").activated = []
    refused(state, {"type": "final", "player": "white", "card_points": 3, "city_group": 1},
            "Ben", "activated no card", "correction")
    accepted(state, {"type": "final", "player": "white", "card_points": 0, "city_group": 1})

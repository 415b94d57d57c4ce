"""The tap savers, driven by taps: each completes an entry in fewer taps and keeps it visible.

Seeds and action counts pick states from the rules core's seeded random games
(tests/ui/conftest.py Table) where each saver applies.
"""

from __future__ import annotations

from typing import Any

from app.dice_service import DiceStatus, RollState
from app.ui.widgets import DieWidget
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness
from vision.types import DiceReading, DieReading


def _panel(ui: UiHarness) -> Any:
    return ui.app.manager.get_screen("game").current_panel()


def _at_action(ui: UiHarness, seed: int, count: int) -> Table:
    """The seeded game just before its action number `count` (0-based), on the game screen."""
    table = Table(ui, seed=seed)
    table.advance(lambda _s: len(table.random.actions) == count)
    return table


def _known(ui: UiHarness) -> list[tuple[str, str]]:
    return sorted(w.tag[1:] for w in ui.walk() if isinstance(getattr(w, "tag", None), tuple) and w.tag[0] == "known")


# -- cards ---------------------------------------------------------------------------------------

def test_undo_of_the_reveal_shows_the_cards_again_to_correct(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal" and s.round == 2)
    table.random.step()
    reveal = table.random.actions[-1]
    cards = list(reveal["office"]) + list(reveal["cards"])
    for place, card in enumerate(cards, start=1):  # the names the form gives cards typed without one
        card["name"] = f"{card['kind'].title()} 2.{place}"
    reveal["cards"][0]["name"] = "Harbour"  # one card the players named
    ui.app.session.act(reveal)
    ui.app.refresh()
    ui.idle()
    ui.tap_text("Undo")
    panel = _panel(ui)
    assert [(s.kind, s.cost, [s.gold, s.prestige]) for s in panel.slots] == \
        [(c["kind"], c["cost"], c["tribute"]) for c in cards]
    assert [s.name for s in panel.slots] == ["", "", "Harbour", "", "", ""]
    ui.tap_text("Cards are right")
    assert ui.app.session.actions[-1] == reveal
    assert [c["name"] for c in ui.app.context.catalogue.cards()] == ["Harbour"]


def test_a_new_round_starts_with_an_empty_card_form(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal" and s.round == 2)
    assert not any(s.cost or s.tribute_tapped for s in _panel(ui).slots)


def test_cost_cubes_narrow_the_known_cards_and_a_pick_moves_on(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal")
    catalogue = ui.app.context.catalogue
    catalogue.learn([
        {"name": "Harbour", "kind": "building", "cost": ["red", "blue"], "tribute": [1, 2]},
        {"name": "Dock", "kind": "building", "cost": ["green"], "tribute": [0, 1]},
        {"name": "Envoy", "kind": "person", "cost": ["red", "red"], "tribute": [2, 0]},
        {"name": "Tower", "kind": "office", "cost": ["red"], "tribute": [2, 2]},
    ])
    ui.app.refresh()
    ui.idle()
    assert _known(ui) == [("office", "Tower")]  # slot 0 is an office: offices only
    ui.tap(ui.tagged("slot", 2))
    assert _known(ui) == [("building", "Dock"), ("building", "Harbour"), ("person", "Envoy")]
    ui.tap(ui.tagged("cube", "red"))
    assert _known(ui) == [("building", "Harbour"), ("person", "Envoy")]
    assert "Known cards with these cubes: 2" in ui.labels()
    ui.tap(ui.tagged("cube", "blue"))
    assert _known(ui) == [("building", "Harbour")]
    ui.tap(ui.tagged("known", "building", "Harbour"))
    panel = _panel(ui)
    slot = panel.slots[2]
    assert (slot.name, slot.cost, slot.gold, slot.prestige) == ("Harbour", ["red", "blue"], 1, 2)
    assert panel.selected == 3  # on to the next open slot
    assert "Harbour" in ui.labels()  # the slot shows what was filled in


def test_a_known_card_changed_by_hand_is_not_remembered_under_its_name(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal")
    catalogue = ui.app.context.catalogue
    catalogue.learn([{"name": "Harbour", "kind": "building", "cost": ["red", "blue"], "tribute": [1, 2]}])
    ui.app.refresh()
    ui.idle()
    ui.tap(ui.tagged("slot", 2))
    ui.tap(ui.tagged("known", "building", "Harbour"))
    ui.tap(ui.tagged("slot", 2))
    ui.tap(ui.tagged("tribute", 1, 2))  # the same tribute again: still the known card
    assert _panel(ui).slots[2].name == "Harbour"
    ui.tap(ui.tagged("slot", 2))
    ui.tap(ui.tagged("tribute", 0, 0))  # the printed tribute differs: this is some other card
    assert _panel(ui).slots[2].name == ""
    for index in (0, 1, 3, 4, 5):
        if _panel(ui).selected != index:
            ui.tap(ui.tagged("slot", index))
        ui.tap(ui.tagged("cube", "gray"))
        ui.tap(ui.tagged("tribute", 1, 1))
    ui.tap_text("Cards are right")
    assert ui.app.session.actions[-1]["type"] == "reveal"
    assert catalogue.cards(["building"]) == [
        {"name": "Harbour", "kind": "building", "cost": ["red", "blue"], "tribute": [1, 2]}]


def test_typing_a_cube_over_a_known_card_starts_the_card_afresh(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal")
    ui.app.context.catalogue.learn([{"name": "Envoy", "kind": "person", "cost": ["red"], "tribute": [2, 0]}])
    ui.app.refresh()
    ui.idle()
    ui.tap(ui.tagged("slot", 2))
    ui.tap(ui.tagged("known", "person", "Envoy"))
    ui.tap(ui.tagged("slot", 2))
    ui.tap(ui.tagged("cube", "green"))
    slot = _panel(ui).slots[2]
    assert (slot.name, slot.kind, slot.cost, slot.tribute_tapped) == ("", "building", ["green"], False)
    assert "tribute?" in ui.labels()


# -- actions -------------------------------------------------------------------------------------

def test_the_cube_that_completes_the_payment_sends_the_wall(ui: UiHarness) -> None:
    _at_action(ui, seed=5, count=11)  # orange holds a green and a red cube: two ways to pay
    who = ui.app.session.state.turn
    ui.tap(ui.tagged("action", "wall"))
    assert _panel(ui).pay == [] and ui.tagged("confirm", True).disabled
    before = len(ui.app.session.actions)
    ui.tap(ui.tagged("cube", "green"))
    assert len(ui.app.session.actions) == before + 1
    assert ui.app.session.actions[-1] == {"type": "wall", "player": who, "spaces": 1, "pay": ["green"]}


def test_the_only_possible_payment_is_filled_in_to_confirm(ui: UiHarness) -> None:
    _at_action(ui, seed=3, count=32)  # white holds three gray cubes, may go 2 spaces on the wall
    ui.tap(ui.tagged("action", "wall"))
    assert _panel(ui).pay == ["gray"]  # 1 space: 1 cube, and every cube is gray
    ui.tap(ui.tagged("spaces", 2))
    assert _panel(ui).pay == ["gray"] * 3
    assert "Pay 3 cubes: tap the colours (3 chosen)" in ui.labels()
    ui.tap(ui.tagged("confirm", True))
    action = ui.app.session.actions[-1]
    assert (action["type"], action["spaces"], action["pay"]) == ("wall", 2, ["gray"] * 3)


def test_a_payment_of_the_whole_supply_is_filled_in_only_when_the_core_asks_that_much(ui: UiHarness) -> None:
    _at_action(ui, seed=1, count=25)  # white holds a blue and a green cube
    ui.tap(ui.tagged("action", "ship"))
    assert _panel(ui).pay == []  # 1 space costs 1 cube: blue or green, the player's choice
    ui.tap(ui.tagged("spaces", 2))
    assert sorted(_panel(ui).pay) == ["blue", "green"]
    ui.tap(ui.tagged("confirm", True))
    assert ui.app.session.actions[-1]["spaces"] == 2


def test_the_quarter_goes_with_its_tile_after_the_cost(ui: UiHarness) -> None:
    _at_action(ui, seed=5, count=11)
    who = ui.app.session.state.turn
    ui.tap(ui.tagged("action", "take_quarter"))
    ui.tap(ui.tagged("cube", "red"))
    assert _panel(ui).cost == ["red"] and ui.tagged("paid", 0)  # the printed cube shows in the tray
    ui.tap(ui.tagged("tile", "tea"))
    assert ui.app.session.actions[-1] == {"type": "take_quarter", "player": who, "cost": ["red"], "tile": "tea"}


def test_a_delivery_with_one_good_on_board_goes_with_the_ports_prestige(ui: UiHarness) -> None:
    _at_action(ui, seed=1, count=25)  # white's ship has sailed and carries silk only
    who = ui.app.session.state.turn
    ui.tap(ui.tagged("action", "deliver"))
    assert _panel(ui).good == "silk"
    ui.tap(ui.tagged("value", 4))
    assert ui.app.session.actions[-1] == {"type": "deliver", "player": who, "good": "silk", "prestige": 4}


def test_a_joker_goes_with_its_one_pick(ui: UiHarness) -> None:
    _at_action(ui, seed=7, count=16)  # orange has a joker, no Jester
    who = ui.app.session.state.turn
    ui.tap(ui.tagged("action", "joker"))
    ui.tap(ui.tagged("cube", "gold"))
    assert ui.app.session.actions[-1] == {"type": "joker", "player": who, "take": ["gold"]}


# -- dice and game end -----------------------------------------------------------------------------

def test_dice_corrections_move_on_from_die_to_die(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "roll")
    panel = _panel(ui)
    read = {"red": 3, "blue": 5, "green": 1, "black": 6, "gray": 2, "violet": 4}
    dice = tuple(DieReading(40 * i, 40, 30, 30, colour, value, 0.95, False)
                 for i, (colour, value) in enumerate(read.items()))
    panel.take_proposal(DiceStatus(RollState.PROPOSED, "Dice read: check them, then confirm", {}, DiceReading(dice)))
    ui.app.refresh()
    ui.idle()
    assert panel.selected is None  # every die read and sure: nothing is picked for the player
    ui.tap(ui.tagged("correct", "dice"))  # a sure proposal is shown to choose from; corrections on request
    ui.tap(next(d for d in ui.find(DieWidget) if d.colour == "blue"))
    for pips in (2, 2, 2):  # blue, then green and black without tapping them
        ui.tap(ui.tagged("pips", pips))
    assert panel.values == {**read, "blue": 2, "green": 2, "black": 2}
    assert panel.selected == "gray"
    ui.tap_text("Dice are right")
    assert ui.app.session.state.dice["black"] == 2


def test_the_first_die_chosen_from_a_sure_proposal_accepts_the_roll(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "roll")
    panel = _panel(ui)
    read = {"red": 3, "blue": 5, "green": 1, "black": 6, "gray": 2, "violet": 4}
    dice = tuple(DieReading(40 * i, 40, 30, 30, colour, value, 0.95, False)
                 for i, (colour, value) in enumerate(read.items()))
    panel.take_proposal(DiceStatus(RollState.PROPOSED, "Dice read: check them, then confirm", {}, DiceReading(dice)))
    ui.app.refresh()
    ui.idle()
    assert "Dice are right" not in ui.labels() and ui.find(DieWidget) and not ui.find(object, tag=("pips", 1))
    first = ui.app.session.state.turn_order()[0]  # who chooses first
    actions = len(ui.app.session.actions)
    ui.tap(next(d for d in ui.find(DieWidget) if d.colour == "blue"))
    assert ui.app.session.actions[actions:] == [{"type": "roll", "dice": read}]
    assert _panel(ui).first == "blue"  # the tap also chose the first player's first die
    ui.tap(next(d for d in ui.find(DieWidget) if d.colour == "red"))
    assert ui.app.session.actions[-1] == {"type": "choose_dice", "player": first, "dice": ["blue", "red"]}


def test_an_unsure_die_opens_the_corrections_at_once(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "roll")
    panel = _panel(ui)
    dice = tuple(DieReading(40 * i, 40, 30, 30, colour, 3, 0.95, colour == "gray")
                 for i, colour in enumerate(("red", "blue", "green", "black", "gray", "violet")))
    panel.take_proposal(DiceStatus(RollState.PROPOSED, "Dice read: check them, then confirm", {}, DiceReading(dice)))
    ui.app.refresh()
    ui.idle()
    assert panel.selected == "gray" and ui.tagged("pips", 3) and not ui.find(object, tag=("correct", "dice"))
    ui.tap(ui.tagged("pips", 3))  # corrected: every die sure now, and still the corrections to confirm
    ui.tap_text("Dice are right")
    assert ui.app.session.actions[-1]["type"] == "roll"


def test_game_end_numbers_in_one_tap_each(ui: UiHarness) -> None:
    table = Table(ui, seed=6)  # both players activated cards (game-end points need one); the first took 3+ quarters
    table.advance(lambda s: s.phase == "final")
    first, second = (p.colour for p in ui.app.session.state.players)
    ui.tap(ui.tagged("final", 7))  # card points, then the city group lights up
    ui.tap(ui.tagged("final", 3))
    ui.tap(ui.tagged("save", first))
    assert ui.app.session.actions[-1] == {"type": "final", "player": first, "card_points": 7, "city_group": 3}
    for _ in range(3):  # beyond the pad: 19, 20, 21
        ui.tap(ui.tagged("final", "more"))
    assert ui.tagged("final", "more").text == "21+"
    ui.tap(ui.tagged(f"{second}:city_group", "field"))
    ui.tap(ui.tagged("final", 1))
    ui.tap(ui.tagged("save", second))
    assert ui.app.session.actions[-1] == {"type": "final", "player": second, "card_points": 21, "city_group": 1}



def test_saving_one_players_scores_keeps_what_another_has_typed(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "final")
    first, second = (p.colour for p in ui.app.session.state.players)
    ui.tap(ui.tagged(f"{second}:card_points", "field"))
    ui.tap(ui.tagged("final", 9))
    ui.tap(ui.tagged("final", 1))
    ui.tap(ui.tagged(f"{first}:card_points", "field"))
    ui.tap(ui.tagged("final", 5))
    ui.tap(ui.tagged("final", 0))
    ui.tap(ui.tagged("save", first))
    assert ui.tagged(f"{second}:card_points", "field").text == "9"
    assert ui.tagged(f"{second}:city_group", "field").text == "1"
    ui.tap(ui.tagged("save", second))
    assert ui.app.session.actions[-1] == {"type": "final", "player": second, "card_points": 9, "city_group": 1}

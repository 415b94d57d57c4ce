"""The Macao action area by taps: the paying tray, a quarter's cost beyond six cubes, Abbot and
Jester said at activation, and the game end offering card points only where the rules core
allows them.

States come from the rules core's seeded random games (tests/ui/conftest.py Table).
"""

from __future__ import annotations

from typing import Any

from app.games.macao import CUBE_COLOURS, cubes
from app.games.macao.simulate import RandomTable
from app.ui import theme
from app.ui.macao.card_tile import card_title
from app.ui.widgets import CubeWidget
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness


def _panel(ui: UiHarness) -> Any:
    return ui.app.manager.get_screen("game").current_panel()


def _at_action(ui: UiHarness, seed: int, count: int) -> Table:
    """The seeded game just before its action number `count` (0-based), on the game screen."""
    table = Table(ui, seed=seed)
    table.advance(lambda _s: len(table.random.actions) == count)
    return table


def _tray(ui: UiHarness) -> list[str]:
    """The colours of the swatches in the paying tray, left to right, read from their fill."""
    colour_of = {tuple(theme.cube_colour(c)): c for c in CUBE_COLOURS}
    paid = [w for w in ui.walk() if isinstance(getattr(w, "tag", None), tuple) and w.tag[0] == "paid"]
    return [colour_of[tuple(w.background_color)] for w in sorted(paid, key=lambda w: w.x)]


def test_cubes_move_from_the_supply_into_the_tray_and_back(ui: UiHarness) -> None:
    _at_action(ui, seed=1, count=56)  # white's supply: 5 gray, 4 black
    ui.tap(ui.tagged("action", "take_quarter"))
    assert ui.tagged("cube", "gray").text == "5" and ui.tagged("cube", "red").disabled
    for colour in ("gray", "black", "gray"):
        ui.tap(ui.tagged("cube", colour))
    assert _tray(ui) == ["gray", "black", "gray"]  # what is chosen is what is shown
    assert ui.tagged("cube", "gray").text == "3"  # what is left in the supply
    ui.tap(ui.tagged("paid", 1))  # the black cube goes back
    assert _tray(ui) == ["gray", "gray"]
    assert ui.tagged("cube", "black").text == "4"
    assert [w.tag for w in ui.walk() if getattr(w, "tag", None) == ("paid", 2)] == []


def test_a_quarter_may_cost_more_than_six_cubes(ui: UiHarness) -> None:
    _at_action(ui, seed=1, count=56)  # white's supply: 5 gray, 4 black
    who = ui.app.session.state.turn
    ui.tap(ui.tagged("action", "take_quarter"))
    cost = ["gray"] * 5 + ["black"] * 2
    for colour in cost:
        ui.tap(ui.tagged("cube", colour))
    assert _tray(ui) == cost
    ui.tap(ui.tagged("tile", "tea"))
    assert ui.app.session.actions[-1] == {"type": "take_quarter", "player": who, "cost": cost, "tile": "tea"}
    assert cubes.total(ui.app.session.state.player(who).supply) == 2


def test_a_cube_the_supply_has_run_out_of_cannot_go_into_the_tray(ui: UiHarness) -> None:
    _at_action(ui, seed=1, count=56)
    ui.tap(ui.tagged("action", "take_quarter"))
    for _ in range(4):
        ui.tap(ui.tagged("cube", "black"))
    assert ui.tagged("cube", "black").disabled
    ui.tap(ui.tagged("cube", "black"))
    assert _tray(ui) == ["black"] * 4


def test_the_game_end_offers_no_card_points_to_a_player_without_an_activated_card(ui: UiHarness) -> None:
    table = Table(ui, seed=7)  # white activated no card in this game
    table.advance(lambda s: s.phase == "final")
    state = ui.app.session.state
    white = state.player("white")
    assert not white.activated
    field = ui.tagged("white:card_points", "field")
    assert getattr(field, "blocked_reason", "") == \
        f"{white.name} activated no card, so there are no game-end card points."
    other = next(p for p in state.players if p.colour != "white")
    assert other.activated and not hasattr(ui.tagged(f"{other.colour}:card_points", "field"), "blocked_reason")
    ui.tap(field)  # the greyed field says why and lights nothing
    assert ui.app.notice.level == "error" and white.name in ui.app.notice.text
    ui.tap(ui.tagged("white:city_group", "field"))
    ui.tap(ui.tagged("final", white.quarters))
    ui.tap(ui.tagged("save", "white"))
    assert ui.app.session.actions[-1] == {"type": "final", "player": "white", "card_points": 0,
                                          "city_group": white.quarters}


def _tribute_game(ui: UiHarness, until: Any) -> RandomTable:
    """A seeded game whose cards were revealed by tribute only (cost unknown), fed to the session."""
    ui.app.context.settings.check_costs = False
    table = RandomTable(2, players=2, activity=0.7, unknown_costs=1.0)
    ui.app.session.new_game("macao", {"started": "2026-11-29T19:30:00+01:00", "players": table.players,
                                      "wall": list(table.wall)})
    while not until(table.state):
        table.step()
        ui.app.session.act(table.actions[-1])
    ui.app.go("game")
    ui.idle()
    return table


def _unknown_card_to_activate(state: Any) -> bool:
    if state.phase != "actions":
        return False
    player = state.player(state.turn)
    return any(card.cost is None and not card.effects for card in player.tableau) and bool(player.supply)


def test_abbot_and_jester_are_said_on_the_activation_form(ui: UiHarness) -> None:
    table = _tribute_game(ui, _unknown_card_to_activate)
    who = table.state.turn
    player = table.state.player(who)
    index = next(i for i, card in enumerate(player.tableau) if card.cost is None and not card.effects)
    colour = next(iter(player.supply))
    ui.tap(ui.tagged("activate", index))
    ui.tap(ui.tagged("activation_effect", "no_tableau_penalty"))
    assert ui.tagged("activation_effect", "no_tableau_penalty").role == "selected"
    ui.tap(ui.tagged("activation_effect", "double_jokers"))
    ui.tap(ui.tagged("activation_effect", "double_jokers"))  # a second tap takes it back
    ui.tap(ui.tagged("cube", colour))
    if _panel(ui).form == "activate":  # the payment could still grow: it waits for Confirm
        ui.tap(ui.tagged("confirm", True))
    assert ui.app.session.actions[-1] == {"type": "activate", "player": who, "card": index, "pay": [colour],
                                          "effects": ["no_tableau_penalty"]}
    assert ui.app.session.state.player(who).activated[-1].effects == ("no_tableau_penalty",)


def test_the_reveal_by_tribute_does_not_ask_for_abbot_or_jester(ui: UiHarness) -> None:
    _tribute_game(ui, lambda s: s.phase == "reveal" and s.round == 2)
    assert [w for w in ui.walk() if getattr(w, "tag", None) in (("effect", "no_tableau_penalty"),
                                                                   ("effect", "double_jokers"))] == []
    ui.tap(ui.tagged("slot", 2))  # a building or person (an office names no effect)
    ui.tap(ui.tagged("cube", "red"))  # a cost typed after all: the activation will be one tap, so ask now
    assert ui.tagged("effect", "no_tableau_penalty")


def _cells(ui: UiHarness) -> dict[str, tuple[float, float, float, float]]:
    """Where each standard action's cell is on screen."""
    kinds = ("take_quarter", "wall", "ship", "deliver", "buy_prestige", "joker", "end_turn")
    return {kind: tuple(ui.tagged("action", kind).to_window(*ui.tagged("action", kind).pos))
            + tuple(ui.tagged("action", kind).size) for kind in kinds}


def test_the_standard_actions_keep_their_cells_from_turn_to_turn(ui: UiHarness) -> None:
    table = _at_action(ui, seed=5, count=11)
    first = _cells(ui)
    seen = {len(ui.app.session.state.player(ui.app.session.state.turn).tableau)}
    for _ in range(40):  # on through other players' turns and rounds, with other tableaux
        table.advance(lambda s, n=len(table.random.actions): len(table.random.actions) > n and s.phase == "actions")
        assert _cells(ui) == first
        seen.add(len(ui.app.session.state.player(ui.app.session.state.turn).tableau))
    assert len(seen) > 1  # the cards to activate changed under the fixed cells


def test_a_delivery_that_cannot_be_made_is_greyed_with_the_reason(ui: UiHarness) -> None:
    _at_action(ui, seed=5, count=11)
    who = ui.app.session.state.player(ui.app.session.state.turn)
    cell = ui.tagged("action", "deliver")
    assert who.name in cell.blocked_reason and "ship" in cell.blocked_reason
    ui.tap(cell)
    assert ui.app.notice.text == cell.blocked_reason


def test_a_card_cell_shows_its_cost_as_cube_swatches(ui: UiHarness) -> None:
    _at_action(ui, seed=5, count=11)
    who = ui.app.session.state.turn
    for option in ui.app.session.options(who).activate:
        cell = ui.tagged("activate", option.index)
        swatches = sorted(w.colour for w in cell.walk(restrict=True) if isinstance(w, CubeWidget))
        assert swatches == sorted(c for c, n in option.cost.items() for _ in range(n))
        assert option.name in [getattr(w, "text", None) for w in cell.walk(restrict=True)]


def test_a_card_the_table_did_not_name_is_called_by_its_round() -> None:
    assert card_title("Office 3.1") == "card from round 3"
    assert card_title("Person 0.4") == "starting card"
    assert card_title("Harbour") == "Harbour"
    assert card_title("Office 3.1 (promo)") == "Office 3.1 (promo)"


def test_confirm_end_turn_sends_the_form_and_ends_the_turn(ui: UiHarness) -> None:
    _at_action(ui, seed=3, count=32)  # white holds three gray cubes: the wall's payment is filled in
    who = ui.app.session.state.turn
    before = len(ui.app.session.actions)
    ui.tap(ui.tagged("action", "wall"))
    ui.tap(ui.tagged("confirm", "end_turn"))
    assert [a["type"] for a in ui.app.session.actions[before:]] == ["wall", "end_turn"]
    assert ui.app.session.actions[-1] == {"type": "end_turn", "player": who}


def _one_cube_left(state: Any) -> bool:
    return _unknown_card_to_activate(state) and cubes.total(state.player(state.turn).supply) == 1


def test_a_payment_that_cannot_grow_activates_the_card_at_once(ui: UiHarness) -> None:
    table = _tribute_game(ui, _one_cube_left)
    who = table.state.turn
    player = table.state.player(who)
    index = next(i for i, card in enumerate(player.tableau) if card.cost is None and not card.effects)
    colour = next(iter(player.supply))
    ui.tap(ui.tagged("activate", index))
    ui.tap(ui.tagged("cube", colour))  # the supply's last cube: nothing could be added
    assert ui.app.session.actions[-1] == {"type": "activate", "player": who, "card": index, "pay": [colour]}


def test_a_payment_that_could_grow_waits_for_confirm(ui: UiHarness) -> None:
    table = _tribute_game(ui, lambda s: _unknown_card_to_activate(s) and max(s.player(s.turn).supply.values()) >= 2)
    player = table.state.player(table.state.turn)
    index = next(i for i, card in enumerate(player.tableau) if card.cost is None and not card.effects)
    actions = len(ui.app.session.actions)
    ui.tap(ui.tagged("activate", index))
    colour = max(player.supply, key=lambda c: player.supply[c])
    ui.tap(ui.tagged("cube", colour))
    assert len(ui.app.session.actions) == actions and not ui.tagged("confirm", True).disabled

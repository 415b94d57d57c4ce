"""What the table sees after each tap and before a costly choice: the last step's line under
Undo, and the punish-marker warning while choosing dice (the rules core's hint, shown)."""

from __future__ import annotations

from app.games.macao import waiting_for
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness


def _at_action(ui: UiHarness, seed: int, count: int) -> Table:
    table = Table(ui, seed=seed)
    table.advance(lambda _s: len(table.random.actions) == count)
    return table


def test_an_empty_sector_1_with_no_die_counting_1_warns_of_the_punish_marker(ui: UiHarness) -> None:
    table = _at_action(ui, seed=5, count=31)  # a player's sector 1 is empty; no die shows 1
    state = table.random.state
    who = state.turn
    assert state.phase == "choose_dice" and not state.player(who).windrose[1] and 1 not in state.dice.values()
    name = state.player(who).name
    warning = f"{name}: sector 1 is empty and no die counts 1: a punish marker comes when the roses turn."
    assert warning in ui.labels()
    punish = state.player(who).punish
    while table.random.state.phase == "choose_dice":  # the core then does what the warning said
        table.random.step()
    assert table.random.state.player(who).punish == punish + 1


def test_with_a_die_counting_1_the_warning_says_which_choice_avoids_it(ui: UiHarness) -> None:
    table = _at_action(ui, seed=5, count=40)
    name = table.random.state.player(table.random.state.turn).name
    assert f"{name}: sector 1 is empty: take a die counting 1 or get a punish marker." in ui.labels()


def test_no_warning_when_sector_1_holds_cubes(ui: UiHarness) -> None:
    table = Table(ui, seed=5)
    table.advance(lambda s: s.phase == "choose_dice" and bool(s.player(s.turn).windrose[1]))
    assert waiting_for(table.random.state).hints == ()
    assert not [text for text in ui.labels() if "punish marker" in text]


def test_each_action_is_named_under_undo_and_undo_says_what_it_took_back(ui: UiHarness) -> None:
    table = Table(ui, seed=5)
    table.advance(lambda s: s.phase == "actions")
    who = table.random.state.turn
    name = table.random.state.player(who).name
    ui.tap(ui.tagged("action", "end_turn"))
    line = next(text for text in ui.labels() if text.startswith(name) and "turn" in text)
    ui.tap_text("Undo")
    assert f"Undo: {line}" in ui.labels()


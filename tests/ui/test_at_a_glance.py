"""Macao at a glance: the wall strip, panels that keep their seats, the live total, the player sheet
and the round's summary (shown once when a round ends, again from the round bar, one tap to close)."""

from __future__ import annotations

from collections.abc import Iterator
import pytest
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from app.games.macao import score_if_ended_now
from app.ui.macao.players import _player_cell
from app.ui.macao.round_summary import round_to_show, summarise_round
from app.ui.macao.wall_strip import Disc, WallStrip
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness


@pytest.fixture(autouse=True)
def no_modal_left() -> Iterator[None]:
    """The window outlives each test's app: a modal a failed test left open must not cover the next."""
    yield
    for modal in open_modals():
        modal.dismiss(animation=False)


def open_modals() -> list[ModalView]:
    return [child for child in Window.children if isinstance(child, ModalView)]


def modal_walk(ui: UiHarness) -> Iterator[Widget]:
    """The widgets of the open modal, laid out as the harness lays out the screen."""
    (modal,) = open_modals()
    for _round in range(3):
        for widget in modal.walk():
            if isinstance(widget, Layout):
                widget.do_layout()
    ui.idle()
    return modal.walk()


def modal_texts(ui: UiHarness) -> list[str]:
    return [w.text for w in modal_walk(ui) if isinstance(w, Label) and w.text]


def panel_of(ui: UiHarness, colour: str) -> Widget:
    (cell,) = [w for w in ui.walk() if getattr(w, "sheet_of", None) == colour]
    return cell


def test_the_wall_strip_shows_every_disc_in_turn_order_with_stacks_together(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "actions")
    state = ui.app.session.state
    (strip,) = ui.find(WallStrip)
    discs = [w for w in strip.walk() if isinstance(w, Disc)]
    assert [d.colour for d in discs] == state.turn_order()  # walk() goes in the order they were added
    assert [d.place for d in discs] == [1, 2]
    assert [d.colour for d in discs if d.acting] == [state.turn]
    stacks = [w for w in strip.children if hasattr(w, "stacked")]
    assert sorted(len(s.children) for s in stacks) == sorted(len(space) for space in state.wall if space)
    assert any(s.stacked for s in stacks) == any(len(space) > 1 for space in state.wall)


def test_a_stack_is_one_framed_group_top_disc_first(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "setup_pick")  # every disc starts in one stack
    state = ui.app.session.state
    strip = WallStrip(state, None)
    (stack,) = [w for w in strip.children if hasattr(w, "stacked")]
    assert stack.stacked
    assert [d.colour for d in reversed(stack.children)] == state.wall[0]


def test_panels_keep_their_seats_when_the_wall_order_changes(ui: UiHarness) -> None:
    table = Table(ui, seed=5, players=4)
    seats = [p["colour"] for p in table.random.players]
    orders = set()
    for round_number in range(1, 5):
        table.advance(lambda s, n=round_number: s.round == n and s.phase == "actions")
        orders.add(tuple(ui.app.session.state.turn_order()))
        panels = [w.sheet_of for w in ui.walk() if hasattr(w, "sheet_of")]
        assert panels == seats
    assert len(orders) > 1, "the seeded game never changed the wall order: the test shows nothing"


def test_each_panel_shows_the_core_s_total_if_the_game_ended_now(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 2 and s.phase == "actions")
    totals = score_if_ended_now(ui.app.session.state)
    shown = {colour: next(w.live_total for w in panel_of(ui, colour).walk() if hasattr(w, "live_total"))
             for colour in totals}
    assert shown == totals
    assert len(set(totals.values())) > 1  # the players differ, so a mixed-up panel would show


def test_a_tap_on_a_panel_opens_the_player_sheet_and_one_tap_closes_it(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 3 and s.phase == "actions")
    state = ui.app.session.state
    colour = state.turn_order()[-1]
    player = state.player(colour)
    ui.tap(panel_of(ui, colour))
    texts = modal_texts(ui)
    assert player.name in texts
    total = score_if_ended_now(state)[colour]
    assert any(text.startswith(f"{total} point") for text in texts), texts
    waiting = f"{len(player.tableau)} card{'s' if len(player.tableau) != 1 else ''} waiting"
    assert waiting in texts
    assert str(player.gold) in texts and "Goods on the ship" in texts and "City quarters" in texts
    ui.tap_at(10, 10)  # anywhere, here outside the sheet
    assert open_modals() == []
    ui.tap(panel_of(ui, colour))
    ui.tap_at(Window.width / 2, Window.height / 2)  # and inside it
    assert open_modals() == []


def test_the_round_s_summary_opens_once_when_its_last_action_is_tapped(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 1 and s.phase == "actions" and len(s.order) - s.order_pos == 1)
    assert open_modals() == []  # advancing many actions at once shows nothing
    session = ui.app.session
    start = session.state_after(next(i for i in range(len(session.actions)) if session.state_after(i).round == 1))
    ui.tap(ui.tagged("action", "end_turn"))
    assert session.state.round == 2
    texts = modal_texts(ui)
    assert "Round 1: what each player gained" in texts
    lines = summarise_round(session, 1).lines
    assert [(line.gold, line.prestige) for line in lines] == [
        (session.state.player(line.colour).gold - start.player(line.colour).gold,
         session.state.player(line.colour).prestige - start.player(line.colour).prestige) for line in lines]
    assert any(line.gold or line.prestige for line in lines)  # seed 5: Ann buys prestige in round 1
    assert [line.total for line in lines] == [score_if_ended_now(session.state)[line.colour] for line in lines]
    ui.tap_at(Window.width / 2, Window.height / 2)
    assert open_modals() == []
    ui.app.go("history")  # coming back does not show it again
    ui.app.go("game")
    ui.idle()
    assert open_modals() == []


def test_the_round_s_summary_takes_the_next_round_s_first_tribute(ui: UiHarness, table: Table) -> None:
    """The table's next tap after a round is the first card's tribute: on the summary it closes
    the summary and enters that card, so looking at the round costs no extra tap."""
    ui.app.context.settings.check_costs = False  # the default: cards go in by their tribute
    table.advance(lambda s: s.round == 1 and s.phase == "actions" and len(s.order) - s.order_pos == 1)
    ui.app.go("game")  # the last turn's panel on screen: the next round's card panel is a new one
    ui.idle()
    ui.tap(ui.tagged("action", "end_turn"))
    (summary,) = open_modals()
    lay_out(summary)
    pair = next(w for w in summary.next_move.walk(restrict=True) if getattr(w, "tag", None) == ("tribute", 1, 2))
    taps = ui.taps
    ui.tap(pair)
    assert open_modals() == []
    panel = ui.app.manager.get_screen("game").current_panel()
    first = panel.slots[0]
    assert (first.tribute_tapped, first.gold, first.prestige) == (True, 1, 2)
    assert panel.selected == 1
    assert ui.taps == taps + 1


def test_the_last_round_leads_to_the_final_scoring_without_a_summary(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 12 and s.phase == "actions" and len(s.order) - s.order_pos == 1)
    ui.app.go("game")
    ui.idle()
    ui.tap(ui.tagged("action", "end_turn"))
    assert ui.app.session.state.phase == "final"
    assert open_modals() == []


def test_with_costs_typed_the_round_s_summary_offers_no_tribute(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 1 and s.phase == "actions" and len(s.order) - s.order_pos == 1)
    ui.tap(ui.tagged("action", "end_turn"))
    (summary,) = open_modals()
    assert getattr(summary, "next_move", None) is None  # a card's cost comes before its tribute
    ui.tap_at(Window.width / 2, Window.height / 2)
    assert open_modals() == []


def test_undo_of_a_round_s_last_action_shows_no_summary(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 2 and s.phase == "reveal")
    ui.app.undo()
    ui.idle()
    assert open_modals() == []


def test_the_round_bar_shows_the_round_so_far(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 2 and s.phase == "actions")
    ui.tap(ui.tagged("round bar"))
    assert "Round 2 so far: what each player gained" in modal_texts(ui)
    ui.tap_at(1, 1)
    table.advance(lambda s: s.round == 3 and s.phase == "reveal")
    assert round_to_show(ui.app.session) == 2  # nothing done in round 3 yet: round 2 whole
    table.advance(lambda s: s.round == 3 and s.phase == "roll")
    assert round_to_show(ui.app.session) == 3


def test_a_summary_left_open_goes_with_the_game_screen(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "actions")
    ui.tap(ui.tagged("round bar"))
    assert len(open_modals()) == 1
    ui.app.go("history")
    ui.idle()
    assert open_modals() == []




def lay_out(widget: Widget) -> None:
    for _pass in range(3):
        for child in widget.walk():
            if isinstance(child, Layout):
                child.do_layout()


def test_the_live_total_stays_whole_after_a_narrow_moment(ui: UiHarness, table: Table) -> None:
    """A panel first laid out tall and narrow puts the total under the counters; laid out wide
    again, the total came back to the badge at the grid's column width, cut to a dot (the tour)."""
    table.advance(lambda s: s.round == 1 and s.phase == "actions")
    player = ui.app.session.state.players[0]
    cell, _rose = _player_cell(player, False, 7, lambda: None)
    (live,) = [w for w in cell.walk() if hasattr(w, "live_total")]
    cell.size = (220, 200)
    lay_out(cell)
    assert live.parent.__class__.__name__ == "GridLayout"  # under the counters: the badge is too narrow
    cell.size = (400, 120)
    lay_out(cell)
    assert live.parent.__class__.__name__ == "Panel"  # back on the badge
    live.texture_update()
    assert live._label.text == live.text == "= 7"
    assert live.texture_size[0] <= live.width

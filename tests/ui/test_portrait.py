"""Portrait 720x1280 (and 1280x720) and the tribute pad, driven by taps: the game screen gives its height to what
players touch and read, and the pad shows the five tribute pairs base-game cards print.

Sizes are measured on the laid-out widgets (positions and sizes, not pixels), the same state
at the 800x480 baseline beside portrait.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from kivy.graphics import RoundedRectangle
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from app.ui import theme
from app.ui.camera_view import CameraView
from app.ui.i18n import translator
from app.ui.widgets import DieWidget
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context, parents
from tests.ui.test_dice_camera import FakeClock, folder_station

PORTRAIT = (720, 1280)
BASELINE = (800, 480)
WIDE = (1280, 720)
PRINTED_PAIRS = {(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)}
OTHER_PAIRS = {(1, 0), (2, 0), (0, 2), (2, 1)}


def _panel(ui: UiHarness) -> Any:
    return ui.app.manager.get_screen("game").current_panel()


def _at_size(ui: UiHarness, size: tuple[int, int]) -> None:
    ui.window.size = size
    ui.idle()
    ui.app.refresh()
    ui.idle()


def _pairs_on_pad(ui: UiHarness) -> set[tuple[int, int]]:
    return {w.tag[1:] for w in ui.walk()
            if isinstance(getattr(w, "tag", None), tuple) and w.tag[0] == "tribute" and w.tag[1] != "more"}


def _rose_sides(ui: UiHarness) -> list[float]:
    """The diameter each player's rose is drawn at (the smaller side of its widget)."""
    return [min(rose.size) for rose in ui.app.manager.get_screen("game").players_view.roses.values()]


# -- the tribute pad ------------------------------------------------------------------------------

def test_the_pad_shows_the_printed_pairs_and_the_other_four_one_tap_away(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal")
    assert _pairs_on_pad(ui) == PRINTED_PAIRS
    ui.tap(ui.tagged("cube", "red"))
    ui.tap(ui.tagged("tribute", "more"))
    assert _pairs_on_pad(ui) == OTHER_PAIRS
    assert "Pairs no base-game card prints (a promo card, say)" in ui.labels()
    ui.tap(ui.tagged("tribute", 2, 0))
    panel = _panel(ui)
    assert (panel.slots[0].gold, panel.slots[0].prestige, panel.selected) == (2, 0, 1)
    assert _pairs_on_pad(ui) == PRINTED_PAIRS  # the next card starts on the usual pairs again
    ui.tap(ui.tagged("slot", 0))  # back to the card with the unusual pair: its pair is shown lit
    assert _pairs_on_pad(ui) == OTHER_PAIRS
    assert ui.tagged("tribute", 2, 0).role == "selected"
    ui.tap(ui.tagged("tribute", "more"))
    assert _pairs_on_pad(ui) == PRINTED_PAIRS
    for index in range(1, 6):
        ui.tap(ui.tagged("slot", index))
        ui.tap(ui.tagged("cube", "gray"))
        ui.tap(ui.tagged("tribute", 1, 2))
    ui.tap_text("Cards are right")
    reveal = ui.app.session.actions[-1]
    assert reveal["type"] == "reveal"
    assert [c["tribute"] for c in reveal["office"] + reveal["cards"]] == [[2, 0]] + [[1, 2]] * 5


def test_the_pad_toggle_speaks_german(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal")
    translator.set_language("de")
    try:
        ui.app.refresh()
        ui.idle()
        assert ui.tagged("tribute", "more").text == "Andere"
        ui.tap(ui.tagged("tribute", "more"))
        assert ui.tagged("tribute", "more").text == "Übliche"
        assert "Paare, die keine Karte des Grundspiels trägt (etwa eine Promokarte)" in ui.labels()
    finally:
        translator.set_language("en")


# -- portrait layout ------------------------------------------------------------------------------

def test_two_players_in_portrait_get_roses_far_bigger_than_at_the_baseline(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "actions")
    baseline_roses = _rose_sides(ui)
    baseline_action = ui.tagged("action", "take_quarter").height
    baseline_end = ui.tagged("action", "end_turn").height
    _at_size(ui, PORTRAIT)
    portrait_roses = _rose_sides(ui)
    assert len(portrait_roses) == 2
    assert min(portrait_roses) >= 300 > max(baseline_roses)
    assert ui.tagged("action", "take_quarter").height >= 1.5 * baseline_action
    assert ui.tagged("action", "end_turn").height > baseline_end
    # Every action button stays inside the screen, above the players' cells.
    lowest_cell = max(rose.top for rose in ui.app.manager.get_screen("game").players_view.roses.values())
    for button in ui.find(Button):
        assert 0 <= button.y and button.top <= PORTRAIT[1]
        if (getattr(button, "tag", None) or ("",))[0] in ("action", "activate"):
            assert button.y > lowest_cell


def test_four_players_in_portrait_sit_in_a_two_by_two_grid(ui: UiHarness) -> None:
    table = Table(ui, players=4)
    table.advance(lambda s: s.phase == "actions")
    _at_size(ui, PORTRAIT)
    roses = list(ui.app.manager.get_screen("game").players_view.roses.values())
    assert len({round(rose.x) for rose in roses}) == 2 and len({round(rose.y) for rose in roses}) == 2
    assert min(_rose_sides(ui)) >= 170


def test_dice_and_number_keys_are_taller_in_portrait(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "roll")
    baseline_key = ui.tagged("pips", 3).height
    baseline_die = min(min(d.size) for d in ui.find(DieWidget))
    _at_size(ui, WIDE)  # 1280x720 has height to spare too: one row of taller keys
    assert ui.tagged("pips", 3).height >= 1.5 * baseline_key
    assert ui.tagged("pips", 3).y == ui.tagged("pips", 6).y
    _at_size(ui, PORTRAIT)
    assert ui.tagged("pips", 3).height >= 1.5 * baseline_key
    assert min(min(d.size) for d in ui.find(DieWidget)) > baseline_die
    ui.tap(ui.tagged("pips", 4))  # the big keys still type: the first die now shows 4
    assert _panel(ui).values["red"] == 4


def test_portrait_card_form_has_tall_keys_and_a_full_width_known_list(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal")
    ui.app.context.catalogue.learn([{"name": "Harbour", "kind": "building", "cost": ["red"], "tribute": [1, 2]}])
    _at_size(ui, BASELINE)
    baseline_tribute = ui.tagged("tribute", 1, 1).height
    _at_size(ui, PORTRAIT)
    assert ui.tagged("tribute", 1, 1).height >= 1.5 * baseline_tribute
    assert ui.tagged("cube", "red").height >= 1.5 * baseline_tribute
    ui.tap(ui.tagged("slot", 2))
    known = ui.tagged("known", "building", "Harbour")
    assert known.parent.width >= 0.9 * PORTRAIT[0]
    ui.tap(known)
    assert _panel(ui).slots[2].name == "Harbour"


def test_the_baseline_card_form_keeps_its_sizes(ui: UiHarness, table: Table) -> None:
    """800x480 is the baseline: the tribute pad, palette and kind row stay one finger high."""
    table.advance(lambda s: s.phase == "reveal")
    ui.tap(ui.tagged("slot", 2))
    heights = {ui.tagged("tribute", 1, 1).height, ui.tagged("cube", "red").height, ui.tagged("kind", "person").height}
    assert heights == {48}
    assert ui.tagged("tribute", 1, 1).top <= BASELINE[1]


def test_with_a_camera_the_spare_height_goes_to_the_live_picture(tmp_path: Path, mock_factory: MockFactory) -> None:
    clock = FakeClock()
    link = folder_station(tmp_path, mock_factory, clock)
    ui = UiHarness(make_context(tmp_path, dice=link), size=PORTRAIT)
    try:
        Table(ui).advance(lambda s: s.phase == "roll")
        link.station.service.tick(clock.now)  # opens the folder camera
        ui.idle()
        view = ui.find(CameraView)[0]
        assert view.height >= 340  # 2x3 number keys here would leave it about 300
        assert ui.tagged("pips", 3).height == theme.BUTTON_HEIGHT  # the keys keep their baseline height
    finally:
        ui.close()
        link.close()


def _overlapping_buttons(ui: UiHarness) -> list[tuple[str, str]]:
    """Pairs of buttons on screen whose boxes overlap (a layout squeezed below its minimum)."""
    buttons = [b for b in ui.find(Button) if not any(isinstance(p, ScrollView) for p in parents(b))]
    found = []
    for index, first in enumerate(buttons):
        for second in buttons[index + 1:]:
            if first.x < second.right - 1 and second.x < first.right - 1 and \
                    first.y < second.top - 1 and second.y < first.top - 1:
                found.append((first.text, second.text))
    return found


def test_a_small_portrait_panel_keeps_every_button_apart(ui: UiHarness, table: Table) -> None:
    """480x800 (a 7-inch panel turned): the stacked layout still fits without overlaps."""
    for phase in ("reveal", "roll", "actions"):
        table.advance(lambda s, phase=phase: s.phase == phase)
        for size in ((480, 800), PORTRAIT):
            _at_size(ui, size)
            assert _overlapping_buttons(ui) == [], (phase, size)
            assert all(0 <= b.y and b.top <= size[1] for b in ui.find(Button)), (phase, size)


def test_past_games_in_portrait_list_as_high_as_its_games(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "over")
    ui.app.go("past_games")
    _at_size(ui, PORTRAIT)
    try:
        screen = ui.app.manager.get_screen("past_games")
        games = next(w for w in screen.walk() if isinstance(w, ScrollView))
        assert games.height <= 90, games.height  # one game's tile, not half the window
        heading = next(w for w in screen.walk() if getattr(w, "text", None) == "Statistics over 1 finished game")
        assert heading.top >= PORTRAIT[1] - 250, heading.top  # the statistics right below it
    finally:
        _at_size(ui, BASELINE)


def test_four_players_on_a_small_portrait_panel_keep_their_counters_whole(ui: UiHarness) -> None:
    """At 480x800 two counters side by side would be cut short ("5 g..."): one per line there;
    the 800x480 baseline, too low for four lines, keeps them two by two."""
    table = Table(ui, players=4)
    table.advance(lambda s: s.phase == "actions")
    try:
        for size, columns in (((480, 800), 1), (BASELINE, 2)):
            _at_size(ui, size)
            grids = [w for w in ui.walk() if isinstance(w, GridLayout)
                     and any(str(getattr(c, "text", "")).endswith("[/b] gold") for c in w.children)]
            assert len(grids) == 4 and {grid.cols for grid in grids} == {columns}, (size, [g.cols for g in grids])
    finally:
        _at_size(ui, BASELINE)


def test_tall_draft_tiles_show_their_card_in_the_middle(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "take_card")
    _at_size(ui, PORTRAIT)
    tile = ui.tagged("card", 0)
    shown = [w for w in tile.children if isinstance(w, Label) and w.text]
    assert any(w.text == table.random.state.revealed[0].name for w in shown)
    assert tile.height > 150  # tall enough that where the card sits shows
    space_above = tile.top - max(w.top for w in shown)
    space_below = min(w.y for w in shown) - tile.y
    assert space_above > 30 and abs(space_above - space_below) < 12


def _rim(die: DieWidget) -> float:
    """How far the selection rim (the first shape under a chosen die) reaches beyond the die's face."""
    shapes = [i for i in die.canvas.before.children if isinstance(i, RoundedRectangle)]
    return (shapes[0].size[0] - shapes[-1].size[0]) / 2


def test_a_chosen_die_shows_a_rim_that_grows_with_it(ui: UiHarness) -> None:
    small, big = DieWidget("blue", 4, size=(80, 80)), DieWidget("blue", 4, size=(216, 216))
    plain_rim = _rim(big)  # unselected: only the thin outline
    small.selected = big.selected = True
    assert _rim(small) >= 6 and _rim(big) >= 2 * _rim(small) > plain_rim

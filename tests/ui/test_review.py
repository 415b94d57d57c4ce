"""Defects a player's-eye look at the screens turned up, each pinned by what the widgets show:
a cut text ends in an ellipsis, a long history entry keeps all its words, the dice phase says
what the next tap does, a camera proposal keeps its note, and the tour's pictures show each
rose at rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kivy.graphics import Rectangle
from kivy.uix.button import Button
from kivy.uix.scrollview import ScrollView


from app.dice_service import DiceStatus, RollState
from app.games.macao import CUBE_COLOURS
from app.ui import theme
from app.ui.i18n import translator
from app.ui.screens.game import NOTICE_HEIGHT
from app.ui.screens.history import ROW_HEIGHT
from app.ui.tour import settle_animations
from app.ui.widgets import ELLIPSIS, FIT_FLOOR, DieWidget, Panel, TextLabel, Tile
from vision.types import DiceReading, DieReading
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context, parents

LONG = ("Round 1 cards: Office 9, Office 10, Person 5, Building 6, Person 7, Building 8; "
        "prestige costs 3 gold for 5")


def _laid_out(label: TextLabel, width: float, height: float) -> list[str]:
    """Give the label a box and render it; the lines it shows."""
    label.size = (width, height)
    label.texture_update()
    return [" ".join(word.text for word in line.words).strip() for line in label._label._cached_lines]


def test_a_text_cut_at_its_last_line_ends_in_an_ellipsis(ui: UiHarness) -> None:
    label = TextLabel(LONG, size=theme.FONT_SMALL, size_hint=(None, None))
    lines = _laid_out(label, 340, 48)
    assert len(lines) == label.max_lines == 2
    assert lines[-1].endswith(ELLIPSIS)
    shown = label._label.text
    assert LONG.startswith(shown.removesuffix(ELLIPSIS))  # the start of the text, cut after a word
    assert LONG[len(shown) - 1] == " "
    assert label.is_shortened and label.text == LONG  # the widget keeps the whole text
    assert label.texture_size[1] <= label.height


def test_a_text_with_room_shows_every_word_and_no_ellipsis(ui: UiHarness) -> None:
    label = TextLabel(LONG, size=theme.FONT_SMALL, size_hint=(None, None))
    _laid_out(label, 340, 48)
    lines = _laid_out(label, 340, 100)  # the same label given room again shows it all
    assert " ".join(lines) == LONG
    assert not label.is_shortened and ELLIPSIS not in label._label.text


def test_a_box_one_line_high_keeps_kivys_own_shortening(ui: UiHarness) -> None:
    label = TextLabel(LONG, size=theme.FONT_SMALL, size_hint=(None, None))
    lines = _laid_out(label, 200, 24)
    assert label.shorten and len(lines) == 1 and label.is_shortened


def test_a_long_history_entry_grows_its_row_at_800x480(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "choose_dice")
    ui.tap_text("History")
    entries = [w for w in ui.walk() if isinstance(w, TextLabel) and w.text[:1].isdigit()]
    for entry in entries:
        entry.texture_update()
    reveal = next(e for e in entries if "cards:" in e.text and "prestige" in e.text)
    assert reveal.parent.height > ROW_HEIGHT  # three lines at 800x480, where a row holds two
    assert [e.text for e in entries if e.is_shortened] == []
    assert all(e.texture_size[1] <= e.height for e in entries)
    go_back = next(b for b in reveal.parent.children if b is not reveal)
    assert go_back.center_y == reveal.parent.center_y  # its button stays in the row's middle


def test_after_the_first_die_the_screen_says_what_the_next_tap_does(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "choose_dice")
    blue = next(d for d in ui.find(DieWidget) if d.colour == "blue")
    ui.tap(blue)
    assert "First die: blue. Now tap the second; blue again puts it back." in ui.labels()
    ui.tap(next(d for d in ui.find(DieWidget) if d.colour == "blue"))
    assert "Each die brings as many cubes as it shows, to that sector." in ui.labels()
    assert ui.app.session.state.phase == "choose_dice"


def test_a_camera_proposal_keeps_its_note_on_screen(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "roll")
    panel = ui.app.manager.get_screen("game").current_panel()
    assert "No camera: tap a die, then its number." in ui.labels()
    dice = tuple(DieReading(40 * i, 40, 30, 30, colour, None if colour == "violet" else 2, 0.9, colour == "violet")
                 for i, colour in enumerate(CUBE_COLOURS))
    panel.take_proposal(DiceStatus(RollState.PROPOSED, "Some dice are unclear: correct them, then confirm",
                                   {}, DiceReading(dice)))
    panel.redraw()
    ui.idle()
    assert "Some dice are unclear: correct them, then confirm" in ui.labels()
    assert "No camera: tap a die, then its number." not in ui.labels()
    assert [d.unsure for d in ui.find(DieWidget)] == [False] * 5 + [True]


def test_the_tour_pictures_each_rose_at_rest(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "choose_dice" and s.turn == s.players[-1].colour)
    who = ui.app.session.state.turn
    for colour in CUBE_COLOURS[:2]:
        ui.tap(next(d for d in ui.find(DieWidget) if d.colour == colour))
    roses = ui.app.manager.get_screen("game").players_view.roses
    assert ui.app.session.state.phase == "actions"
    assert roses[who].angle != 0  # the turn has only begun: cubes still between sectors
    settle_animations(ui.root)
    assert [rose.angle for rose in roses.values()] == [0.0] * len(roses)


def test_a_cut_text_given_room_again_shows_whole(ui: UiHarness) -> None:
    label = TextLabel(LONG, size=theme.FONT_SMALL, size_hint=(None, None))
    _laid_out(label, 100, 100)  # several lines, cut
    assert label._label.text.endswith(ELLIPSIS)
    lines = _laid_out(label, 1000, 24)  # one line high, where Kivy's own shortening takes over
    assert lines == [LONG] and not label.is_shortened


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_text_of_a_game_is_cut_at_800x480(ui: UiHarness, language: str) -> None:
    """German runs longer: 'Bestwert' over the past games' column and the card list's hint were cut."""
    translator.set_language(language)
    seen = []
    for screen in ("new_game", "macao_setup"):
        ui.app.go(screen)
        ui.idle()
        seen.append((screen, ui.cut_texts()))
    table = Table(ui, seed=11)
    for phase in ("setup_draw", "reveal", "take_card", "roll", "choose_dice", "actions", "final"):
        table.advance(lambda s, p=phase: s.phase == p)
        seen.append((phase, ui.cut_texts()))
    table.advance(lambda s: s.phase == "over")
    for screen in ("score", "history", "past_games"):
        ui.app.go(screen)
        ui.idle()
        seen.append((screen, ui.cut_texts()))
    assert seen == [(where, []) for where, _cut in seen]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_480x800_panel_drops_bar_titles_it_has_no_room_for(tmp_path: Path, language: str) -> None:
    """Between three buttons 'History' had 14 px and 'Final score' 118 px: shown as '...'."""
    ui = UiHarness(make_context(tmp_path), size=(480, 800))
    try:
        translator.set_language(language)
        table = Table(ui, seed=11)
        table.advance(lambda s: s.phase == "final")
        seen = [("final", ui.cut_texts())]
        table.advance(lambda s: s.phase == "over")
        for screen in ("score", "history"):
            ui.app.go(screen)
            ui.idle()
            seen.append((screen, ui.cut_texts()))
            assert translator.gettext({"score": "Final score", "history": "History"}[screen]) not in ui.labels()
        assert seen == [(where, []) for where, _cut in seen]
    finally:
        ui.close()


def test_a_long_reason_for_a_refused_action_is_shown_whole(ui: UiHarness, table: Table) -> None:
    """At 800x480 a strip one line high cut 'Ann needs ... the supply holds 5 red, 4 green, ...'."""
    long_reason = None
    for round_number in range(1, 13):
        table.advance(lambda s, r=round_number: s.round == r and s.phase == "actions")
        long_reason = next((w for w in ui.walk() if len(getattr(w, "blocked_reason", "")) > 85), None)
        if long_reason is not None:
            break
    assert long_reason is not None, "the seeded game no longer refuses an action at length"
    ui.tap(long_reason)
    screen = ui.app.manager.get_screen("game")
    notice = screen.notice_label
    notice.texture_update()
    assert notice.text == long_reason.blocked_reason
    assert not notice.is_shortened and notice._label.text == notice.text
    assert screen.notice_strip.height > NOTICE_HEIGHT and notice.texture_size[1] <= notice.height
    assert min(b.height for b in ui.buttons()) >= theme.TOUCH_MIN  # the taller strip leaves the keys finger-sized


def test_the_colour_chosen_for_sector_1_is_rimmed(ui: UiHarness) -> None:
    """It was only bracketed, '[ green ]', in small text on the green button."""
    table = Table(ui, seed=11)
    table.advance(lambda s: s.phase == "setup_cubes")
    ui.tap(ui.tagged("one", "green"))
    rimmed = {(w.tag, w.text) for w in ui.walk() if getattr(w, "outlined", False)}
    assert rimmed == {(("one", "green"), "green")}
    chosen = ui.tagged("one", "green")
    assert len(chosen.canvas.after.children) > 0 and len(ui.tagged("one", "red").canvas.after.children) == 0
    ui.tap(ui.tagged("one", "red"))
    assert {w.tag for w in ui.walk() if getattr(w, "outlined", False)} == {("one", "red")}
    ui.tap(ui.tagged("two", "blue"))
    assert ui.app.session.actions[-1]["one"] == "red" and ui.app.session.actions[-1]["two"] == "blue"


def _count_heights(ui: UiHarness) -> list[float]:
    """Heights of the cube counts drawn on the roses (after each rose's six sector numbers)."""
    heights: list[float] = []
    for rose in ui.app.manager.get_screen("game").players_view.roses.values():
        drawn = [i for i in rose.canvas.children if isinstance(i, Rectangle) and i.texture is not None]
        heights += [r.size[1] for r in drawn[6:]]
    return heights


def test_cube_counts_on_the_roses_are_legible_at_800x480(ui: UiHarness) -> None:
    """A two-colour pile's count was drawn 10 px high on the 143 px rose (a third less than now)."""
    table = Table(ui, seed=11)
    table.advance(lambda s: s.round == 5 and s.phase == "actions")
    heights = _count_heights(ui)
    assert heights and min(heights) >= 13


def _counters(ui: UiHarness) -> list[Any]:
    return [w for w in ui.walk() if hasattr(w, "captions")]


@pytest.mark.parametrize("players, caption", [(2, "prestige"), (4, None)])
def test_player_counters_are_never_cut_at_800x480(ui: UiHarness, players: int, caption: str | None) -> None:
    """Four players leave about 85 px a counter column: '13 prestige' was cut to '13 prest...'.
    Each counter shows its full caption where it fits (measured) and else the short one."""
    table = Table(ui, seed=11, players=players)
    table.advance(lambda s: s.round == 5 and s.phase == "actions")
    counters = _counters(ui)
    for label in counters:
        label.texture_update()
    assert len(counters) == 4 * players
    assert [c.text for c in counters if c.is_shortened] == []
    assert all(c.text in c.captions for c in counters)
    if caption is not None:
        assert sum(c.text.endswith("] " + caption) for c in counters) == players


def test_action_texts_stay_inside_their_buttons_on_a_480x800_panel(tmp_path: Path) -> None:
    """Three columns there got the tall window's larger text: 'Activate Building 8: 4 green' took
    three lines, past its button's top and bottom."""
    ui = UiHarness(make_context(tmp_path), size=(480, 800))
    try:
        table = Table(ui, seed=11, players=4)
        table.advance(lambda s: s.round == 5 and s.phase == "actions")
        buttons = [b for b in ui.buttons() if isinstance(b.tag, tuple) and b.tag[0] in ("activate", "action")]
        for button in buttons:
            button.texture_update()
        assert len(buttons) >= 7  # the six standard actions and End of turn; the cards are tiles
        # Kivy keeps every wrapped line of a button and centres them: their heights add up past the edges.
        assert [b.text for b in buttons if sum(line.h for line in b._label._cached_lines) > b.height] == []
        assert [w for w in ui.walk() if isinstance(getattr(w, "tag", None), tuple) and w.tag[0] == "activate"]
        assert ui.cut_texts() == []  # ...and every text in them whole
    finally:
        ui.close()


def test_end_of_turn_leaves_the_action_rows_whole_on_a_480x800_panel(tmp_path: Path) -> None:
    """With four players End of turn grew to 96 px and covered the last row of actions (41 px left)."""
    ui = UiHarness(make_context(tmp_path), size=(480, 800))
    try:
        table = Table(ui, seed=11, players=4)
        table.advance(lambda s: s.round == 5 and s.phase == "actions")
        end = ui.tagged("action", "end_turn")
        actions = [b for b in ui.buttons() if isinstance(b.tag, tuple) and b.tag[0] in ("activate", "action")
                   and b is not end]
        lowest = min(b.to_window(b.x, b.y)[1] for b in actions)
        assert lowest >= end.to_window(end.x, end.top)[1]  # no action lies under End of turn
        assert min(b.height for b in actions) >= theme.BUTTON_HEIGHT and end.height >= theme.BUTTON_HEIGHT
    finally:
        ui.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_discard_question_and_its_six_cards_fit_at_800x480(ui: UiHarness, language: str) -> None:
    """The question was cut ('(punish ma...'), the rules' wording below it too, under a prompt
    strip still saying 'take one of the open cards'; and the new card's tile, a line taller with
    its note, ran its name over the tile above."""
    translator.set_language(language)
    table = Table(ui, seed=11)
    table.advance(lambda s: s.phase == "take_card" and len(s.player(s.turn).tableau) >= 5)
    free = next(i for i, card in enumerate(ui.app.session.state.revealed) if card is not None)
    prompt = ui.app.manager.get_screen("game").notice_label.text
    ui.tap(ui.tagged("card", free))
    question = translator.gettext("{name}: the tableau is full. Which card goes? (punish marker)").format(name="Ann")
    assert ui.app.manager.get_screen("game").notice_label.text == question  # in the prompt's place
    assert prompt not in ui.labels() and ui.labels().count(question) == 1
    assert ui.cut_texts() == []
    tiles = [w for w in ui.walk() if isinstance(getattr(w, "tag", None), tuple) and w.tag[0] == "discard"]
    assert len(tiles) == 6
    spill = [(tile.tag, child.text if hasattr(child, "text") else type(child).__name__)
             for tile in tiles for child in tile.children if child.y < tile.y - 0.5 or child.top > tile.top + 0.5]
    assert spill == []
    assert translator.gettext("new card") in tiles[-1].children[-3].text  # beside the new card's kind
    ui.tap_text(translator.gettext("Cancel: choose another card"))
    assert ui.app.manager.get_screen("game").notice_label.text == prompt


def _spills(ui: UiHarness) -> list[str]:
    """Widgets drawn past the edges of the panel or tile holding them (outside scrolling lists)."""
    spilt = []
    for holder in ui.walk():
        if not isinstance(holder, (Panel, Tile)) or any(isinstance(p, ScrollView) for p in parents(holder)):
            continue
        for child in holder.children:
            if child.y < holder.y - 1 or child.top > holder.top + 1:
                spilt.append(getattr(child, "text", "") or type(child).__name__)
    return spilt


def test_forms_and_the_discard_question_stay_in_their_panels_on_a_480x800_panel(tmp_path: Path) -> None:
    """The quarter form asked 1 px more than it had and Kivy pushed its title up over the prompt;
    the discard question's six tiles in two columns were too low for their cards."""
    ui = UiHarness(make_context(tmp_path), size=(480, 800))
    try:
        table = Table(ui, seed=11)
        table.advance(lambda s: s.phase == "take_card" and len(s.player(s.turn).tableau) >= 5)
        free = next(i for i, card in enumerate(ui.app.session.state.revealed) if card is not None)
        ui.tap(ui.tagged("card", free))
        seen = [("discard", _spills(ui))]
        table.advance(lambda s: s.round == 5 and s.phase == "actions")
        panel = ui.app.manager.get_screen("game").current_panel()
        for form in ("quarter", "wall", "ship", "joker", "effect"):
            panel.open(form)
            ui.idle()
            seen.append((form, _spills(ui)))
            assert min(round(b.height) for b in ui.buttons()) >= theme.TOUCH_MIN, form  # packed, still finger-sized
            panel.close()
            ui.idle()
        assert seen == [(where, []) for where, _spilt in seen]
    finally:
        ui.close()


def _overflowing(ui: UiHarness) -> list[str]:
    """Buttons whose drawn text runs past their top and bottom or breaks inside a word, and
    one-line labels shortened to '...' (both as Kivy lays them out)."""
    found = []
    for widget in ui.walk():
        if isinstance(widget, Button) and widget.text and not widget.markup:
            widget.texture_update()
            lines = widget._label._cached_lines
            drawn = " ".join("".join(word.text for word in line.words) for line in lines).split()
            if sum(line.h for line in lines) > widget.height or drawn != widget.text.split():
                found.append(widget.text)
        elif isinstance(widget, TextLabel) and widget.shorten:
            widget.texture_update()
            if widget.is_shortened:
                found.append(widget.text)
    return found


def test_text_at_140_percent_is_drawn_smaller_where_800x480_has_no_room(ui: UiHarness) -> None:
    """At 140 % the phase bar read 'Rou...' and 'Actio...', actions ran three lines past their
    buttons' edges, 'Other' broke into 'Othe r'; the setting still makes the text bigger."""
    theme.text_scale.factor = 1.4
    try:
        table = Table(ui, seed=11)
        seen = []
        for phase in ("reveal", "actions"):
            table.advance(lambda s, p=phase: s.phase == p)
            ui.app.refresh()
            ui.idle()
            seen.append((phase, _overflowing(ui)))
        assert seen == [("reveal", []), ("actions", [])]
        end = ui.tagged("action", "end_turn")
        assert end.font_size == theme.font(theme.FONT_LARGE) == round(1.4 * theme.FONT_LARGE)
        assert end._label.options["font_size"] == end.font_size  # room enough: drawn at its full size
        squeezed = [b for b in ui.buttons() if b._label.options["font_size"] < b.font_size]
        assert squeezed and all(b._label.options["font_size"] >= FIT_FLOOR * b.font_size for b in squeezed)
    finally:
        theme.text_scale.factor = 1.0


def test_text_at_100_percent_is_drawn_at_its_size_at_800x480(ui: UiHarness, table: Table) -> None:
    for phase in ("reveal", "actions"):
        table.advance(lambda s, p=phase: s.phase == p)
        texts = [w for w in ui.walk() if isinstance(w, (Button, TextLabel)) and w.text]
        for widget in texts:
            widget.texture_update()
        assert [w.text for w in texts if w._label.options["font_size"] != w.font_size] == []


def test_a_past_games_bars_have_the_final_scores_legend(ui: UiHarness) -> None:
    """Its bars had the final score's three colours and nothing saying what they stand for."""
    table = Table(ui, seed=11)
    table.advance(lambda s: s.phase == "over")
    ui.app.go("score")
    ui.idle()
    score = ui.labels()
    ui.app.go("past_game", game_id=ui.app.session.game_id)
    ui.idle()
    assert ui.app.manager.current == "past_game"
    past = ui.labels()
    for title in ("Track less punish", "Cards", "City"):  # 'Cards' and 'City' also head the table's columns
        assert past.count(title) == score.count(title) >= 1
    assert "Track less punish" in past and ui.cut_texts() == []


def test_the_other_screens_at_140_percent_text_cut_nothing_at_800x480(ui: UiHarness) -> None:
    """The new game's wall-stack hint was a line high at 140 % and ended in '...'."""
    theme.text_scale.factor = 1.4
    try:
        seen = []
        for screen in ("start", "new_game", "macao_setup", "settings"):
            ui.app.go(screen)
            ui.idle()
            seen.append((screen, _overflowing(ui) + ui.cut_texts()))
        table = Table(ui, seed=11)
        table.advance(lambda s: s.phase == "over")
        for screen in ("score", "history", "past_games"):
            ui.app.go(screen)
            ui.idle()
            seen.append((screen, _overflowing(ui) + ui.cut_texts()))
        assert seen == [(where, []) for where, _found in seen]
    finally:
        theme.text_scale.factor = 1.0

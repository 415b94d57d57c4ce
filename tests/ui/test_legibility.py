"""Four players on the 800x480 screen: no text drawn smaller than 16 px on any screen of a game (the
player sheet and the round's summary included), in English and in German; two players likewise on
the game screens; and the German screens show no English words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.modalview import ModalView

from app.games import GAMES, game
from app.ui.i18n import translator
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

SMALLEST_PX = 16
# Words of the English UI that no German screen may show (whole words, any case).
ENGLISH = ("the", "and", "of", "to", "punish", "cube", "cubes", "round", "take", "choose", "card", "cards",
           "turn", "sector", "supply", "wall", "ship", "undo", "history", "menu", "settings", "now",
           "white", "yellow", "brown", "red", "blue", "green", "black", "gray", "violet")
ENGLISH_WORD = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b", re.IGNORECASE)
# A game's published title ("Shadows of Macao") is a name, kept as printed on its box.
TITLES = re.compile("|".join(re.escape(game(game_id).title.template) for game_id in GAMES))
# Markup tags and colour codes are not words on the screen.
MARKUP = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")


def drawn_size(label: Label) -> float:
    """The size the text is drawn at: a one-line box may draw its text smaller than font_size."""
    label.texture_update()
    return float(label._label.options.get("font_size", label.font_size))


def shown_labels(ui: UiHarness) -> Iterator[Label]:
    """The screen's labels, or those of the view open over it (a player sheet, a round's summary)."""
    modals = [child for child in Window.children if isinstance(child, ModalView)]
    widgets = modals[0].walk() if modals else ui.walk()
    for widget in widgets:
        if isinstance(widget, Label) and widget.text.strip() and widget.opacity > 0 and widget.width > 1:
            yield widget


def settle_modal(ui: UiHarness) -> None:
    """Lay out the view open over the screen (the harness lays out the screen only)."""
    for modal in [child for child in Window.children if isinstance(child, ModalView)]:
        for _pass in range(3):
            for widget in modal.walk():
                if isinstance(widget, Layout):
                    widget.do_layout()
    ui.idle()


def close_modal(ui: UiHarness) -> None:
    ui.tap_at(1, 1)


def tour_of_a_four_player_game(ui: UiHarness) -> Iterator[str]:
    """Every screen a table meets in a game, each named once it shows."""
    ui.app.go("start")
    ui.idle()
    yield "start"
    ui.app.go("new_game")
    ui.idle()
    yield "new game"
    table = Table(ui, seed=5, players=4)
    for phase in ("setup_draw", "setup_pick", "setup_cubes", "reveal", "take_card", "roll", "choose_dice",
                  "actions"):
        table.advance(lambda s, p=phase: s.phase == p)
        yield phase
    game = ui.app.manager.get_screen("game")
    panel = game.current_panel()
    panel.open("wall")
    ui.idle()
    yield "wall form"
    panel.close()
    ui.idle()
    game.players_view.open_sheet(ui.app.session.state.turn_order()[-1])
    settle_modal(ui)
    yield "player sheet"
    close_modal(ui)
    ui.tap(ui.tagged("round bar"))
    settle_modal(ui)
    yield "round summary"
    close_modal(ui)
    ui.app.go("history")
    ui.idle()
    yield "history"
    table.advance(lambda s: s.phase == "final")
    yield "final"
    table.advance(lambda s: s.phase == "over")
    ui.app.go("score")
    ui.idle()
    yield "score"
    for screen in ("past_games", "settings"):
        ui.app.go(screen)
        ui.idle()
        yield screen


@pytest.fixture(params=["en", "de"])
def four(request: Any, tmp_path: Path) -> Iterator[tuple[UiHarness, str]]:
    harness = UiHarness(make_context(tmp_path))
    translator.set_language(request.param)
    harness.app.context.settings.language = request.param
    yield harness, request.param
    harness.close()
    translator.set_language("en")


def test_two_players_landscape_game_screens_keep_16_px(four: tuple[UiHarness, str]) -> None:
    """With two players the counters stand one a line beside a large rose: German's "0 Strafmarker"
    was drawn under 16 px there."""
    ui, language = four
    table = Table(ui, seed=5, players=2)
    small = {}
    for round_number in (1, 4):
        table.advance(lambda s, n=round_number: s.round == n and s.phase == "actions")
        small[round_number] = [(label.text, drawn_size(label)) for label in shown_labels(ui)
                               if drawn_size(label) < SMALLEST_PX]
    assert small == {1: [], 4: []}, language


def test_no_text_under_16_px_and_no_english_in_german(four: tuple[UiHarness, str]) -> None:
    ui, language = four
    small: dict[str, list[tuple[str, float]]] = {}
    english: dict[str, list[str]] = {}
    smallest: dict[str, float] = {}
    for screen in tour_of_a_four_player_game(ui):
        sizes = [(label.text, drawn_size(label)) for label in shown_labels(ui)]
        smallest[screen] = min(size for _text, size in sizes)
        small[screen] = [(text, size) for text, size in sizes if size < SMALLEST_PX]
        if language == "de":
            english[screen] = [text for text, _ in sizes if ENGLISH_WORD.search(TITLES.sub("", MARKUP.sub("", text)))]
    print(f"smallest text ({language}, 4 players, 800x480):", smallest)
    assert {screen: found for screen, found in small.items() if found} == {}
    assert {screen: found for screen, found in english.items() if found} == {}


def test_german_says_strafmarker_never_strafe() -> None:
    """A punish marker is a "Strafmarker" on every German screen, as on the German box."""
    translator.set_language("de")
    try:
        for english in ("Punish", "punish", "Track less punish", "Punish markers", "punish markers"):
            german = translator.gettext(english)
            assert "Strafmarker" in german and not re.search(r"\bStrafen?\b", german), (english, german)
    finally:
        translator.set_language("en")

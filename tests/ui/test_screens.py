"""The screens driven by taps, asserting what labels and buttons say (never pixels)."""

from __future__ import annotations

from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from app.games.macao import CUBE_COLOURS, apply_action, score
from app.ui.charts import BarChart
from app.ui.i18n import translator
from app.ui.widgets import DieWidget
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, parents
from tests.ui.tap_player import TapPlayer


def test_new_game_is_set_up_by_taps(ui: UiHarness) -> None:
    assert ui.app.manager.current == "start"
    ui.tap_text("New game")
    ui.tap(ui.tagged("game", "macao"))
    assert ui.button(prefix="Seat 2 to 4").disabled
    ui.tap(ui.tagged("seat", "yellow"))
    ui.tap(ui.tagged("seat", "brown"))
    ui.tap_text("Start the game")
    assert ui.app.manager.current == "game"
    state = ui.app.session.state
    assert [p.colour for p in state.players] == ["yellow", "brown"]
    assert state.wall[0] == ["yellow", "brown"]  # tapped first = top of the stack
    assert "Lay out the cards for the first pick." in ui.labels()
    assert ui.button("Undo").disabled


def test_card_entry_shows_the_cores_tribute_and_reveals(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "reveal")
    player = TapPlayer(ui, seed=1)
    cards = [
        {"name": "", "kind": "office", "cost": ["red"], "tribute": [2, 1]},
        {"name": "", "kind": "office", "cost": ["blue", "blue"], "tribute": [1, 0]},
        {"name": "", "kind": "building", "cost": ["green"], "tribute": [0, 2]},
        {"name": "", "kind": "person", "cost": ["black", "gray"], "tribute": [1, 1], "effects": ["double_jokers"]},
        {"name": "", "kind": "building", "cost": ["violet"], "tribute": [0, 0]},
        {"name": "", "kind": "building", "cost": ["red", "red", "red", "red"], "tribute": [2, 2]},
    ]
    assert "Tribute: shown once every card is complete" in ui.labels()
    panel = ui.app.manager.get_screen("game").current_panel()
    for index, card in enumerate(cards):
        assert panel.selected == index  # the tribute tap of the card before moved on to this one
        for colour in card["cost"]:
            player.tap("cube", colour)
        if card["kind"] == "person":
            player.tap("kind", "person")
        for effect in card.get("effects", []):
            player.tap("effect", effect)
        assert ui.button(prefix="Every card needs").disabled
        player.tap("tribute", *card["tribute"])
    # 11 cost cubes, a kind, an effect, 6 tribute pairs, and "Other" before each of the three pairs
    # no base-game card prints (2-1, 1-0, 0-2): no slot taps
    assert ui.taps == 22
    expected = apply_action(ui.app.session.state, panel.action()).tribute
    assert f"Tribute: {expected[0]} gold buys {expected[1]} prestige" in ui.labels()
    ui.tap_text("Cards are right")
    reveal = ui.app.session.actions[-1]
    assert reveal["type"] == "reveal"
    assert [c["cost"] for c in reveal["office"] + reveal["cards"]] == [c["cost"] for c in cards]
    assert [c["tribute"] for c in reveal["office"] + reveal["cards"]] == [c["tribute"] for c in cards]
    assert [c["kind"] for c in reveal["office"] + reveal["cards"]] == [c["kind"] for c in cards]
    assert reveal["cards"][1]["effects"] == ["double_jokers"]
    assert ui.app.session.state.tribute == expected


def test_a_refused_action_keeps_the_game_and_says_why(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "actions")
    who = ui.app.session.state.turn
    options = ui.app.session.options(who)
    blocked = [(kind, o) for kind, o in (("wall", options.wall), ("joker", options.joker),
                                         ("buy_prestige", options.buy_prestige)) if not o.ok]
    assert blocked, "the seeded game should have something not allowed in its first turn"
    kind, option = blocked[0]
    before = len(ui.app.session.actions)
    ui.tap(ui.tagged("action", kind))
    assert translator.message(option.reason) in ui.labels()
    assert len(ui.app.session.actions) == before


def test_undo_is_in_the_same_place_in_every_phase(ui: UiHarness, table: Table) -> None:
    places = set()
    for phase in ("reveal", "take_card", "roll", "choose_dice", "actions"):
        table.advance(lambda s, p=phase: s.phase == p)
        undo = ui.button("Undo")
        places.add((round(undo.x), round(undo.top), round(undo.width)))
    assert len(places) == 1
    before = len(ui.app.session.actions)
    ui.tap_text("Undo")
    assert len(ui.app.session.actions) == before - 1
    assert ui.app.manager.current == "game"


def test_history_goes_back_to_a_chosen_action(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "roll")
    ui.tap_text("History")
    assert ui.app.manager.current == "history"
    assert any(text.startswith("3. ") for text in ui.labels())
    go_back = [b for b in ui.buttons("Go back to here")]
    entry_three = next(b for b in go_back if any(
        getattr(sibling, "text", "").startswith("3. ") for sibling in b.parent.children))
    ui.tap(entry_three)
    assert len(ui.app.session.actions) == 3
    assert ui.app.manager.current == "game"
    assert ui.app.session.can_redo


def test_a_long_history_entry_wraps_onto_a_second_line_at_800x480(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "choose_dice")
    ui.tap_text("History")
    roll = next(w for w in ui.walk() if isinstance(w, Label) and "Dice rolled" in w.text)
    roll.texture_update()
    one_line = roll.font_size * 1.5
    assert not roll.shorten and roll.texture_size[1] > one_line  # all six dice, on two lines
    assert roll.texture_size[1] <= roll.height and roll.texture_size[0] <= roll.width


def test_the_sixth_card_asks_which_card_to_discard(ui: UiHarness) -> None:
    table = Table(ui, seed=5)
    table.advance(lambda s: s.phase == "take_card" and len(s.player(s.turn).tableau) >= 5)
    who = ui.app.session.state.turn
    free = next(i for i, card in enumerate(ui.app.session.state.revealed) if card is not None)
    ui.tap(ui.tagged("card", free))
    assert any("the tableau is full" in text for text in ui.labels())
    ui.tap(ui.tagged("discard", 0))
    action = ui.app.session.actions[-1]
    assert action == {"type": "take_card", "player": who, "card": free, "discard": 0}


def test_dice_typed_by_hand_show_the_round_8_conversion(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 8 and s.phase == "roll")
    assert "No camera: tap a die, then its number." in ui.labels()
    for _colour in CUBE_COLOURS:
        ui.tap(ui.tagged("pips", 6))
    notes = [die.note for die in ui.find(DieWidget)]
    assert notes == ["counts 1"] * 6
    ui.tap_text("Dice are right")
    assert ui.app.session.state.dice == {colour: 1 for colour in CUBE_COLOURS}
    assert "From round 8, high dice count as 1 (shown under the die)." in ui.labels()


def test_choosing_two_dice_fills_the_windrose(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "choose_dice")
    screen = ui.app.manager.get_screen("game")
    who = ui.app.session.state.turn
    dice = ui.app.session.state.dice
    first, second = CUBE_COLOURS[0], CUBE_COLOURS[1]
    for colour in (first, second):
        ui.tap(next(d for d in ui.find(DieWidget) if d.colour == colour))
    rose = screen.players_view.roses[who]
    for colour in (first, second):
        assert rose.cubes_in(dice[colour]).get(colour, 0) >= dice[colour]


def test_language_switches_at_runtime(ui: UiHarness) -> None:
    ui.tap_text("Settings")
    ui.tap_text("Deutsch")
    assert "Einstellungen" in ui.labels()
    assert ui.app.context.settings.language == "de"
    ui.tap_text("Zurück")
    assert "Neue Partie" in [b.text for b in ui.buttons()]
    ui.tap_text("Einstellungen")
    ui.tap_text("English")
    assert "Settings" in ui.labels()
    saved = ui.app.context.settings_store.path.read_text(encoding="utf-8")
    assert '"language": "en"' in saved


def test_text_size_setting_grows_the_text(ui: UiHarness) -> None:
    ui.tap_text("Settings")
    before = ui.button("Back").font_size
    ui.tap_text("140%")
    assert ui.button("Back").font_size > before
    ui.tap_text("100%")


def test_every_button_is_finger_sized_at_three_screen_sizes(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "actions")
    for size in ((800, 480), (1280, 720), (720, 1280)):
        ui.window.size = size
        ui.app.refresh()
        ui.idle()
        for name in ("game", "history", "start", "settings"):
            ui.app.go(name)
            ui.idle()
            for button in ui.walk():
                if isinstance(button, Button):
                    assert button.height >= 48 and button.width >= 48, (size, name, button.text, button.size)
                    if not any(isinstance(parent, ScrollView) for parent in parents(button)):
                        assert button.right <= size[0] + 1 and button.top <= size[1] + 1, (size, name, button.text)
    ui.window.size = (800, 480)


def test_score_screen_shows_the_cores_sheet_and_exports(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "over")
    assert ui.app.manager.current == "score"
    sheet = score(ui.app.session.state)
    labels = ui.labels()
    winner = next(row for row in sheet.rows if row.colour == sheet.winner)
    assert any(text.startswith(f"{winner.name} wins.") for text in labels)
    for row in sheet.rows:
        at = labels.index(f"{row.rank}. {row.name}")
        assert labels[at + 1: at + 6] == [str(v) for v in (row.prestige, -row.punish_points, row.card_points,
                                                           row.city_points, row.total)]
    # The chart's first part of each bar is the track after the punish markers, and says so.
    assert "Track less punish" in labels
    chart = next(w for w in ui.walk() if isinstance(w, BarChart))
    assert [bar.segments[0][0] for bar in chart.bars] == [row.prestige - row.punish_points for row in sheet.rows]
    ui.tap_text("Export")
    written = sorted(p.name for p in ui.app.context.exports_dir.iterdir())
    assert sorted(name.split(".", 1)[-1] for name in written) == ["bgstats.json", "csv", "json"]
    assert any(text.startswith("Saved in ") for text in ui.labels())
    ui.tap_text("Menu")
    ui.tap_text("Past games")
    assert "Statistics over 1 finished game" in ui.labels()


def test_greyed_cube_buttons_still_show_their_colour(ui: UiHarness) -> None:
    """A cube that cannot be picked is greyed, but a row of them must still say which is which."""
    from app.ui import theme
    from app.ui.widgets import cube_button

    greyed = [cube_button(colour, lambda: None, disabled=True) for colour in CUBE_COLOURS]
    backgrounds = [tuple(round(c, 3) for c in button.background_color) for button in greyed]
    assert len(set(backgrounds)) == len(CUBE_COLOURS)
    for colour, background in zip(CUBE_COLOURS, backgrounds):
        assert background != tuple(theme.DISABLED) and background != tuple(theme.cube_colour(colour))
    live = cube_button("red", lambda: None)
    assert tuple(live.background_color) == tuple(theme.cube_colour("red"))


def test_player_counters_say_one_card_not_one_cards(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "take_card")  # the first draft: the set-up pick's one card each
    ui.app.refresh()
    ui.idle()
    state = ui.app.session.state
    assert {len(state.player(p.colour).tableau) for p in state.players} == {1}
    counters = [text for text in ui.labels() if text.endswith(("[/b] card", "[/b] cards"))]
    assert counters and all(text.endswith("[/color][/b] card") for text in counters), counters
    translator.set_language("de")
    ui.idle()
    try:
        assert any(text.endswith("[/color][/b] Karte") for text in ui.labels())
    finally:
        translator.set_language("en")


def test_a_name_is_held_to_the_one_name_rule(ui: UiHarness) -> None:
    from app.ui.widgets import TextField

    ui.tap_text("New game")
    ui.tap(ui.tagged("game", "macao"))
    ui.tap(ui.tagged("seat", "yellow"))
    ui.tap(ui.tagged("seat", "brown"))
    first, second = [field for field in ui.find(TextField) if not field.disabled]
    first.insert_text("N" * 55)
    assert len(first.text) == 40  # typing stops at the longest name the rule allows
    second.insert_text("Bea\x1b[31m")
    ui.tap_text("Start the game")
    assert ui.app.manager.current == "macao_setup" and ui.app.session.journal.games() == []
    assert any(text.startswith("The name for ") and "contains control characters" in text for text in ui.labels())

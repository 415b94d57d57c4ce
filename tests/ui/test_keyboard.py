"""The on-screen keyboard: a tapped text field opens it, its keys type into the field, in German
with umlauts; the name then goes through the one name rule when the game starts."""

from __future__ import annotations

from app.ui.i18n import translator
from app.ui.keyboard import shown_keyboard
from app.ui.widgets import TextField
from tests.ui.harness import UiHarness


def _open_macao_setup(ui: UiHarness, new_game: str = "New game") -> None:
    ui.tap_text(new_game)
    ui.tap(ui.tagged("game", "macao"))
    ui.tap(ui.tagged("seat", "orange"))
    ui.tap(ui.tagged("seat", "white"))


def _type(ui: UiHarness, keys: str | list[str]) -> None:
    keyboard = shown_keyboard()
    assert keyboard is not None
    for key in keys:
        ui.tap(keyboard.keys[key])


def _name_field(ui: UiHarness, hint: str) -> TextField:
    [field] = ui.find(TextField, hint_text=hint)
    return field


def test_jurgen_is_typed_by_taps_in_german_and_starts_the_game(ui: UiHarness) -> None:
    translator.set_language("de")
    ui.idle()
    try:
        _open_macao_setup(ui, "Neue Partie")
        ui.tap(_name_field(ui, "Orange"))
        keyboard = shown_keyboard()
        assert keyboard is not None and keyboard.field.hint_text == "Orange"
        assert {"ü", "ö", "ä", "ß"} <= set(keyboard.keys)
        assert keyboard.keys["j"].text == "J"  # a name starts with a capital
        taps_before = ui.taps
        _type(ui, "jürgen")
        assert keyboard.keys["r"].text == "r"
        assert keyboard.preview.text == "Jürgen|"
        ui.tap(keyboard.keys["done"])
        assert shown_keyboard() is None
        assert ui.taps - taps_before == 7  # six letters and Done
        assert _name_field(ui, "Orange").text == "Jürgen"
        ui.tap_text("Partie beginnen")
        assert ui.app.manager.current == "game"
        assert [name for _colour, name in ui.app.session.games()[-1].players] == ["Jürgen", "Weiß"]
    finally:
        translator.set_language("en")


def test_english_keys_shift_delete_space_and_a_tap_elsewhere(ui: UiHarness) -> None:
    _open_macao_setup(ui)
    ui.tap(_name_field(ui, "White"))
    keyboard = shown_keyboard()
    assert keyboard is not None and "ü" not in keyboard.keys and "y" in keyboard.keys
    _type(ui, ["a", "n", "n", "x", "delete", "space", "b", "shift", "e", "shift", "shift", "l"])
    assert _name_field(ui, "White").text == "Ann BEl"  # a capital at each word; Shift once more, twice off
    ui.tap(ui.tagged("seat", "orange"))  # a tap above the keyboard closes it and does its own work
    assert shown_keyboard() is None
    assert ui.app.manager.current_screen.seated == ["white"]
    assert ui.app.manager.current_screen.names["white"] == "Ann BEl"


def test_a_name_keeps_to_its_length_and_leaving_the_screen_puts_the_keyboard_away(ui: UiHarness) -> None:
    """The field's filter holds for the keys as for a USB keyboard."""
    _open_macao_setup(ui)
    ui.tap(_name_field(ui, "Orange"))
    _type(ui, "abcdefghij" * 4 + "klm")
    assert _name_field(ui, "Orange").text == "A" + "bcdefghija" * 3 + "bcdefghij"
    ui.app.go("start")
    assert shown_keyboard() is None


def test_a_screen_drawn_again_drops_the_keyboard_and_lets_the_field_go(ui: UiHarness) -> None:
    _open_macao_setup(ui)
    field = _name_field(ui, "Orange")
    ui.tap(field)
    _type(ui, "ann")
    ui.app.refresh()  # e.g. a dice status arriving: the screen is built again from its state
    ui.idle()
    assert shown_keyboard() is None
    assert (field.focus, field.unfocus_on_touch) == (False, True)
    assert ui.app.manager.current_screen.names["orange"] == "Ann"  # what was typed is kept

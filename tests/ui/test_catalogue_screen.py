"""Settings → card list by taps: export into the exports folder, import from a list of its .json files;
a malformed file is refused whole with what and where, and the table's own cards are never lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.ui.macao.catalogue import CardCatalogue
from app.ui.i18n import translator
from app.ui.settings_store import UiSettings
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

TOWER = {"name": "Tower", "kind": "building", "cost": ["red", "blue"], "tribute": [1, 0]}
ABBOT = {"name": "Abbot", "kind": "person", "cost": ["gray"], "tribute": [0, 1], "effects": ["no_tableau_penalty"]}
HARBOUR = {"name": "Harbour", "kind": "office", "cost": ["green", "green"], "tribute": [2, 0]}


def own_cards(ui: UiHarness) -> CardCatalogue:
    catalogue = ui.app.context.catalogue
    catalogue.learn([TOWER, ABBOT, ABBOT])
    catalogue.save()
    return catalogue


def names(catalogue: CardCatalogue) -> set[str]:
    return {card["name"] for card in catalogue.cards()}


def on_screen(ui: UiHarness, words: str) -> bool:
    return any(words in label for label in ui.labels())


def open_settings(ui: UiHarness) -> None:
    ui.app.go("settings")
    ui.idle()


def put_file(ui: UiHarness, name: str, text: str) -> Path:
    folder = ui.app.context.exports_dir
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_one_known_card_is_said_in_the_singular(ui: UiHarness) -> None:
    ui.app.context.catalogue.learn([TOWER])
    open_settings(ui)
    assert on_screen(ui, "1 known card") and not on_screen(ui, "1 known cards")


def test_export_writes_the_card_list_into_the_exports_folder(ui: UiHarness) -> None:
    catalogue = own_cards(ui)
    open_settings(ui)
    assert on_screen(ui, "2 known cards")
    ui.tap_text("Export card list")
    written = ui.app.context.exports_dir / "cards-202611291930.json"  # the harness clock: 2026-11-29T19:30
    assert on_screen(ui, f"Card list saved as cards-202611291930.json in {ui.app.context.exports_dir}.")
    again = CardCatalogue(written)
    assert again.load() is None
    assert again.cards() == catalogue.cards()


def test_nothing_to_export_says_so_and_writes_nothing(ui: UiHarness) -> None:
    open_settings(ui)
    ui.tap_text("Export card list")
    assert on_screen(ui, "No named cards yet: nothing to export.")
    assert not ui.app.context.exports_dir.exists()


def test_import_lists_the_exports_folder_and_adds_the_chosen_file_to_the_own_cards(ui: UiHarness) -> None:
    catalogue = own_cards(ui)
    put_file(ui, "friends.json", json.dumps({"cards": [HARBOUR, {**TOWER, "seen": 5}]}))
    put_file(ui, "macao-1-202611291930.json", json.dumps({"format": "macao-record/1", "players": [], "actions": []}))
    open_settings(ui)
    ui.tap_text("Import card list")
    assert on_screen(ui, "Tap one to add its cards to yours.")
    friends = ui.tagged("card-file", "friends.json")
    assert [w.text for w in friends.children][::-1] == ["friends.json", "2 cards"]
    record = ui.tagged("card-file", "macao-1-202611291930.json")
    assert record.children[0].text == "not a card list (no list of cards in it)"
    ui.tap(friends)
    assert names(catalogue) == {"Tower", "Abbot", "Harbour"}
    assert catalogue.cards()[0]["name"] == "Tower"  # seen 5 times in the friends' games: offered first
    assert names(_reloaded(catalogue)) == {"Tower", "Abbot", "Harbour"}  # saved too
    assert on_screen(ui, "1 new cards from friends.json; the card list now holds 3.")
    assert on_screen(ui, "3 known cards")  # back on the settings


def _reloaded(catalogue: CardCatalogue) -> CardCatalogue:
    again = CardCatalogue(catalogue.path)
    assert again.load() is None
    return again


@pytest.mark.parametrize(("text", "what"), [
    ('{"cards": [' + json.dumps(HARBOUR) + ', {"name": "Bad", "kind": "ship", "cost": ["red"], "tribute": [0, 0]}]}',
     "broken.json: card 2: the kind must be office, building or person, not 'ship'"),
    ('{"cards": [' + json.dumps({**HARBOUR, "cost": ["purple"]}) + "]}",
     "broken.json: card 1: the cost must be a list of 1 to 4 cube colours"),
    ('{"cards": [' + json.dumps({**HARBOUR, "tribute": [3, 0]}) + "]}",
     "broken.json: card 1: the tribute must be two numbers from 0 to 2"),
    ('{"cards": [' + json.dumps(HARBOUR) + ', "Tower"]}', "broken.json: card 2: not a card"),
    ('{"cards": [' + json.dumps({**HARBOUR, "name": " "}) + "]}", "broken.json: card 1: a card needs a name"),
    ('{"cards": [\n  {"name": "Harbour",\n  }', "broken.json: not a card list: broken JSON at line 3, column 3"),
    ('["Tower", "Abbot"]', "broken.json: not a card list (no list of cards in it)"),
], ids=["kind", "cost-colour", "tribute", "not-a-card", "no-name", "bad-json", "no-card-list"])
def test_a_malformed_file_is_refused_whole_with_what_and_where(ui: UiHarness, text: str, what: str) -> None:
    catalogue = own_cards(ui)
    own_file = catalogue.path.read_bytes()
    put_file(ui, "broken.json", text)
    open_settings(ui)
    ui.tap_text("Import card list")
    ui.tap(ui.tagged("card-file", "broken.json"))
    assert on_screen(ui, what + "\nNothing was imported; your card list is unchanged.")
    assert names(catalogue) == {"Tower", "Abbot"}  # not even the good card before the bad one
    assert catalogue.path.read_bytes() == own_file
    assert ui.buttons("Back")  # still choosing: another file can be tapped


def test_an_unsaveable_import_keeps_the_cards_as_they_were(ui: UiHarness) -> None:
    catalogue = own_cards(ui)
    put_file(ui, "friends.json", json.dumps({"cards": [HARBOUR]}))
    catalogue.path = catalogue.path.parent / "not-a-folder" / "cards.json"
    catalogue.path.parent.write_text("a file where a folder should be\n")
    open_settings(ui)
    ui.tap_text("Import card list")
    ui.tap(ui.tagged("card-file", "friends.json"))
    assert on_screen(ui, "cards.json: the card list could not be saved (")
    assert names(catalogue) == {"Tower", "Abbot"}


def test_an_empty_exports_folder_tells_where_to_put_a_card_list(ui: UiHarness) -> None:
    open_settings(ui)
    ui.tap_text("Import card list")
    assert on_screen(ui, f"No .json files in {ui.app.context.exports_dir}.")
    ui.tap_text("Back")
    assert ui.buttons("Export card list")


def test_the_card_list_screens_speak_german(ui: UiHarness) -> None:
    own_cards(ui)
    put_file(ui, "broken.json", '{"cards": [{"name": "Bad", "kind": "ship", "cost": ["red"], "tribute": [0, 0]}]}')
    try:
        translator.set_language("de")
        open_settings(ui)
        assert on_screen(ui, "2 bekannte Karten")
        ui.tap_text("Kartenliste importieren")
        ui.tap(ui.tagged("card-file", "broken.json"))
        assert on_screen(ui, "broken.json: Karte 1: die Art muss Amt, Gebäude oder Person sein, nicht 'ship'\n"
                             "Nichts wurde importiert")
    finally:
        translator.set_language("en")


def test_start_up_notices_of_a_damaged_card_list_and_journal_show_in_german(tmp_path: Path) -> None:
    (tmp_path / "windrose.db").write_bytes(b"this is not a database" * 100)
    (tmp_path / "cards.json").write_text('{"cards": [{"name": "Tower", "kind": "tower"}]}')
    (tmp_path / "ui-settings.json").write_text("[1, 2")
    context = make_context(tmp_path)
    _settings, settings_warning = context.settings_store.load(UiSettings())
    context.warnings = [*context.session.notices, context.catalogue.load(), settings_warning]
    context.settings = UiSettings(language="de")
    harness = UiHarness(context)
    try:
        [notice] = [label for label in harness.labels() if label.startswith("Die Datei mit den gespeicherten")]
        assert "war nicht lesbar: die Datei ist keine SQLite-Datenbank" in notice
        assert "cards.json: Karte 1: die Art muss Amt, Gebäude oder Person sein, nicht 'tower'" in notice
        assert "ui-settings.json: unlesbare Einstellungen übergangen (" in notice
        translator.set_language("en")  # switched while the notice is up: it follows
        harness.idle()
        assert any("cards.json: card 1: the kind must be office, building or person" in label
                   for label in harness.labels())
        assert not any(label.startswith("Die Datei mit den gespeicherten") for label in harness.labels())
    finally:
        translator.set_language("en")
        harness.close()


def test_a_backup_that_fails_during_play_shows_on_the_start_screen(ui: UiHarness, tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backup folder should be")
    ui.app.session.backup_dir = blocked
    Table(ui).advance(lambda state: state.round == 2)  # a new round: the backup copy is due
    ui.app.go("start")
    ui.idle()
    assert any(label.startswith("The backup copy of game 1 could not be written (") for label in ui.labels())


def test_a_huge_file_is_not_read_as_a_card_list(ui: UiHarness) -> None:
    own_cards(ui)
    huge = put_file(ui, "dump.json", "")
    with huge.open("wb") as handle:
        handle.truncate(6_000_000)  # a sparse file: big on paper, nothing to write
    open_settings(ui)
    ui.tap_text("Import card list")
    assert ui.tagged("card-file", "dump.json").children[0].text == "too large for a card list (over 5 MB)"
    ui.tap(ui.tagged("card-file", "dump.json"))
    assert on_screen(ui, "dump.json: too large for a card list (over 5 MB)\nNothing was imported")
    assert names(ui.app.context.catalogue) == {"Tower", "Abbot"}

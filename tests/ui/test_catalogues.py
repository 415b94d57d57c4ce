"""The gettext catalogues: compiled files match their sources, and German covers every visible string."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from app.ui.i18n import LOCALE_DIR, Translator
from tests.ui.msgids import all_msgids, ui_msgids

LANGUAGES = ("en", "de")


def _catalogue(language: str):  # noqa: ANN202 - babel's Catalog
    with (LOCALE_DIR / language / "LC_MESSAGES" / "windrose.po").open("rb") as po:
        return read_po(po)


def _translations(language: str) -> dict[str, str]:
    """Each English text and its translation; a plural entry gives its singular and its plural."""
    pairs: dict[str, str] = {}
    for message in _catalogue(language):
        if not message.id:
            continue
        if message.pluralizable:
            pairs.update(zip(message.id, message.string))
        else:
            pairs[message.id] = message.string
    return pairs


@pytest.mark.parametrize("language", LANGUAGES)
def test_committed_mo_is_the_compiled_po(language: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, _catalogue(language))
    committed = (LOCALE_DIR / language / "LC_MESSAGES" / "windrose.mo").read_bytes()
    assert committed == compiled.getvalue(), f"run: pybabel compile -d app/locale -D windrose ({language})"


def test_german_translates_every_string_the_ui_shows() -> None:
    german = _translations("de")
    untranslated = sorted(text for text in all_msgids() if not german.get(text))
    assert untranslated == []


def test_german_keeps_every_placeholder() -> None:
    import string

    def fields(text: str) -> set[str]:
        return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}

    german = _translations("de")
    broken = {msgid: text for msgid, text in german.items() if text and fields(msgid) != fields(text)}
    assert broken == {}


def test_english_catalogue_lists_the_same_strings() -> None:
    assert {m.id for m in _catalogue("en") if m.id} == {m.id for m in _catalogue("de") if m.id}


def test_switching_language_changes_text_and_tells_listeners(tmp_path: Path) -> None:
    translator = Translator()
    heard: list[str] = []
    translator.on_change(heard.append)
    translator.set_language("de")
    assert translator.gettext("New game") == "Neue Partie"
    assert [translator.ngettext("card", "cards", n) for n in (1, 2)] == ["Karte", "Karten"]
    translator.set_language("xx")  # unknown: back to English
    assert translator.gettext("New game") == "New game"
    assert heard == ["de", "en"]


def test_ui_strings_are_found_in_the_source() -> None:
    assert {"New game", "Undo", "End of turn", "Dice are right"} <= ui_msgids()

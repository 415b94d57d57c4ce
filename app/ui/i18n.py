"""Gettext for the table UI, switchable at runtime (English, German).

Every visible string goes through `_()`. The rules core hands the UI
`Message` objects whose English template is the msgid, so the same catalogue
translates the core's explanations too. Switching language only swaps the
active catalogue; the app then rebuilds its screens, which re-read `_()`.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Any

DOMAIN = "windrose"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}
DEFAULT_LANGUAGE = "en"

class Translator:
    """Holds the active gettext catalogue and tells listeners when it changes."""

    def __init__(self) -> None:
        self.language = DEFAULT_LANGUAGE
        self._catalogue: gettext.NullTranslations = gettext.NullTranslations()
        self._listeners: list[Callable[[str], None]] = []

    def set_language(self, language: str) -> None:
        """Activate a language; unknown codes fall back to English."""
        if language not in LANGUAGES:
            language = DEFAULT_LANGUAGE
        self._catalogue = gettext.translation(
            DOMAIN, localedir=str(LOCALE_DIR), languages=[language], fallback=True
        )
        changed = language != self.language
        self.language = language
        if changed:
            for listener in list(self._listeners):
                listener(language)

    def on_change(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[str], None]) -> None:
        """Forget a listener (an app that stops); unknown ones are ignored."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def gettext(self, text: str) -> str:
        return self._catalogue.gettext(text)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form for `count` in the active language (its catalogue's own plural rule)."""
        return self._catalogue.ngettext(singular, plural, count)

    def message(self, message: Any) -> str:
        """Render a core `Message` in the active language.

        String parameters (colours, goods, phrases such as "the wall") are
        translated too when the catalogue knows them; names pass unchanged.
        Nested messages (an undo naming the action) are rendered the same way.
        """
        template = getattr(message, "template", None)
        if template is None:
            return self.gettext(str(message))
        params: dict[str, Any] = {}
        for key, value in dict(getattr(message, "params", {}) or {}).items():
            if hasattr(value, "template"):
                params[key] = self.message(value)
            elif isinstance(value, str):
                params[key] = self.gettext(value)
            else:
                params[key] = value
        return type(message)(template, params).render(self.gettext)


translator = Translator()


def _(text: str) -> str:
    """Translate a UI string in the active language."""
    return translator.gettext(text)


def ngettext(singular: str, plural: str, count: int) -> str:
    """Translate a UI string that names a count: "1 card", "2 cards"."""
    return translator.ngettext(singular, plural, count)


def N_(text: str) -> str:
    """Mark a string for translation where it is defined; `_()` translates it when shown."""
    return text

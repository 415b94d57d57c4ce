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

# Words that arrive as plain parameter values (colours, goods, card kinds) and
# are translated when a core message is shown.
_WORD_PARAMS: frozenset[str] = frozenset(
    {
        "orange", "white", "yellow", "brown",
        "red", "blue", "green", "black", "gray", "violet",
        "lacquer", "rice", "tea", "jade", "silk", "paper", "porcelain", "spices", "joker",
        "office", "building", "person", "gold",
    }
)


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

    def gettext(self, text: str) -> str:
        return self._catalogue.gettext(text)

    def message(self, message: Any) -> str:
        """Render a core `Message` (or any object with template/params) in the active language."""
        template = getattr(message, "template", None)
        if template is None:
            return self.gettext(str(message))
        params = {
            key: self.gettext(value) if isinstance(value, str) and value in _WORD_PARAMS else value
            for key, value in dict(getattr(message, "params", {}) or {}).items()
        }
        render = getattr(message, "render", None)
        if render is not None:
            return type(message)(template, params).render(self.gettext)
        return self.gettext(template).format(**params)


translator = Translator()


def _(text: str) -> str:
    """Translate a UI string in the active language."""
    return translator.gettext(text)


def N_(text: str) -> str:
    """Mark a string for translation where it is defined; `_()` translates it when shown."""
    return text

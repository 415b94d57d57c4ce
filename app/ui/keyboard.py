"""The on-screen keyboard: the kiosk has no keyboard of its own, so every text field opens this one.

It lies over the lower part of the field's screen in the app's colours (a screen that is drawn
again drops it with its fields), shows the field's hint and the text typed so far (the field
itself may be hidden under it), and types into the field with the
field's own `insert_text` and `do_backspace`, so a field's filter (a name's greatest length)
holds for taps as for a USB keyboard. The keys follow the table's language: German has the
umlauts and ß. A capital starts the text and each word (names); Shift gives one more.
A tap outside the keyboard, or Done, closes it; leaving a screen closes it too (`close_keyboard`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.widgets import BigButton, Panel, TextLabel

# The letter rows by language (digits above them, Shift, Delete, Space and Done around them).
LAYOUTS: dict[str, tuple[str, ...]] = {
    "en": ("1234567890", "qwertyuiop", "asdfghjkl'", "zxcvbnm-."),
    "de": ("1234567890", "qwertzuiopü", "asdfghjklöä", "yxcvbnmß-."),
}
KEY_HEIGHT = theme.TOUCH_MIN
PREVIEW_HEIGHT = 40
KEY_GAP = 4
WORD_STARTS = " -"  # after these (or at the start) a name's next letter is a capital
CURSOR = "|"


def letter_rows(language: str) -> tuple[str, ...]:
    return LAYOUTS.get(language, LAYOUTS["en"])


class Keyboard(Panel):
    """The keys for one field; `press(key)` is what a key's tap does (also for tests and tools)."""

    def __init__(self, field: TextInput, width: float, **kwargs: Any) -> None:
        rows = letter_rows(translator.language)
        height = PREVIEW_HEIGHT + (KEY_HEIGHT + KEY_GAP) * (len(rows) + 1) + KEY_GAP * 2
        super().__init__(orientation="vertical", size_hint=(None, None), width=width, height=height,
                         pos=(0, 0), padding=KEY_GAP, spacing=KEY_GAP, bg=list(theme.PANEL))
        self.field = field
        self.rows = rows
        self.shift = False
        self.keys: dict[str, BigButton] = {}
        self._build()
        self.bind(parent=self._on_parent)

    def _on_parent(self, _keyboard: Keyboard, parent: Widget | None) -> None:
        """Kivy's parent binding: a keyboard taken off its screen is put away."""
        if parent is None:
            self._put_away()

    def _build(self) -> None:
        preview = BoxLayout(size_hint_y=None, height=PREVIEW_HEIGHT, spacing=theme.GAP)
        preview.add_widget(TextLabel(self.field.hint_text, size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                                     size_hint_x=0.3))
        self.preview = TextLabel("", size=theme.FONT_LARGE, bold=True)
        preview.add_widget(self.preview)
        self.add_widget(preview)
        for number, letters in enumerate(self.rows):
            row = BoxLayout(size_hint_y=None, height=KEY_HEIGHT, spacing=KEY_GAP)
            if number == len(self.rows) - 1:
                row.add_widget(self._key("shift", _("Shift"), width=1.6))
            for letter in letters:
                row.add_widget(self._key(letter, letter))
            if number == len(self.rows) - 1:
                row.add_widget(self._key("delete", _("Delete"), width=1.6))
            self.add_widget(row)
        bottom = BoxLayout(size_hint_y=None, height=KEY_HEIGHT, spacing=KEY_GAP)
        bottom.add_widget(self._key("space", _("Space"), width=6))
        bottom.add_widget(self._key("done", _("Done"), width=2, role="ok"))
        self.add_widget(bottom)
        self._show()

    def _key(self, key: str, label: str, width: float = 1.0, role: str = "normal") -> BigButton:
        button = BigButton(label, on_tap=lambda: self.press(key), role=role, size_hint_x=width, size_hint_y=1,
                           tag=("key", key))
        self.keys[key] = button
        return button

    def capitals(self) -> bool:
        """Whether the next letter is a capital: Shift, or the start of the text or of a word."""
        text = self.field.text
        return self.shift or not text or text[-1] in WORD_STARTS

    def press(self, key: str) -> None:
        if self.field.get_root_window() is None:  # the field's screen was redrawn without it
            close_keyboard()
            return
        if key == "done":
            close_keyboard()
            return
        if key == "shift":
            self.shift = not self.shift
        elif key == "delete":
            self.field.do_backspace()
        else:
            text = " " if key == "space" else key
            if self.capitals() and text != "ß":  # ß starts no word and has no capital key
                text = text.upper()
            self.field.insert_text(text)
            self.shift = False
        self._show()

    def _show(self) -> None:
        """The typed text in the preview, the letters as the next tap types them."""
        self.preview.text = self.field.text + CURSOR
        upper = self.capitals()
        for letters in self.rows:
            for letter in letters:
                if letter != "ß":
                    self.keys[letter].text = letter.upper() if upper else letter
        self.keys["shift"].role = "selected" if self.shift else "normal"
        self.keys["shift"]._apply_colours()

    def _put_away(self) -> None:
        """Dropped from its screen (closed, or the screen drawn again): the field is itself again,
        and nothing keeps the dropped screen's widgets alive."""
        if _Shown.keyboard is self:
            _Shown.keyboard = None
        self.field.unfocus_on_touch = True
        self.field.focus = False

    def on_touch_down(self, touch: Any) -> bool:
        """Every touch on the keyboard is its own; one elsewhere closes it and goes on."""
        if self.collide_point(*touch.pos):
            super().on_touch_down(touch)
            return True
        close_keyboard()
        return False


class _Shown:
    keyboard: Keyboard | None = None


def open_keyboard(field: TextInput) -> Keyboard:
    """Show the keyboard for `field` (in place of one open for another field)."""
    shown = _Shown.keyboard
    if shown is not None and shown.field is field:
        return shown
    close_keyboard()
    host = next((parent for parent in _parents(field) if isinstance(parent, Screen)), Window)
    keyboard = Keyboard(field, host.width)
    field.unfocus_on_touch = False  # the keys' taps must not take the field's focus
    host.add_widget(keyboard)
    _Shown.keyboard = keyboard
    return keyboard


def _parents(widget: Widget) -> Iterator[Widget]:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        yield parent
        parent = parent.parent


def close_keyboard() -> None:
    """Put the keyboard away (nothing to do when none is shown); the field keeps what was typed."""
    keyboard = _Shown.keyboard
    if keyboard is None:
        return
    if keyboard.parent is not None:
        keyboard.parent.remove_widget(keyboard)  # which puts it away
    else:
        keyboard._put_away()


def shown_keyboard() -> Keyboard | None:
    return _Shown.keyboard
